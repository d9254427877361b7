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
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
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

// client is one browser: a cookie jar, no redirects followed.
type client struct {
	base string
	hc   *http.Client
}

func (p *probe) newClient() *client {
	jar, _ := cookiejar.New(nil)
	return &client{base: p.base, hc: &http.Client{Jar: jar, Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type answer struct {
	code int
	body string
	hdr  http.Header
	err  error
}

func (c *client) do(method, path string, form url.Values, hdr map[string]string) answer {
	var body io.Reader
	if form != nil {
		if form.Get("_csrf") == "" {
			form.Set("_csrf", c.csrf())
		}
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return answer{err: err}
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, body: string(b), hdr: resp.Header, err: err}
}

func (c *client) get(path string) answer { return c.do(http.MethodGet, path, nil, nil) }

func (c *client) post(path string, form url.Values) answer {
	return c.do(http.MethodPost, path, form, nil)
}

func (c *client) csrf() string {
	u, _ := url.Parse(c.base)
	for range 2 {
		for _, ck := range c.hc.Jar.Cookies(u) {
			if ck.Name == "kisen_csrf" {
				return ck.Value
			}
		}
		c.get("/")
	}
	return ""
}

// must posts and wants a 303; it returns the Location.
func (c *client) must(path string, form url.Values) (string, error) {
	a := c.post(path, form)
	if a.err != nil {
		return "", a.err
	}
	if a.code != http.StatusSeeOther {
		return "", fmt.Errorf("POST %s: %d %s", path, a.code, snippet(a.body))
	}
	return a.hdr.Get("Location"), nil
}

func snippet(body string) string {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return body
	}
	var errs []string
	d.Find(`[data-testid^="error-"]`).Each(func(_ int, s *goquery.Selection) {
		errs = append(errs, s.AttrOr("data-testid", "")+": "+strings.TrimSpace(s.Text()))
	})
	if len(errs) > 0 {
		return strings.Join(errs, "; ")
	}
	t := strings.Join(strings.Fields(d.Find("main").Text()), " ")
	if t == "" {
		t = strings.Join(strings.Fields(d.Text()), " ")
	}
	if len(t) > 300 {
		t = t[:300]
	}
	return t
}

// shown returns the hidden fields of the form found at sel on the page.
func (c *client) shown(path, sel string) (url.Values, *goquery.Selection, error) {
	a := c.get(path)
	if a.err != nil || a.code != 200 {
		return nil, nil, fmt.Errorf("GET %s: %d %v", path, a.code, a.err)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return nil, nil, err
	}
	f := d.Find(sel).First()
	if f.Length() == 0 {
		return nil, nil, fmt.Errorf("%s: no %s", path, sel)
	}
	if !f.Is("form") {
		if in := f.Find("form"); in.Length() > 0 {
			f = in.First()
		} else {
			f = f.Closest("form")
		}
	}
	v := url.Values{}
	f.Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
		if n := s.AttrOr("name", ""); n != "_csrf" {
			v.Set(n, s.AttrOr("value", ""))
		}
	})
	return v, f, nil
}

func clone(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// race posts forms[i] from n goroutines released together and counts the
// status codes.
func (c *client) race(path string, forms []url.Values) (map[int]int, []answer) {
	out := make([]answer, len(forms))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, f := range forms {
		f.Set("_csrf", c.csrf())
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = c.post(path, f)
		}()
	}
	close(start)
	wg.Wait()
	codes := map[int]int{}
	for _, a := range out {
		if a.err != nil {
			codes[-1]++
			continue
		}
		if a.code == http.StatusConflict && !strings.Contains(a.body, `data-testid="stale-title"`) {
			codes[4090]++ // a 409 that is not the stale-result page
			continue
		}
		codes[a.code]++
	}
	return codes, out
}

func codesText(m map[int]int) string {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var parts []string
	for _, k := range ks {
		name := strconv.Itoa(k)
		switch k {
		case -1:
			name = "transport error"
		case 4090:
			name = "409 (not the stale page)"
		case http.StatusConflict:
			name = "409 (stale page)"
		}
		parts = append(parts, fmt.Sprintf("%d × %s", m[k], name))
	}
	return strings.Join(parts, ", ")
}

