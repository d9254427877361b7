package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
)

// Issue 21 items 1 and 4 (docs/security.md section A): an id in a form's
// body must belong to the thing the path names and be visible to the
// actor before any version check (else 404, the answer a missing id
// gets); a principal who may not use a route at all is refused (403/404)
// before the form is judged (never 422).

// secIDsFixture: the crawl site (a published knockout event K whose
// director also directs day B, and a published 順位戦 term L with its
// scheduler), day B with round 1 open, and day D, a draft nobody of them
// holds a role in. All three day events are drafts unless published here.
type secIDsFixture struct {
	*crawlFixture
	dayB, dayD dayFixture
	// ids of games of other events each form may be posted with
	knockoutGame, leagueGame, draftGame int64
}

// newSecIDsFixture builds it. It takes about two seconds per database (the crawl site's
// draws, results and ratings, two days drawn through office/day): the
// tests below share one build each rather than one per route.
func newSecIDsFixture(t *testing.T, a *testApp) *secIDsFixture {
	t.Helper()
	ctx := context.Background()
	f := &secIDsFixture{crawlFixture: newCrawlFixture(t, a)}
	f.dayB = seedDay(t, a, 4, 1)
	f.dayD = seedDay(t, a, 6, 1)
	if err := a.srv.Office.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.dayB.event.ID, UserID: f.director.ID, Role: office.RoleDirector}); err != nil {
		t.Fatal(err)
	}
	f.knockoutGame = f.recorded
	lgs, err := a.store.LeagueGames(ctx, f.class)
	if err != nil || len(lgs) == 0 {
		t.Fatalf("league games: %v", err)
	}
	f.leagueGame = lgs[len(lgs)-1].GameID
	gs, err := a.store.GamesOfEvent(ctx, f.dayD.event.ID)
	if err != nil || len(gs) == 0 {
		t.Fatalf("draft day games: %v", err)
	}
	f.draftGame = gs[0].ID
	return f
}

// namesOf is what a page describing game id would show: its label and its
// players' names.
func namesOf(t *testing.T, a *testApp, id int64) []string {
	t.Helper()
	ctx := context.Background()
	g, err := a.store.GameByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	if g.Label != "" {
		out = append(out, g.Label)
	}
	for _, p := range []*int64{g.SentePlayerID, g.GotePlayerID} {
		if p == nil {
			continue
		}
		pl, err := a.store.PlayerByID(ctx, *p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pl.Name)
	}
	return out
}

