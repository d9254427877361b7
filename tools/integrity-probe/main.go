// Command integrity-probe measures issue 11's table against a real
// `kisen serve`: it starts the binary on a fresh database, creates its data
// through Kisen's own forms (setup, organiser, players, events, stages,
// draws, league classes), performs each row of the table over HTTP (and
// with sqlite3 / psql for the tampering row), and prints what happened.
//
//	go build -o /tmp/kisen ./cmd/kisen
//	go run ./tools/integrity-probe -kisen /tmp/kisen                       # SQLite
//	go run ./tools/integrity-probe -kisen /tmp/kisen -database-url postgres://…/fresh \
//	    -pg-stop '…' -pg-start '…'                                         # PostgreSQL
//
// It is a measuring tool, not a test: it never fails on a figure, it
// reports it (docs/results-integrity.md, "Measured again").
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	kisen := flag.String("kisen", "kisen", "the kisen binary")
	dbURL := flag.String("database-url", "", "a fresh, empty PostgreSQL database (empty: SQLite in a new folder)")
	pgStop := flag.String("pg-stop", "", "shell command that stops the PostgreSQL server (outage row; empty: skip)")
	pgStart := flag.String("pg-start", "", "shell command that starts it again")
	flag.Parse()
	p, err := start(*kisen, *dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "integrity-probe:", err)
		os.Exit(1)
	}
	p.pgStop, p.pgStart = *pgStop, *pgStart
	err = p.run()
	p.stop() // before os.Exit, which runs no deferred call
	p.printRows()
	if err != nil {
		fmt.Fprintln(os.Stderr, "integrity-probe:", err)
		os.Exit(1)
	}
}

type probe struct {
	cmd             *exec.Cmd
	base, dataDir   string
	dbURL           string
	setup           string
	admin           *client
	rows            [][2]string
	pgStop, pgStart string
}

func (p *probe) row(what, outcome string, a ...any) {
	o := fmt.Sprintf(outcome, a...)
	p.rows = append(p.rows, [2]string{what, o})
	fmt.Printf("# %s\n  %s\n", what, o)
}

func (p *probe) printRows() {
	db := "SQLite"
	if p.dbURL != "" {
		db = "PostgreSQL"
	}
	fmt.Printf("\n| what was done | %s |\n| --- | --- |\n", db)
	for _, r := range p.rows {
		fmt.Printf("| %s | %s |\n", r[0], r[1])
	}
}

func start(bin, dbURL string) (*probe, error) {
	dir, err := os.MkdirTemp("", "integrity-probe-")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	args := []string{"serve", "--listen", addr, "--log-level", "error", "--data-dir", dir}
	if dbURL != "" {
		args = append(args, "--database-url", dbURL)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "KISEN_DATABASE_URL=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &probe{cmd: cmd, base: "http://" + addr, dataDir: dir, dbURL: dbURL}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "/setup?token="); i >= 0 {
				found <- strings.TrimSpace(sc.Text()[i:])
			}
		}
	}()
	select {
	case p.setup = <-found:
	case <-time.After(90 * time.Second):
		p.stop()
		return nil, fmt.Errorf("kisen serve printed no setup link (log: %s)", logf.Name())
	}
	fmt.Printf("kisen serve at %s, data %s, log %s\n", p.base, dir, logf.Name())
	return p, nil
}

func (p *probe) stop() {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			p.cmd.Process.Kill()
		}
	}
}

// sql runs one statement with the database's own command-line client,
// as someone with shell access would: it returns its output and error.
func (p *probe) sql(q string) (string, error) {
	var cmd *exec.Cmd
	if p.dbURL == "" {
		cmd = exec.Command("sqlite3", filepath.Join(p.dataDir, "kisen.db"), q)
	} else {
		cmd = exec.Command("psql", p.dbURL, "-v", "ON_ERROR_STOP=1", "-Atc", q)
	}
	b, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(b)), err
}

func (p *probe) count(q string) int {
	out, err := p.sql(q)
	if err != nil {
		return -1
	}
	n, _ := strconv.Atoi(out)
	return n
}

const password = "probe-password-1"

