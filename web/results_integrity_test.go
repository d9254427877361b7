package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"kisen/office"
	"kisen/store"
)

// Issue 11 part 1: one result at a time, everywhere. Each test posts one
// route from 20 goroutines at once over HTTP, all with the version the page
// showed and alternating opposite results, on SQLite and PostgreSQL:
// exactly one request wins (303), the other 19 get the 409 page, and
// exactly one new version (or confirmation, or ruling) is stored.

const racers = 20

// raceResult is one racing request's answer.
type raceResult struct {
	code int
	body string
}

// race posts form(i) to path from n goroutines released together, from
// the signed-in browser a.client, and returns every answer.
func (a *testApp) race(path string, n int, form func(i int) url.Values) []raceResult {
	a.t.Helper()
	token := a.csrfToken(a.client)
	out := make([]raceResult, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		f := form(i)
		f.Set("_csrf", token)
		req, err := http.NewRequest(http.MethodPost, a.ts.URL+path, strings.NewReader(f.Encode()))
		if err != nil {
			a.t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp, err := a.client.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			out[i], errs[i] = raceResult{code: resp.StatusCode, body: string(b)}, err
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			a.t.Fatal(err)
		}
	}
	return out
}

// oneWins checks exactly one 303 and n-1 409s, each 409 the stale page.
func oneWins(t *testing.T, rs []raceResult) {
	t.Helper()
	won, stale := 0, 0
	for _, r := range rs {
		switch r.code {
		case http.StatusSeeOther:
			won++
		case http.StatusConflict:
			stale++
			if testid(t, r.body, "stale-title") == "" || testid(t, r.body, "stale-in-force") == "" {
				t.Fatalf("a 409 without the result in force: %s", r.body)
			}
		default:
			t.Fatalf("status %d: %s", r.code, r.body)
		}
	}
	if won != 1 || stale != len(rs)-1 {
		t.Fatalf("%d won, %d refused as stale; want 1 and %d", won, stale, len(rs)-1)
	}
}

func versionsOf(t *testing.T, a *testApp, gameID int64) []store.ResultVersion {
	t.Helper()
	hist, err := a.store.ResultHistory(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	return hist
}

func side(i int, a, b string) string {
	if i%2 == 0 {
		return a
	}
	return b
}

// gameRace sets up a game with its arbiter signed in.
func gameRace(t *testing.T, a *testApp) (gameSetup, string) {
	g := newGameSetup(t, a, "{}")
	a.signIn(a.client, g.arbiter.UserID)
	return g, "/games/" + strconv.FormatInt(g.game.ID, 10)
}

func TestConcurrentEnd_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		seen := a.shown(path, `[data-testid="end-form"]`, nil).Get("version")
		if seen != "0" {
			t.Fatalf("the end form of a new game shows version %q", seen)
		}
		oneWins(t, a.race(path+"/end", racers, func(i int) url.Values {
			return url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {side(i, "sente", "gote")}, "version": {seen}}
		}))
		if n := len(versionsOf(t, a, g.game.ID)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
	})
}

func TestConcurrentCorrection_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		if resp, body := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d %s", resp.StatusCode, body)
		}
		seen := a.shown(path, `[data-testid="end-form"]`, nil).Get("version")
		if seen != "1" {
			t.Fatalf("after the end the form shows version %q", seen)
		}
		oneWins(t, a.race(path+"/end", racers, func(i int) url.Values {
			return url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {side(i, "sente", "gote")}, "version": {seen}}
		}))
		if n := len(versionsOf(t, a, g.game.ID)); n != 2 {
			t.Fatalf("%d versions stored, want 2", n)
		}
	})
}

func TestConcurrentFoulClaim_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		if resp, body := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d %s", resp.StatusCode, body)
		}
		seen := a.shown(path, `[data-testid="claim-form"]`, nil).Get("version")
		oneWins(t, a.race(path+"/claims", racers, func(i int) url.Values {
			return url.Values{"confirm": {"1"}, "foul": {"two_moves"}, "offender": {side(i, "sente", "gote")}, "found": {"after"},
				"claimed_by": {"third_party"}, "version": {seen}}
		}))
		if n := len(versionsOf(t, a, g.game.ID)); n != 2 {
			t.Fatalf("%d versions stored, want 2", n)
		}
	})
}

// TestConcurrentFoulLossRuling_OneWins_D_K1: a foul loss (反則負け) decides
// the game, so it carries the version seen like any result.
func TestConcurrentFoulLossRuling_OneWins_D_K1(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		seen := a.shown(path, `[data-testid="ruling-form"]`, nil).Get("version")
		oneWins(t, a.race(path+"/rulings", racers, func(i int) url.Values {
			return url.Values{"kind": {"foul_loss"}, "player": {side(i, "sente", "gote")}, "reason": {"二手指し"}, "version": {seen}, "confirm": {"1"}}
		}))
		if n := len(versionsOf(t, a, g.game.ID)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
		rulings, err := a.store.Rulings(context.Background(), g.game.ID)
		if err != nil || len(rulings) != 1 {
			t.Fatalf("%d rulings stored, want 1 (%v)", len(rulings), err)
		}
	})
}