// A form's game from another event (published or draft), or from this
// event but not the form's stage / board / class, is answered exactly as a
// missing game: 404, the same page, no name of it — on the quick result
// (preview and save), the day board (preview and save), the board's toss
// and the league row (preview and save), with a wrong version seen.
func TestStaleForms_ForeignGameIs404LikeMissing(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newSecIDsFixture(t, a)
		kgs, err := a.store.KnockoutGamesOfStage(ctx, f.stage)
		if err != nil || len(kgs) == 0 {
			t.Fatalf("stage games: %v", err)
		}
		bracketGame := kgs[0].BracketGame
		dayBGames, err := a.store.GamesOfEvent(ctx, f.dayB.event.ID)
		if err != nil || len(dayBGames) < 2 {
			t.Fatalf("day B games: %v", err)
		}
		stage := "/stages/" + strconv.FormatInt(f.stage, 10) + "/result"
		board := fmt.Sprintf("/day/classes/%d/rounds/1/boards/1", f.dayB.class.ID)
		league := "/league/" + strconv.FormatInt(f.class, 10) + "/result"
		type form struct {
			name, path, gameField string
			as                    store.User
			fields                url.Values
			foreign               []int64 // games that are not the form's
		}
		const missing = 987654321
		forms := []form{
			{"quick result preview", stage, "game_id", f.director, url.Values{"game": {bracketGame}, "winner": {"1"}, "reason": {"resignation"}},
				[]int64{f.leagueGame, f.draftGame, dayBGames[0].ID}},
			{"quick result save", stage, "game_id", f.director, url.Values{"game": {bracketGame}, "winner": {"1"}, "reason": {"resignation"}, "confirm": {"1"}},
				[]int64{f.leagueGame, f.draftGame, dayBGames[0].ID}},
			{"board preview", board + "/preview", "game_id", f.director, url.Values{"result": {"sente_win"}},
				[]int64{f.knockoutGame, f.leagueGame, f.draftGame}},
			{"board save", board, "game_id", f.director, url.Values{"result": {"sente_win"}},
				[]int64{f.knockoutGame, f.leagueGame, f.draftGame}},
			{"board toss", board + "/toss", "game_id", f.director, url.Values{"tosser": {"1"}, "fu": {"3"}, "to": {"2"}},
				[]int64{f.knockoutGame, f.leagueGame, f.draftGame}},
			{"league preview", league, "game", f.scheduler, url.Values{"result": {"sente_win"}},
				[]int64{f.knockoutGame, f.draftGame, dayBGames[0].ID}},
			{"league save", league, "game", f.scheduler, url.Values{"result": {"sente_win"}, "confirm": {"1"}},
				[]int64{f.knockoutGame, f.draftGame, dayBGames[0].ID}},
		}
		for _, fm := range forms {
			c := a.newClient()
			a.signIn(c, fm.as.ID)
			post := func(game int64) (int, string) {
				v := cloneForm(fm.fields)
				v.Set(fm.gameField, strconv.FormatInt(game, 10))
				v.Set("version", "7") // never the version any game has
				v.Set("_csrf", a.csrfToken(c))
				resp, body := a.do(c, http.MethodPost, fm.path, strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
				return resp.StatusCode, body
			}
			wantStatus, wantBody := post(missing)
			if wantStatus != http.StatusNotFound {
				t.Fatalf("%s: a missing game answered %d, want 404", fm.name, wantStatus)
			}
			for _, g := range fm.foreign {
				status, body := post(g)
				if status != wantStatus || body != wantBody {
					t.Errorf("%s: game %d of another event or board answered %d, not the missing game's 404 page", fm.name, g, status)
				}
				for _, n := range namesOf(t, a, g) {
					if strings.Contains(body, n) {
						t.Errorf("%s: the answer for game %d shows %q", fm.name, g, n)
					}
				}
			}
		}
		// Nothing was written by any of these posts.
		for _, g := range []int64{f.knockoutGame, f.leagueGame, f.draftGame} {
			for _, rv := range versionsOf(t, a, g) {
				if rv.EnteredBy == f.director.ID || rv.EnteredBy == f.scheduler.ID {
					t.Errorf("game %d got a result from a refused form: %+v", g, rv)
				}
			}
		}
	})
}

// The game page's confirm button names a result version in its body: one
// of another game (another event, a draft) is not found, as a missing one.
func TestConfirmForm_ForeignResultIs404LikeMissing(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newSecIDsFixture(t, a)
		c := a.newClient()
		a.signIn(c, f.director.ID)
		post := func(rid int64) (int, string) {
			v := url.Values{"result": {strconv.FormatInt(rid, 10)}, "_csrf": {a.csrfToken(c)}}
			resp, body := a.do(c, http.MethodPost, fmt.Sprintf("/games/%d/confirm", f.knockoutGame), strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
			return resp.StatusCode, body
		}
		wantStatus, wantBody := post(987654321)
		if wantStatus != http.StatusNotFound {
			t.Fatalf("a missing result answered %d", wantStatus)
		}
		// The draft day's first round is open: give its game a result.
		if err := f.dayD.d.EnterBoardResult(ctx, f.dayD.admin, boardResultOf(t, a, f.dayD, f.draftGame)); err != nil {
			t.Fatal(err)
		}
		lgs, err := a.store.LeagueGames(ctx, f.class)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []int64{lgs[0].GameID, f.draftGame} { // a round-1 league game has its result
			latest, has, err := a.store.LatestResult(ctx, g)
			if err != nil || !has {
				t.Fatalf("game %d has no result: %v", g, err)
			}
			if status, body := post(latest.ID); status != wantStatus || body != wantBody {
				t.Errorf("result %d of game %d answered %d, not the missing result's 404 page", latest.ID, g, status)
			}
		}
	})
}