func (p *probe) run() error {
	admin := p.newClient()
	p.admin = admin
	u, _ := url.Parse(p.setup)
	if a := admin.get(u.RequestURI()); a.code != 200 {
		return fmt.Errorf("setup page: %d", a.code)
	}
	if _, err := admin.must("/setup", url.Values{"token": {u.Query().Get("token")}, "login": {"probe"}, "display_name": {"計測"},
		"password": {password}, "password2": {password}}); err != nil {
		return err
	}
	if _, err := admin.must("/organisers", url.Values{"name": {"日本将棋連盟"}, "kind": {"federation"}}); err != nil {
		return err
	}
	orgs, _, err := admin.shownOptions("/events", `select[name="organiser_id"] option`)
	if err != nil || len(orgs) == 0 {
		return fmt.Errorf("no organiser to choose: %v", err)
	}
	org := orgs[len(orgs)-1]
	families := []string{"青木", "石田", "上野", "江口", "大山", "加藤", "木村", "久保"}
	kana := []string{"あおき", "いしだ", "うえの", "えぐち", "おおやま", "かとう", "きむら", "くぼ"}
	var players []string
	for i := range families {
		loc, err := admin.must("/players", url.Values{"number": {fmt.Sprintf("P%02d", i+1)}, "name": {families[i] + " 一郎"},
			"reading": {kana[i] + " いちろう"}, "kind": {"professional"}, "rank": {"四段"}, "class": {"C2"}})
		if err != nil {
			return err
		}
		players = append(players, idOf(loc, "/players/"))
	}

	// A knockout event with an eight-player stage, drawn and published.
	loc, err := admin.must("/events", url.Values{"organiser_id": {org}, "name": {"計測杯"}, "kind": {"knockout"},
		"start_date": {"2026-09-01"}, "end_date": {"2027-03-31"}})
	if err != nil {
		return err
	}
	ko := idOf(loc, "/events/")
	stage, err := admin.must("/events/"+ko+"/stages", url.Values{"name": {"一次予選"}, "kind": {"first_preliminary"},
		"qualifiers": {"2"}, "round_dates": {"2026-09-10 2026-10-10 2026-11-10"}})
	if err != nil {
		return err
	}
	stage = "/stages/" + idOf(stage, "/stages/")
	for _, pl := range players {
		if _, err := admin.must(stage+"/entrants", url.Values{"player_id": {pl}}); err != nil {
			return err
		}
	}
	if _, err := admin.must(stage+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-08-21"}}); err != nil {
		return err
	}
	if _, err := admin.must(stage+"/publish", url.Values{"confirm": {"1"}}); err != nil {
		return err
	}

	if err := p.rowEnd(admin, ko, players); err != nil {
		return fmt.Errorf("end row: %w", err)
	}
	if err := p.rowStage(admin, stage, "R1-G1", 2); err != nil {
		return fmt.Errorf("stage row (2): %w", err)
	}
	if err := p.rowStage(admin, stage, "R1-G3", 20); err != nil {
		return fmt.Errorf("stage row (20): %w", err)
	}
	league, err := p.newLeague(admin, org)
	if err != nil {
		return fmt.Errorf("league: %w", err)
	}
	if err := p.rowLeague(admin, league); err != nil {
		return fmt.Errorf("league row: %w", err)
	}
	if err := p.rowCorrection(admin, ko, stage); err != nil {
		return fmt.Errorf("correction row: %w", err)
	}
	if err := p.rowRedo(admin, league); err != nil {
		return fmt.Errorf("redo row: %w", err)
	}
	if err := p.rowTamper(admin, ko, players); err != nil {
		return fmt.Errorf("tamper row: %w", err)
	}
	if err := p.rowText(admin, ko, players); err != nil {
		return fmt.Errorf("text row: %w", err)
	}
	if err := p.rowDraft(admin, org, players); err != nil {
		return fmt.Errorf("draft row: %w", err)
	}
	if err := p.rowLogin(admin); err != nil {
		return fmt.Errorf("login row: %w", err)
	}
	if err := p.rowOutage(admin, ko, players); err != nil {
		return fmt.Errorf("outage row: %w", err)
	}
	return nil
}