func idOf(loc, prefix string) string {
	s := strings.TrimPrefix(loc, prefix)
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	return s
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

func (c *client) shownOptions(path, sel string) ([]string, *goquery.Document, error) {
	a := c.get(path)
	if a.code != 200 {
		return nil, nil, fmt.Errorf("GET %s: %d", path, a.code)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return nil, nil, err
	}
	var out []string
	d.Find(sel).Each(func(_ int, s *goquery.Selection) {
		if v := s.AttrOr("value", ""); v != "" {
			out = append(out, v)
		}
	})
	return out, d, nil
}

// newGame creates a standalone game of the event through its form.
func (p *probe) newGame(c *client, event, label, sente, gote string) (string, error) {
	loc, err := c.must("/events/"+event+"/games", url.Values{"label": {label}, "sente_id": {sente}, "gote_id": {gote},
		"scheduled_on": {"2026-11-20"}, "allowance": {"360"}})
	if err != nil {
		return "", err
	}
	return idOf(loc, "/games/"), nil
}

// Row 1: 20 concurrent POST /games/:id/end, alternating by=sente/gote,
// all with the version the page showed.
func (p *probe) rowEnd(c *client, ko string, players []string) error {
	gid, err := p.newGame(c, ko, "計測1", players[0], players[1])
	if err != nil {
		return err
	}
	path := "/games/" + gid
	form, _, err := c.shown(path, `[data-testid="end-form"]`)
	if err != nil {
		return err
	}
	var forms []url.Values
	for i := range 20 {
		f := clone(form)
		f.Set("confirm", "1")
		f.Set("kind", "resign")
		f.Set("by", []string{"sente", "gote"}[i%2])
		forms = append(forms, f)
	}
	codes, _ := c.race(path+"/end", forms)
	n := p.count("SELECT count(*) FROM game_results WHERE game_id = " + gid)
	p.row("20 concurrent `POST /games/:id/end`, alternating `by=sente` / `by=gote`, same version seen",
		"%s; %d version(s) stored (version seen %s)", codesText(codes), n, form.Get("version"))
	return nil
}

// Row 2: n concurrent quick results with opposite winners on one bracket game.
func (p *probe) rowStage(c *client, stage, bg string, n int) error {
	form, f, err := c.shown(stage, `[data-testid="result-`+bg+`"]`)
	if err != nil {
		return err
	}
	var winners []string
	f.Find(`select[name="winner"] option`).Each(func(_ int, s *goquery.Selection) {
		if v := s.AttrOr("value", ""); v != "" {
			winners = append(winners, v)
		}
	})
	if len(winners) != 2 {
		return fmt.Errorf("%s: %d winners to choose", bg, len(winners))
	}
	var forms []url.Values
	for i := range n {
		f := clone(form)
		f.Set("confirm", "1")
		f.Set("winner", winners[i%2])
		f.Set("reason", "resignation")
		forms = append(forms, f)
	}
	codes, _ := c.race(stage+"/result", forms)
	gid := form.Get("game_id")
	v := p.count("SELECT count(*) FROM game_results WHERE game_id = " + gid)
	p.row(fmt.Sprintf("%d concurrent `POST /stages/:id/result` (%s), opposite winners", n, bg),
		"%s; %d version(s) stored", codesText(codes), v)
	return nil
}

type leagueClass struct {
	path  string
	games []string // scheduled game ids in table order
}

func (p *probe) newLeague(c *client, org string) (*leagueClass, error) {
	loc, err := c.must("/events", url.Values{"organiser_id": {org}, "name": {"計測順位戦"}, "kind": {"junisen_term"},
		"start_date": {"2026-06-01"}, "end_date": {"2027-03-31"}})
	if err != nil {
		return nil, err
	}
	ev := idOf(loc, "/events/")
	members := "P01\nP02\nP03\nP04\nP05\nP06\n"
	cls, err := c.must("/events/"+ev+"/league/classes", url.Values{"class": {"A"}, "members": {members}, "allowance": {"360"}})
	if err != nil {
		return nil, err
	}
	cls = "/league/" + idOf(cls, "/league/")
	if _, err := c.must(cls+"/generate", url.Values{"seed": {"11"}, "draw_date": {"2026-05-01"}}); err != nil {
		return nil, err
	}
	if _, err := c.must(cls+"/publish", url.Values{"confirm": {"1"}}); err != nil {
		return nil, err
	}
	a := c.get(cls)
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return nil, err
	}
	l := &leagueClass{path: cls}
	d.Find(`tr[data-testid^="league-game-"]`).Each(func(_ int, s *goquery.Selection) {
		l.games = append(l.games, strings.TrimPrefix(s.AttrOr("data-testid", ""), "league-game-"))
	})
	if len(l.games) < 3 {
		return nil, fmt.Errorf("league table shows %d games", len(l.games))
	}
	return l, nil
}