// boardResultOf is a sente win on the board of day f whose game is g.
func boardResultOf(t *testing.T, a *testApp, f dayFixture, g int64) day.BoardResultInput {
	t.Helper()
	v, err := f.d.ClassView(context.Background(), f.admin, f.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range v.Rounds {
		for _, b := range r.Boards {
			if b.Last.ID == g {
				return day.BoardResultInput{ClassID: f.class.ID, Round: r.Number, Board: b.Board, GameID: g, Version: b.Version, Result: office.ResultSenteWin}
			}
		}
	}
	t.Fatalf("game %d is on no board", g)
	return day.BoardResultInput{}
}

// A signed-in user who holds a role in another event only, posting an
// empty or a nonsensical body to a write route of an event they hold no
// role in, is refused before the body is judged: 403 when they may see
// the thing the path names (a published event's game, stage, class),
// 404 when they may not (a draft's, or an unpublished stage of a
// published event) — never 422. The routes are those whose handlers
// judged the form before asking the office, and every stage route (an
// unpublished stage answered 403, telling it exists).
func TestWriteRoutes_RefusedPrincipalNever422(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newSecIDsFixture(t, a)
		o := a.srv.Office
		// Day A: a published day with round 1 open; a draft knockout event
		// with a stage and a draft 順位戦 term with a class.
		dayA := seedDay(t, a, 8, 1)
		if err := o.SetEventStatus(ctx, dayA.admin, dayA.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		kev, err := a.store.EventByID(ctx, f.knockout)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: kev.OrganiserID, Name: "秘密の棋戦", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: ev.ID, Name: "予選", Kind: "first_preliminary", Qualifiers: 2, RoundDates: "2026-12-10 2027-01-10 2027-02-10"})
		if err != nil {
			t.Fatal(err)
		}
		// A stage of the published event K not yet published: hidden from
		// all but K's staff, as its page is.
		hst, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.knockout, Name: "本戦", Kind: "main", Qualifiers: 1, RoundDates: "2026-12-10 2027-01-10 2027-02-10"})
		if err != nil {
			t.Fatal(err)
		}
		lev, err := o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: kev.OrganiserID, Name: "秘密の順位戦", Kind: office.EventJunisenTerm, StartDate: "2026-06-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		var members []string
		for _, p := range f.players {
			members = append(members, p.Name)
		}
		cl, err := o.AddLeagueClass(ctx, f.admin, office.LeagueClassInput{EventID: lev.ID, Class: "C2", Members: strings.Join(members, "\n"), GamesPerPlayer: 4, AllowanceMinutes: 360})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []int64{ev.ID, lev.ID, f.dayD.event.ID} {
			if got, _ := a.store.EventByID(ctx, e); got.Status != office.StatusDraft {
				t.Fatalf("event %d is %s, want a draft", e, got.Status)
			}
		}
		// The principal: day B's recorder, nothing in the events probed.
		u := a.addUser("elsewhere", false)
		if err := o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.dayB.event.ID, UserID: u.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		c := a.newClient()
		a.signIn(c, u.ID)
		id := func(n int64) string { return strconv.FormatInt(n, 10) }
		visible := []string{
			"/day/classes/" + id(dayA.class.ID) + "/draw/confirm",
			"/day/classes/" + id(dayA.class.ID) + "/final",
			"/day/classes/" + id(dayA.class.ID) + "/rounds/1/boards/1",
			"/day/classes/" + id(dayA.class.ID) + "/rounds/1/boards/1/toss",
			"/events/" + id(f.knockout) + "/games",
			"/events/" + id(f.leagueEvent) + "/league/import",
			"/league/" + id(f.class) + "/unpublish",
			"/league/" + id(f.class) + "/result",
			"/stages/" + id(f.stage) + "/unpublish",
			"/stages/" + id(f.stage) + "/result",
		}
		for _, sub := range []string{"end/preview", "end", "claims", "undo", "rulings", "confirm"} {
			visible = append(visible, "/games/"+id(f.knockoutGame)+"/"+sub)
		}
		hidden := []string{
			"/day/classes/" + id(f.dayD.class.ID) + "/draw/confirm",
			"/day/classes/" + id(f.dayD.class.ID) + "/final",
			"/day/classes/" + id(f.dayD.class.ID) + "/rounds/1/boards/1",
			"/day/classes/" + id(f.dayD.class.ID) + "/rounds/1/boards/1/toss",
			"/events/" + id(ev.ID) + "/games",
			"/events/" + id(lev.ID) + "/league/import",
			"/league/" + id(cl.ID) + "/unpublish",
			"/league/" + id(cl.ID) + "/result",
		}
		for _, stage := range []int64{st.ID, hst.ID} {
			for _, sub := range []string{"entrants", "entrants/1/remove", "entrants/bulk", "draw", "swap", "publish", "unpublish", "result", "withdraw", "toss", "seeds"} {
				hidden = append(hidden, "/stages/"+id(stage)+"/"+sub)
			}
		}
		for _, sub := range []string{"end/preview", "end", "claims", "undo", "rulings", "confirm"} {
			hidden = append(hidden, "/games/"+id(f.draftGame)+"/"+sub)
		}
		bodies := map[string]url.Values{
			"empty": {},
			"invalid": {"game_id": {"x"}, "game": {"zz"}, "version": {"-1"}, "result": {"nope"}, "round": {"z"}, "seed": {"q"},
				"fingerprint": {""}, "winner": {"x"}, "reason": {""}, "confirm": {"1"}, "terms_ago": {"9"}, "allowance": {"x"},
				"fu": {"-1"}, "ply": {"x"}, "kind": {"?"}},
		}
		for want, paths := range map[int][]string{http.StatusForbidden: visible, http.StatusNotFound: hidden} {
			for _, p := range paths {
				for name, b := range bodies {
					v := cloneForm(b)
					v.Set("_csrf", a.csrfToken(c))
					resp, _ := a.do(c, http.MethodPost, p, strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
					if resp.StatusCode != want {
						t.Errorf("POST %s (%s body) by a principal without a role there: %d, want %d", p, name, resp.StatusCode, want)
					}
				}
			}
		}
	})
}

