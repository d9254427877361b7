package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
)

// newPublishedAClass adds an A class of the fixture's players (順位 in the
// fixture's order) through the form, draws and publishes it, and returns
// the class page's path and id.
func newPublishedAClass(t *testing.T, a *testApp, f leagueFixture) (string, int64) {
	t.Helper()
	resp, body := a.postForm(f.base()+"/classes", url.Values{"class": {"A"}, "members": {f.memberLines()}, "allowance": {"360"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("add A class: %d %s", resp.StatusCode, body)
	}
	classURL := resp.Header.Get("Location")
	cid, err := strconv.ParseInt(strings.TrimPrefix(classURL, "/league/"), 10, 64)
	if err != nil {
		t.Fatalf("class location %q: %v", classURL, err)
	}
	if resp, body := a.postForm(classURL+"/generate", url.Values{"seed": {"11"}, "draw_date": {"2026-05-01"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	if resp, body := a.postForm(classURL+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("publish: %d %s", resp.StatusCode, body)
	}
	return classURL, cid
}

// leagueRow is the public table's row of the player called name.
func leagueRow(t *testing.T, d *goquery.Document, name string) *goquery.Selection {
	t.Helper()
	var row *goquery.Selection
	d.Find(`[data-testid="league-table"] tbody tr`).Each(func(_ int, s *goquery.Selection) {
		n := s.Find(`td.league-name`).Clone()
		n.Find(`.league-points`).Remove()
		if strings.TrimSpace(n.Text()) == name {
			row = s
		}
	})
	if row == nil {
		t.Fatalf("no table row for %s", name)
	}
	return row
}

// postQuickForm submits the quick result form that holds button btn
// (a goquery selection on the page), as the browser would.
func postQuickForm(t *testing.T, a *testApp, btn *goquery.Selection) {
	t.Helper()
	if btn.Length() != 1 {
		t.Fatalf("expected one result button, found %d", btn.Length())
	}
	form := btn.Closest("form")
	action, _ := form.Attr("action")
	in := url.Values{}
	form.Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		val, _ := s.Attr("value")
		if name != "_csrf" {
			in.Set(name, val)
		}
	})
	name, _ := btn.Attr("name")
	val, _ := btn.Attr("value")
	in.Set(name, val)
	in.Set("confirm", "1") // the preview's confirmation (issue 13)
	if resp, body := a.postForm(action, in); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("quick result %v: %d %s", in, resp.StatusCode, body)
	}
}

// TestLeaguePlayoffWeb_A_ClassStepladder: an A class whose 順位 2, 3 and 4
// finish level for the challenger place (DOMAIN.md: A class, パラマス in
// 順位 order). Through HTTP: the first playoff game (順位 3 v 4) is created,
// its result entered by the quick form, then the second (the winner v 順位
// 2), and the public table marks the last winner 挑戦者. A signed-in user
// without a role gets 403; the public is sent to /login.
func TestLeaguePlayoffWeb_A_ClassStepladder(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f)
		o := office.New(a.store, a.srv.Now)
		sched := office.Actor{UserID: f.sched.ID, Login: f.sched.Login}
		st, err := o.Standings(ctx, sched, cid)
		if err != nil {
			t.Fatal(err)
		}
		idx := map[int64]int{}
		for i, p := range f.players {
			idx[p.ID] = i
		}
		// Players 1, 2, 3 beat 0, 4, 5 and beat each other in a circle
		// (1 > 2 > 3 > 1); 0 > 4 > 5 > 0. Top three: 4–1 each.
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
			gid := strconv.FormatInt(g.GameID, 10)
			in := a.shown(classURL, `[data-testid="league-game-`+gid+`"]`, url.Values{"result": {res}})
			in.Set("confirm", "1")
			if resp, body := a.postForm(classURL+"/result", in); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("result of game %s: %d %s", gid, resp.StatusCode, body)
			}
		}

		// The event is public from here on: publishing the schedule
		// published it (a draft's classes are hidden: 404 for anyone
		// without a role).
		if e, err := a.store.EventByID(ctx, f.eventID); err != nil || e.Status != office.StatusPublished {
			t.Fatalf("event after the schedule's publication: %q, %v", e.Status, err)
		}
		// Permissions on the playoff route, before anything is created.
		outsider := a.addUser("outsider", false)
		other := *a
		other.client = a.newClient()
		a.signIn(other.client, outsider.ID)
		if resp, _ := other.postForm(classURL+"/playoff", url.Values{}); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a user without a role creates a playoff game: %d, want 403", resp.StatusCode)
		}
		public := *a
		public.client = a.newClient()
		if resp, _ := public.postForm(classURL+"/playoff", url.Values{}); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("the public creates a playoff game: %d %s, want a redirect to /login", resp.StatusCode, resp.Header.Get("Location"))
		}
		if made, _ := a.store.LeaguePlayoffGames(ctx, cid); len(made) != 0 {
			t.Fatalf("a refused request created %d playoff games", len(made))
		}

		// Game 1: 順位 4 (players[3]) v 順位 3 (players[2]); the lower takes sente.
		_, body := a.get(classURL)
		d := doc(t, body)
		if next := d.Find(`[data-testid="league-playoff-form"]`).Text(); !strings.Contains(next, f.players[3].Name) || !strings.Contains(next, f.players[2].Name) {
			t.Fatalf("first playoff game offered as %q", next)
		}
		if resp, body := a.postForm(classURL+"/playoff", url.Values{"date": {"2027-03-10"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create playoff game 1: %d %s", resp.StatusCode, body)
		}
		// One game at a time: a second POST is refused while game 1 is open.
		if resp, _ := a.postForm(classURL+"/playoff", url.Values{}); resp.StatusCode != http.StatusConflict {
			t.Fatalf("second playoff game before the first is decided: %d, want 409", resp.StatusCode)
		}
		_, body = a.get(classURL)
		d = doc(t, body)
		row1 := d.Find(`[data-testid="league-playoff-1"]`)
		if tds := row1.Find("td"); tds.Eq(1).Text() != f.players[3].Name || tds.Eq(2).Text() != f.players[2].Name {
			t.Fatalf("playoff game 1 row: lower %q, higher %q", tds.Eq(1).Text(), tds.Eq(2).Text())
		}
		if d.Find(`[data-testid="league-playoff-form"]`).Length() != 0 {
			t.Fatal("the next playoff game is offered while game 1 is undecided")
		}
		// 順位 4 (sente) wins.
		postQuickForm(t, a, row1.Find(`[data-testid="league-playoff-sente-win"]`))

		// Game 2: the winner (players[3]) v 順位 2 (players[1]).
		_, body = a.get(classURL)
		d = doc(t, body)
		if w := d.Find(`[data-testid="league-playoff-1"] [data-testid="league-playoff-winner"]`).Text(); !strings.Contains(w, f.players[3].Name) {
			t.Fatalf("game 1 winner shown as %q", w)
		}
		if next := d.Find(`[data-testid="league-playoff-form"]`).Text(); !strings.Contains(next, f.players[3].Name) || !strings.Contains(next, f.players[1].Name) {
			t.Fatalf("second playoff game offered as %q", next)
		}
		if resp, body := a.postForm(classURL+"/playoff", url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create playoff game 2: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(classURL)
		d = doc(t, body)
		row2 := d.Find(`[data-testid="league-playoff-2"]`)
		if tds := row2.Find("td"); tds.Eq(1).Text() != f.players[3].Name || tds.Eq(2).Text() != f.players[1].Name {
			t.Fatalf("playoff game 2 row: lower %q, higher %q", tds.Eq(1).Text(), tds.Eq(2).Text())
		}
		// 順位 2 (gote) wins and becomes the challenger.
		postQuickForm(t, a, row2.Find(`[data-testid="league-playoff-gote-win"]`))
		if resp, _ := a.postForm(classURL+"/playoff", url.Values{}); resp.StatusCode != http.StatusConflict {
			t.Fatalf("a playoff game after the challenger is known: %d, want 409", resp.StatusCode)
		}

		// The public table.
		resp, body := a.do(a.newClient(), http.MethodGet, classURL, nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("public table: %d", resp.StatusCode)
		}
		d = doc(t, body)
		if c := d.Find(`[data-testid="league-challenger"]`).Text(); !strings.Contains(c, f.players[1].Name) {
			t.Fatalf("challenger notice %q, want %s", c, f.players[1].Name)
		}
		for i, p := range f.players {
			marks := leagueRow(t, d, p.Name).Find(`[data-testid="league-marks"]`).Text()
			if got, want := strings.Contains(marks, "挑戦者"), i == 1; got != want {
				t.Errorf("%s (順位 %d): marks %q; challenger %v, want %v", p.Name, i+1, marks, got, want)
			}
		}
		if d.Find(`[data-testid="league-playoff-form"]`).Length() != 0 || d.Find(`[data-testid="league-playoff-sente-win"]`).Length() != 0 {
			t.Fatal("the public sees playoff staff tools")
		}
	})
}