// Row 3: 2 concurrent league quick results, opposite results.
func (p *probe) rowLeague(c *client, l *leagueClass) error {
	g := l.games[0]
	form, _, err := c.shown(l.path, `[data-testid="league-game-`+g+`"]`)
	if err != nil {
		return err
	}
	var forms []url.Values
	for i := range 2 {
		f := clone(form)
		f.Set("confirm", "1")
		f.Set("result", []string{"sente_win", "gote_win"}[i])
		forms = append(forms, f)
	}
	codes, _ := c.race(l.path+"/result", forms)
	v := p.count("SELECT count(*) FROM game_results WHERE game_id = " + g)
	p.row("2 concurrent `POST /league/:cid/result`, opposite results", "%s; %d version(s) stored", codesText(codes), v)
	return nil
}

// bracketGame reads a bracket game's id from the stage's quick form or
// the CSV.
func (p *probe) quickResult(c *client, stage, bg string, winnerIndex int) (string, error) {
	form, f, err := c.shown(stage, `[data-testid="result-`+bg+`"]`)
	if err != nil {
		return "", err
	}
	var winners []string
	f.Find(`select[name="winner"] option`).Each(func(_ int, s *goquery.Selection) {
		if v := s.AttrOr("value", ""); v != "" {
			winners = append(winners, v)
		}
	})
	form.Set("confirm", "1")
	form.Set("winner", winners[winnerIndex])
	form.Set("reason", "resignation")
	if _, err := c.must(stage+"/result", form); err != nil {
		return "", err
	}
	return form.Get("game_id"), nil
}

// csvRow returns the stage CSV's cells of the row whose cells contain bg.
func (p *probe) csvRow(c *client, stage, bg string) string {
	a := c.get(stage + "/csv")
	for _, line := range strings.Split(a.body, "\n") {
		if strings.Contains(line, bg) {
			return strings.TrimSpace(line)
		}
	}
	return "(no row)"
}

func (p *probe) names(gid string) string {
	out, _ := p.sql("SELECT s.name || ' v ' || g.name FROM games x JOIN players s ON s.id = x.sente_player_id JOIN players g ON g.id = x.gote_player_id WHERE x.id = " + gid)
	return out
}

func pageText(c *client, path, sel string) string {
	a := c.get(path)
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(d.Find(sel).Text()), " ")
}