func TestConcurrentConfirm_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g, path := gameRace(t, a)
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", g.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		rv, err := a.srv.Office.RecordResult(ctx, g.admin, g.game.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation})
		if err != nil || rv.Confirmed() {
			t.Fatalf("entry: %v (confirmed %v)", err, rv.Confirmed())
		}
		form := a.shown(path, `[data-testid="confirm-form"]`, nil)
		if form.Get("result") != strconv.FormatInt(rv.ID, 10) {
			t.Fatalf("the confirm form names result %q, want %d", form.Get("result"), rv.ID)
		}
		oneWins(t, a.race(path+"/confirm", racers, func(int) url.Values { return url.Values{"result": {form.Get("result")}} }))
		var n int64
		if err := a.store.DB(ctx).Model(&store.GameResultConfirmation{}).Where("game_result_id = ?", rv.ID).Count(&n).Error; err != nil || n != 1 {
			t.Fatalf("%d confirmations stored, want 1 (%v)", n, err)
		}
		if hist := versionsOf(t, a, g.game.ID); len(hist) != 1 || !hist[0].Confirmed() {
			t.Fatalf("history %+v", hist)
		}
	})
}

func TestConcurrentStageResult_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path := f.newStage(t, "一次予選")
		for _, p := range f.players {
			if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("add entrant: %d", resp.StatusCode)
			}
		}
		if resp, body := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("draw: %d %s", resp.StatusCode, body)
		}
		if resp, body := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d %s", resp.StatusCode, body)
		}
		kgs, err := a.store.KnockoutGamesOfStage(ctx, stageIDOf(t, path))
		if err != nil || len(kgs) == 0 {
			t.Fatalf("no games after publication: %v", err)
		}
		gm, err := a.store.GameByID(ctx, kgs[0].GameID)
		if err != nil {
			t.Fatal(err)
		}
		form := a.shown(path, `[data-testid="result-`+kgs[0].BracketGame+`"]`, nil)
		if form.Get("game_id") != strconv.FormatInt(gm.ID, 10) || form.Get("version") != "0" {
			t.Fatalf("the quick form shows game %q version %q", form.Get("game_id"), form.Get("version"))
		}
		// A form from before the fields existed: 422 naming the field.
		noGame := cloneForm(form)
		noGame.Del("game_id")
		noGame.Set("winner", strconv.FormatInt(*gm.SentePlayerID, 10))
		noGame.Set("reason", "resignation")
		if resp, body := a.postForm(path+"/result", noGame); resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-game_id") == "" {
			t.Fatalf("no game_id: %d %q", resp.StatusCode, testid(t, body, "error-game_id"))
		}
		oneWins(t, a.race(path+"/result", racers, func(i int) url.Values {
			in := cloneForm(form)
			in.Set("confirm", "1")
			in.Set("winner", strconv.FormatInt(*side2(i, gm.SentePlayerID, gm.GotePlayerID), 10))
			in.Set("reason", "resignation")
			return in
		}))
		if n := len(versionsOf(t, a, gm.ID)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
	})
}

func side2(i int, a, b *int64) *int64 {
	if i%2 == 0 {
		return a
	}
	return b
}

func TestConcurrentLeagueResult_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f)
		st, err := a.srv.Office.Standings(ctx, office.Actor{UserID: f.sched.ID, Login: f.sched.Login}, cid)
		if err != nil {
			t.Fatal(err)
		}
		gid := st.Games[0].GameID
		form := a.shown(classURL, `[data-testid="league-game-`+strconv.FormatInt(gid, 10)+`"]`, nil)
		noVersion := cloneForm(form)
		noVersion.Del("version")
		noVersion.Set("result", office.ResultSenteWin)
		if resp, body := a.postForm(classURL+"/result", noVersion); resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-version") == "" {
			t.Fatalf("no version: %d %q", resp.StatusCode, testid(t, body, "error-version"))
		}
		oneWins(t, a.race(classURL+"/result", racers, func(i int) url.Values {
			in := cloneForm(form)
			in.Set("confirm", "1")
			in.Set("result", side(i, office.ResultSenteWin, office.ResultGoteWin))
			return in
		}))
		if n := len(versionsOf(t, a, gid)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
	})
}