// TestLeagueBothLoseWeb_LossForEach: a league game where neither player
// came, entered over HTTP as a double forfeit (both_lose), shows ● with the
// 両者負け note for both players on the public table, and each one's loss
// count goes up by one while nobody gains a win.
func TestLeagueBothLoseWeb_LossForEach(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f) // publishes the event too
		o := office.New(a.store, a.srv.Now)
		st, err := o.Standings(ctx, office.Actor{UserID: f.sched.ID, Login: f.sched.Login}, cid)
		if err != nil {
			t.Fatal(err)
		}
		g := st.Games[0]
		name := map[int64]string{}
		for _, p := range f.players {
			name[p.ID] = p.Name
		}
		record := func(d *goquery.Document, id int64) string {
			return leagueRow(t, d, name[id]).Find(`[data-testid="league-record"]`).Text()
		}
		public := a.newClient()
		_, body := a.do(public, http.MethodGet, classURL, nil, "")
		before := doc(t, body)
		for _, id := range []int64{g.Sente, g.Gote} {
			if r := record(before, id); r != "0勝0敗" {
				t.Fatalf("%s before any result: %q", name[id], r)
			}
		}

		// The quick form offers sente win, gote win and redo only; a
		// both_lose posted there is refused with the field message.
		gid := strconv.FormatInt(g.GameID, 10)
		resp, body := a.postForm(classURL+"/result", a.shown(classURL, `[data-testid="league-game-`+gid+`"]`, url.Values{"confirm": {"1"}, "result": {office.ResultBothLose}}))
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-result"), office.ResultBothLose) {
			t.Fatalf("both_lose on the quick form: %d", resp.StatusCode)
		}
		// Entered where double forfeits belong: the game page's end form.
		resp, body = a.postForm("/games/"+gid+"/end", a.shown("/games/"+gid, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"forfeit"}, "both_absent": {"true"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("double forfeit on the game page: %d %s", resp.StatusCode, body)
		}
		if eff, ok, _ := a.store.EffectiveResult(ctx, g.GameID); !ok || eff.Result != office.ResultBothLose {
			t.Fatalf("stored result %+v (%v), want both_lose", eff, ok)
		}

		_, body = a.do(public, http.MethodGet, classURL, nil, "")
		d := doc(t, body)
		for _, pair := range [][2]int64{{g.Sente, g.Gote}, {g.Gote, g.Sente}} {
			me, opp := pair[0], pair[1]
			if r := record(d, me); r != "0勝1敗" {
				t.Errorf("%s after both_lose: %q, want 0勝1敗", name[me], r)
			}
			cells := leagueRow(t, d, name[me]).Find(`[data-testid="league-cell"]`)
			marked := 0
			cells.Each(func(_ int, c *goquery.Selection) {
				if strings.Contains(c.Text(), "両者負け") {
					marked++
					if !strings.HasPrefix(c.Find(".league-result").Text(), "●") || !strings.Contains(c.Text(), strings.Fields(name[opp])[0]) {
						t.Errorf("%s: both_lose cell %q, want ● against %s (the table shows family names)", name[me], c.Text(), name[opp])
					}
				}
			})
			if marked != 1 {
				t.Errorf("%s: %d cells with the 両者負け note, want 1", name[me], marked)
			}
		}
		// Nobody else's record moved, and no ○ appeared anywhere.
		for _, p := range f.players {
			if p.ID == g.Sente || p.ID == g.Gote {
				continue
			}
			if r := record(d, p.ID); r != "0勝0敗" {
				t.Errorf("%s: %q, want 0勝0敗", p.Name, r)
			}
		}
		if n := d.Find(`[data-testid="league-cell"].win`).Length(); n != 0 {
			t.Errorf("%d ○ cells after a both_lose only", n)
		}
	})
}