// Row 4: R1-G2 corrected on its game page after R2-G1 was played.
func (p *probe) rowCorrection(c *client, ko, stage string) error {
	g12, err := p.quickResult(c, stage, "R1-G2", 0)
	if err != nil {
		return err
	}
	if _, err := p.quickResult(c, stage, "R1-G4", 0); err != nil {
		return err
	}
	r21, err := p.quickResult(c, stage, "R2-G1", 0)
	if err != nil {
		return err
	}
	before := p.names(r21)
	path := "/games/" + g12
	form, _, err := c.shown(path, `[data-testid="end-form"]`)
	if err != nil {
		return err
	}
	// The quick result gave R1-G2 to its first listed player; the
	// correction gives it to the other one.
	eff, _ := p.sql("SELECT result FROM game_results WHERE game_id = " + g12 + " ORDER BY version DESC LIMIT 1")
	form.Set("confirm", "1")
	form.Set("kind", "resign")
	if eff == "sente_win" {
		form.Set("by", "sente")
	} else {
		form.Set("by", "gote")
	}
	a := c.post(path+"/end", clone(form))
	d, _ := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	listed := d.Find(`[data-testid="correction-game"]`).Length()
	void := d.Find(`[data-testid="correction-void"]`).Length() == 1
	f2 := clone(form)
	f2.Set("correction_confirm", "1")
	noReason := c.post(path+"/end", clone(f2)).code
	f2.Set("correction_reason", "記入誤り")
	noVoid := c.post(path+"/end", clone(f2)).code
	f2.Set("correction_void", "1")
	saved := c.post(path+"/end", clone(f2)).code
	newR21, _ := p.sql("SELECT game_id FROM knockout_games WHERE stage_id = " + strings.TrimPrefix(stage, "/stages/") +
		" AND bracket_game = 'R2-G1' AND game_id NOT IN (SELECT game_id FROM game_voids) ORDER BY attempt DESC LIMIT 1")
	oldPage := pageText(c, "/games/"+r21, `[data-testid="game-void"]`)
	list := c.get("/events/" + ko + "/games")
	ld, _ := goquery.NewDocumentFromReader(strings.NewReader(list.body))
	oldStruck := ld.Find(`[data-testid="game-row-`+r21+`"] [data-testid="game-row-void"]`).Length() == 1
	newRow := strings.Join(strings.Fields(ld.Find(`[data-testid="game-row-`+newR21+`"]`).Text()), " ")
	csv := p.csvRow(c, stage, "R2-G1")
	after := p.names(newR21)
	agree := newR21 != "" && newR21 != r21 && strings.Contains(newRow, strings.Split(after, " v ")[0]) && strings.Contains(csv, strings.Split(after, " v ")[1])
	p.row("R1-G2's winner corrected on `/games/:id` after R2-G1 was played",
		"first post: %d, correction page lists %d later game(s), void choice asked: %v; without reason: %d; without void choice: %d; with both: %d. "+
			"Old R2-G1 (%s) void on its page: %v, struck through in the games list: %v; new R2-G1 #%s (%s); games list row and CSV row agree with it: %v (CSV: `%s`)",
		a.code, listed, void, noReason, noVoid, saved, before, oldPage != "", oldStruck, newR21, after, agree, csv)
	return nil
}

// Row 5: a league game marked 千日手, then the row's 後手勝ち button.
func (p *probe) rowRedo(c *client, l *leagueClass) error {
	g := l.games[1]
	row := `[data-testid="league-game-` + g + `"]`
	form, _, err := c.shown(l.path, row)
	if err != nil {
		return err
	}
	f := clone(form)
	f.Set("confirm", "1")
	f.Set("result", "redo")
	if _, err := c.must(l.path+"/result", f); err != nil {
		return err
	}
	a := c.get(l.path)
	d, _ := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	shownGote := strings.TrimSpace(d.Find(row + ` [data-testid="league-game-gote"]`).Text())
	mark := strings.TrimSpace(d.Find(row + ` [data-testid="league-redo-mark"]`).Text())
	after, _, err := c.shown(l.path, row)
	if err != nil {
		return err
	}
	stale := clone(form)
	stale.Set("confirm", "1")
	stale.Set("result", "gote_win")
	staleCode := c.post(l.path+"/result", stale).code
	btn := clone(after)
	btn.Set("confirm", "1")
	btn.Set("result", "gote_win")
	code := c.post(l.path+"/result", btn).code
	redo := after.Get("game")
	winner, _ := p.sql("SELECT CASE r.result WHEN 'gote_win' THEN gp.name WHEN 'sente_win' THEN sp.name END FROM game_results r JOIN games x ON x.id = r.game_id " +
		"JOIN players sp ON sp.id = x.sente_player_id JOIN players gp ON gp.id = x.gote_player_id WHERE r.game_id = " + redo + " ORDER BY r.version DESC LIMIT 1")
	p.row("a league game marked 千日手, then the row's 後手勝ち button",
		"row then shows game #%s (scheduled #%s) marked %q with gote %s; the pre-千日手 form: %d; the row's 後手勝ち: %d, winner stored: %s (%s)",
		redo, g, mark, shownGote, staleCode, code, winner, map[bool]string{true: "the gote the row names", false: "NOT the gote the row names"}[winner == shownGote])
	return nil
}