// TestConcurrentPlayoffResult_OneWins: the A class's パラマス playoff game
// takes the same quick result form and the same check.
func TestConcurrentPlayoffResult_OneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f)
		o := a.srv.Office
		sched := office.Actor{UserID: f.sched.ID, Login: f.sched.Login}
		st, err := o.Standings(ctx, sched, cid)
		if err != nil {
			t.Fatal(err)
		}
		idx := map[int64]int{}
		for i, p := range f.players {
			idx[p.ID] = i
		}
		// As in TestLeaguePlayoffWeb_A_ClassStepladder: 順位 2, 3, 4 tie.
		beats := func(x, y int) bool {
			top := func(i int) bool { return i >= 1 && i <= 3 }
			if top(x) != top(y) {
				return top(x)
			}
			return map[[2]int]bool{{1, 2}: true, {2, 3}: true, {3, 1}: true, {0, 4}: true, {4, 5}: true, {5, 0}: true}[[2]int{x, y}]
		}
		for _, g := range st.Games {
			res := office.ResultGoteWin
			if beats(idx[g.Sente], idx[g.Gote]) {
				res = office.ResultSenteWin
			}
			if err := o.EnterLeagueResult(ctx, sched, office.LeagueResultInput{GameID: g.Current, Version: g.Version, Result: res}); err != nil {
				t.Fatal(err)
			}
		}
		pg, err := o.CreatePlayoffGame(ctx, sched, office.PlayoffGameInput{ClassID: cid})
		if err != nil {
			t.Fatal(err)
		}
		form := a.shown(classURL, `[data-testid="league-playoff-1"]`, nil)
		if form.Get("game") != strconv.FormatInt(pg.ID, 10) {
			t.Fatalf("the playoff form posts game %q, want %d", form.Get("game"), pg.ID)
		}
		oneWins(t, a.race(classURL+"/result", racers, func(i int) url.Values {
			in := cloneForm(form)
			in.Set("confirm", "1")
			in.Set("result", side(i, office.ResultSenteWin, office.ResultGoteWin))
			return in
		}))
		if n := len(versionsOf(t, a, pg.ID)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
	})
}

// TestStaleResult_PageFragmentAndMissingVersion: the 409 page names the
// result in force, the players, who entered it and when (Japan time), in
// the user's language; htmx gets a fragment; a form without the version
// field is 422 naming it, and nothing is stored.
func TestStaleResult_PageFragmentAndMissingVersion(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		// No version field: the page is out of date.
		resp, body := a.postForm(path+"/end", url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-version"), "版") {
			t.Fatalf("no version: %d %q", resp.StatusCode, testid(t, body, "error-version"))
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 0 {
			t.Fatalf("%d versions stored without a version field", n)
		}
		old := a.shown(path, `[data-testid="end-form"]`, url.Values{"kind": {"resign"}, "by": {"sente"}})
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		// The stale form (version 0) in Japanese.
		resp, body = a.postForm(path+"/end", cloneForm(old))
		if resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale end: %d", resp.StatusCode)
		}
		d := doc(t, body)
		inForce := d.Find(`[data-testid="stale-in-force"]`)
		if r := inForce.Find(`[data-testid="stale-result"]`).Text(); !strings.Contains(r, g.sente.Name) || !strings.Contains(r, "勝ち") {
			t.Fatalf("result in force %q, want the sente %s's win", r, g.sente.Name)
		}
		if r := inForce.Find(`[data-testid="stale-reason"]`).Text(); r != "投了" {
			t.Fatalf("reason %q", r)
		}
		if e := inForce.Find(`[data-testid="stale-entered"]`).Text(); !strings.Contains(e, "立会 一郎") || !strings.Contains(e, "2026-11-21 12:00") {
			t.Fatalf("entered %q: want the arbiter and Japan time", e)
		}
		if p := testid(t, body, "stale-players"); !strings.Contains(p, g.sente.Name) || !strings.Contains(p, g.gote.Name) {
			t.Fatalf("players %q", p)
		}
		if href, _ := d.Find(`[data-testid="stale-back"]`).Attr("href"); href != path {
			t.Fatalf("back link %q", href)
		}
		// In English, and as an htmx fragment.
		a.get("/lang?to=en&back=/")
		req, _ := http.NewRequest(http.MethodPost, a.ts.URL+path+"/end", strings.NewReader(func() string {
			f := cloneForm(old)
			f.Set("_csrf", a.csrfToken(a.client))
			return f.Encode()
		}()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		resp, body = a.send(a.client, req)
		if resp.StatusCode != http.StatusConflict || strings.Contains(body, "<html") || testid(t, body, "stale-fragment") == "" {
			t.Fatalf("htmx stale: %d %q", resp.StatusCode, body)
		}
		if tt := testid(t, body, "stale-title"); tt != "Someone else entered a result first" {
			t.Fatalf("English title %q", tt)
		}
		if r := doc(t, body).Find(`[data-testid="stale-in-force"] [data-testid="stale-result"]`).Text(); r != "Sente "+g.sente.Name+" won" {
			t.Fatalf("English result %q", r)
		}
		if e := testid(t, body, "stale-entered"); !strings.HasPrefix(e, "Entered by 立会 一郎") || !strings.Contains(e, "Japan time") {
			t.Fatalf("English entry line %q", e)
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 1 {
			t.Fatalf("%d versions stored, want 1", n)
		}
	})
}