// The API's writes too: a token of day B, of each write scope, posting an
// empty, a broken or a mistyped body to a game of another event is
// refused before the body is read — 403 for a published event's game, 404
// for a draft's (as a missing game) — never 400 or 422.
func TestAPIWrites_OtherEventsTokenRefusedBeforeBody(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newSecIDsFixture(t, a)
		routes := map[string]string{office.ScopeResults: "result", office.ScopeRecords: "record", office.ScopeConfirmations: "confirm", office.ScopeRulings: "rulings"}
		for scope, sub := range routes {
			tok := makeToken(t, a, f.dayB.admin, f.dayB.event.ID, "B "+scope, scope)
			paths := map[int][]string{http.StatusForbidden: {"/games/" + strconv.FormatInt(f.knockoutGame, 10) + "/" + sub},
				http.StatusNotFound: {"/games/" + strconv.FormatInt(f.draftGame, 10) + "/" + sub, "/games/987654321/" + sub}}
			if scope == office.ScopeRecords {
				paths[http.StatusForbidden] = append(paths[http.StatusForbidden], "/games/"+strconv.FormatInt(f.knockoutGame, 10)+"/moves")
				paths[http.StatusNotFound] = append(paths[http.StatusNotFound], "/games/"+strconv.FormatInt(f.draftGame, 10)+"/moves")
			}
			for want, ps := range paths {
				for _, p := range ps {
					for _, body := range []string{"", "{", `{"version":"x","kind":7}`} {
						if resp, got := apiPost(t, a, p, tok, body); resp.StatusCode != want {
							t.Errorf("%s token, POST %s %q: %d %s, want %d", scope, p, body, resp.StatusCode, got, want)
						}
					}
				}
			}
		}
	})
}