// Row 6: UPDATE / DELETE on rulings (and a played game) with the database's own client.
func (p *probe) rowTamper(c *client, ko string, players []string) error {
	gid, err := p.newGame(c, ko, "計測2", players[2], players[3])
	if err != nil {
		return err
	}
	path := "/games/" + gid
	form, _, err := c.shown(path, `[data-testid="ruling-form"]`)
	if err != nil {
		return err
	}
	form.Set("confirm", "1")
	form.Set("kind", "warning")
	form.Set("player", "sente")
	form.Set("reason", "時計を反対の手で押した")
	if _, err := c.must(path+"/rulings", form); err != nil {
		return err
	}
	end, _, _ := c.shown(path, `[data-testid="end-form"]`)
	end.Set("confirm", "1")
	end.Set("kind", "resign")
	end.Set("by", "gote")
	if _, err := c.must(path+"/end", end); err != nil {
		return err
	}
	try := func(q string) string {
		out, err := p.sql(q)
		if err != nil {
			if i := strings.Index(out, "append-only"); i >= 0 {
				out = out[i:]
			}
			if len(out) > 60 {
				out = out[:60]
			}
			return "refused (" + strings.TrimSpace(strings.Split(out, "\n")[0]) + ")"
		}
		return "SUCCEEDED"
	}
	upd := try("UPDATE rulings SET reason = 'x' WHERE game_id = " + gid)
	del := try("DELETE FROM rulings WHERE game_id = " + gid)
	delRes := try("DELETE FROM game_results WHERE game_id = " + gid)
	delGame := try("DELETE FROM games WHERE id = " + gid)
	left := p.count("SELECT count(*) FROM rulings WHERE game_id = " + gid)
	client := "sqlite3"
	if p.dbURL != "" {
		client = "psql"
	}
	p.row("`UPDATE rulings …` / `DELETE FROM rulings …` / `DELETE FROM games` (played) in "+client,
		"UPDATE rulings: %s; DELETE rulings: %s; DELETE game_results: %s; DELETE the game: %s; rulings left: %d", upd, del, delRes, delGame, left)
	return nil
}

// Row 7: invalid UTF-8 and NUL in a ruling, a player name, an event name, a query.
func (p *probe) rowText(c *client, ko string, players []string) error {
	gid, err := p.newGame(c, ko, "計測3", players[4], players[5])
	if err != nil {
		return err
	}
	path := "/games/" + gid
	form, _, err := c.shown(path, `[data-testid="ruling-form"]`)
	if err != nil {
		return err
	}
	form.Set("confirm", "1")
	form.Set("kind", "warning")
	form.Set("player", "sente")
	try := func(path string, f url.Values, _ string) string {
		return storable(c.post(path, f))
	}
	r1 := clone(form)
	r1.Set("reason", "\xff\xfe\x80")
	r2 := clone(form)
	r2.Set("reason", "a\x00b")
	ruling := try(path+"/rulings", r1, "reason") + " / " + try(path+"/rulings", r2, "reason")
	pl := try("/players", url.Values{"name": {"棋士\xff"}, "reading": {"きし"}, "kind": {"professional"}}, "name") + " / " +
		try("/players", url.Values{"name": {"棋士\x00"}, "reading": {"きし"}, "kind": {"professional"}}, "name")
	ev := try("/events", url.Values{"name": {"杯\x00"}, "kind": {"knockout"}, "start_date": {"2026-12-01"}, "end_date": {"2027-01-01"}}, "name") + " / " +
		try("/events", url.Values{"name": {"杯\xff\xfe"}, "kind": {"knockout"}, "start_date": {"2026-12-01"}, "end_date": {"2027-01-01"}}, "name")
	q := c.get("/players?q=%ff%fe%00")
	stored := p.count("SELECT count(*) FROM rulings WHERE game_id = " + gid)
	p.row("`reason=%ff%fe%80` / NUL in a ruling, a player name, an event name; `GET /players?q=%ff%fe%00`",
		"ruling: %s; player name: %s; event name: %s; query: %s; rulings stored: %d",
		ruling, pl, ev, storable(q), stored)
	return nil
}

