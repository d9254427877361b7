package main

import (
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
)

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