// storable is a refused text's status and the field its page names.
func storable(a answer) string {
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		return strconv.Itoa(a.code)
	}
	f := d.Find(`[data-testid="unstorable-field"]`).Text()
	if i := strings.Index(f, "「"); i >= 0 {
		if j := strings.Index(f[i:], "」"); j > 0 {
			return fmt.Sprintf("%d naming %s", a.code, f[i:i+j+len("」")])
		}
	}
	if f = strings.TrimSpace(f); f != "" {
		return fmt.Sprintf("%d naming %q", a.code, f)
	}
	return strconv.Itoa(a.code)
}

// Row 10: an arbiter and a scheduler of a draft event.
func (p *probe) rowDraft(c *client, org string, players []string) error {
	loc, err := c.must("/events", url.Values{"organiser_id": {org}, "name": {"下書き杯"}, "kind": {"knockout"},
		"start_date": {"2026-09-01"}, "end_date": {"2027-03-31"}})
	if err != nil {
		return err
	}
	ev := idOf(loc, "/events/")
	stage, err := c.must("/events/"+ev+"/stages", url.Values{"name": {"一次予選"}, "kind": {"first_preliminary"},
		"qualifiers": {"2"}, "round_dates": {"2026-09-10 2026-10-10 2026-11-10"}})
	if err != nil {
		return err
	}
	stage = "/stages/" + idOf(stage, "/stages/")
	gid, err := p.newGame(c, ev, "下書き1", players[0], players[1])
	if err != nil {
		return err
	}
	users := map[string]*client{}
	for _, r := range []string{"arbiter", "scheduler"} {
		login := "probe-" + r
		if _, err := c.must("/users", url.Values{"login": {login}, "display_name": {r}, "password": {password}, "password2": {password}}); err != nil {
			return err
		}
		uid := p.count("SELECT id FROM users WHERE login = '" + login + "'")
		if _, err := c.must("/events/"+ev+"/roles", url.Values{"user_id": {strconv.Itoa(uid)}, "role": {r}}); err != nil {
			return err
		}
		u := p.newClient()
		if _, err := u.must("/login", url.Values{"login": {login}, "password": {password}, "next": {"/"}}); err != nil {
			return err
		}
		users[r] = u
	}
	rec := url.Values{"record": {"position startpos moves 7g7f 3c3d"}}
	arb := users["arbiter"]
	gp := arb.get("/games/" + gid)
	draftMark := strings.Contains(gp.body, `data-testid="draft-mark"`)
	prev := arb.post("/games/"+gid+"/record/preview", clone(rec)).code
	save := arb.post("/games/"+gid+"/record", clone(rec)).code
	sch := users["scheduler"]
	sp := sch.get(stage).code
	ent := sch.post(stage+"/entrants", url.Values{"player_id": {players[2]}}).code
	da := sch.post(stage+"/draw", url.Values{"seed": {"1"}, "draw_date": {"2026-08-21"}})
	draw := strconv.Itoa(da.code)
	if da.code != http.StatusSeeOther {
		draw += " (" + snippet(da.body) + ")"
	}
	anon := p.newClient().get("/games/" + gid).code
	p.row("an arbiter / a scheduler of a draft event",
		"arbiter: game page %d (marked 下書き: %v), record preview %d, record save %d; scheduler: `/stages/:id` %d, entrant POST %d, draw POST %s; the public: game page %d",
		gp.code, draftMark, prev, save, sp, ent, draw, anon)
	return nil
}

// Row 8: 20 concurrent wrong-password logins for one account.
func (p *probe) rowLogin(c *client) error {
	if _, err := c.must("/users", url.Values{"login": {"probe-victim"}, "display_name": {"victim"}, "password": {password}, "password2": {password}}); err != nil {
		return err
	}
	u := p.newClient()
	var forms []url.Values
	for range 20 {
		forms = append(forms, url.Values{"login": {"probe-victim"}, "password": {"wrong-password-9"}, "next": {"/"}})
	}
	codes, _ := u.race("/login", forms)
	p.row("20 concurrent wrong-password logins for one account",
		"%s (422 = the password was checked; 429 = refused before the check)", codesText(codes))
	return nil
}

// Row 9: the database goes away in the middle of a burst of writes.
func (p *probe) rowOutage(c *client, ko string, players []string) error {
	if p.dbURL == "" {
		return p.sqliteLock(c, ko, players)
	}
	if p.pgStop == "" {
		p.row("PostgreSQL stopped during a burst of writes", "not run (no -pg-stop)")
		return nil
	}
	const n = 48
	type res struct {
		code  int
		loc   string
		retry string
		label string
	}
	out := make([]res, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 60 * time.Millisecond)
			label := fmt.Sprintf("停電%02d", i)
			a := c.post("/events/"+ko+"/games", url.Values{"label": {label}, "sente_id": {players[6]}, "gote_id": {players[7]}, "scheduled_on": {"2026-11-20"}, "allowance": {"360"}})
			out[i] = res{code: a.code, loc: a.hdr.Get("Location"), retry: a.hdr.Get("Retry-After"), label: label}
			if a.err != nil {
				out[i].code = -1
			}
		}()
	}
	time.Sleep(800 * time.Millisecond)
	stopErr := exec.Command("sh", "-c", p.pgStop).Run()
	time.Sleep(1500 * time.Millisecond)
	down := c.get("/events/" + ko)
	ready := c.get("/readyz").code
	startErr := exec.Command("sh", "-c", p.pgStart).Run()
	wg.Wait()
	var back answer
	for range 30 {
		if back = c.get("/events/" + ko); back.code == 200 {
			break
		}
		time.Sleep(time.Second)
	}
	codes := map[int]int{}
	lost, retry := 0, 0
	for _, r := range out {
		codes[r.code]++
		if r.code == 503 && r.retry != "" {
			retry++
		}
		if r.code == 303 && p.count("SELECT count(*) FROM games WHERE label = '"+r.label+"'") != 1 {
			lost++
		}
	}
	p.row("PostgreSQL stopped (`pg_ctl stop -m immediate`) during a burst of 48 game-creating POSTs, then started",
		"%s; 503s with Retry-After: %d; 303s lost: %d; a page while down: %d (Retry-After %q), /readyz %d; after the restart: %d (stop err %v, start err %v)",
		codesText(codes), retry, lost, down.code, down.hdr.Get("Retry-After"), ready, back.code, stopErr, startErr)
	return nil
}

// sqliteLock holds SQLite's write lock from a sqlite3 shell for longer
// than the busy timeout while writes arrive: SQLite's own "outage".
func (p *probe) sqliteLock(c *client, ko string, players []string) error {
	cmd := exec.Command("sqlite3", filepath.Join(p.dataDir, "kisen.db"))
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	fmt.Fprintln(in, "BEGIN EXCLUSIVE;")
	time.Sleep(500 * time.Millisecond)
	var wg sync.WaitGroup
	codes := map[int]int{}
	var mu sync.Mutex
	retry := 0
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := c.post("/events/"+ko+"/games", url.Values{"label": {fmt.Sprintf("鍵%02d", i)}, "sente_id": {players[6]}, "gote_id": {players[7]}, "scheduled_on": {"2026-11-20"}, "allowance": {"360"}})
			mu.Lock()
			codes[a.code]++
			if a.hdr.Get("Retry-After") != "" {
				retry++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Fprintln(in, "ROLLBACK;")
	in.Close()
	cmd.Wait()
	after := c.post("/events/"+ko+"/games", url.Values{"label": {"鍵後"}, "sente_id": {players[6]}, "gote_id": {players[7]}, "scheduled_on": {"2026-11-20"}, "allowance": {"360"}}).code
	p.row("SQLite: the write lock held by a `sqlite3` shell (`BEGIN EXCLUSIVE`) beyond the 5 s busy timeout during 6 writes",
		"%s; with Retry-After: %d; a write after the lock is released: %d", codesText(codes), retry, after)
	return nil
}
