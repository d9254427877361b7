package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/store"
)

// pubFixture is a 順位戦 term with class A (C2) published and class B (C1)
// drawn but not published: B was published once and taken back, so it
// also has (void) games. A knockout event has a published stage and one
// still in set-up; a draft event has a drawn stage and a game. A recorder
// of the term is its staff; an outsider holds no role anywhere.
type pubFixture struct {
	f                   *seed.Fixture
	term                int64
	classA, classB      int64
	gameA, gameB        int64
	playerB             store.Player // a member of B only
	ko, stage, setupSt  int64
	draft, draftSt      int64
	draftGame           int64
	recorder, outsider  store.User
	recorderC, outsideC *http.Client
}

func newPubFixture(t *testing.T, a *testApp) pubFixture {
	t.Helper()
	ctx := context.Background()
	f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	o := a.srv.Office
	x := pubFixture{f: f}
	term, cA, err := f.League(ctx, 11, 3)
	if err != nil {
		t.Fatal(err)
	}
	x.term, x.classA = term.ID, cA.ID
	stA, err := o.Standings(ctx, f.Admin, cA.ID)
	if err != nil {
		t.Fatal(err)
	}
	x.gameA = stA.Games[0].GameID
	ps, err := f.Players(ctx, 11, store.PlayerClassC1)
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for _, p := range ps {
		lines.WriteString(*p.Number + "\n")
	}
	x.playerB = ps[0]
	cB, err := o.AddLeagueClass(ctx, f.Admin, office.LeagueClassInput{EventID: term.ID, Class: string(store.PlayerClassC1), Members: lines.String(), AllowanceMinutes: 360})
	if err != nil {
		t.Fatal(err)
	}
	x.classB = cB.ID
	if _, err := o.GenerateSchedule(ctx, f.Admin, office.ScheduleInput{ClassID: cB.ID, Seed: "20261128", DrawDate: "2026-06-01"}); err != nil {
		t.Fatal(err)
	}
	if err := o.PublishSchedule(ctx, f.Admin, cB.ID); err != nil {
		t.Fatal(err)
	}
	stB, err := o.Standings(ctx, f.Admin, cB.ID)
	if err != nil {
		t.Fatal(err)
	}
	x.gameB = stB.Games[0].GameID
	if err := f.Records(ctx, term.ID); err != nil { // B's games get records before it is taken back
		t.Fatal(err)
	}
	if err := o.UnpublishSchedule(ctx, f.Admin, cB.ID, "日程の誤り"); err != nil {
		t.Fatal(err)
	}

	ko, st, err := f.Knockout(ctx, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	x.ko, x.stage = ko.ID, st.ID
	if err := f.Records(ctx, ko.ID); err != nil {
		t.Fatal(err)
	}
	setup, err := o.CreateStage(ctx, f.Admin, office.StageInput{EventID: ko.ID, Name: "二次予選", Kind: string(pairing.SecondPreliminary)})
	if err != nil {
		t.Fatal(err)
	}
	x.setupSt = setup.ID

	de, err := o.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "下書きの棋戦", Kind: office.EventKnockout, StartDate: "2026-06-01", EndDate: "2026-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := o.CreateStage(ctx, f.Admin, office.StageInput{EventID: de.ID, Name: "本戦", Kind: string(pairing.MainEvent)})
	if err != nil {
		t.Fatal(err)
	}
	dps, err := f.Players(ctx, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range dps {
		if _, err := o.AddEntrant(ctx, f.Admin, office.EntrantInput{StageID: ds.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.DrawStage(ctx, f.Admin, office.DrawInput{StageID: ds.ID, Seed: "1", DrawDate: "2026-06-01"}); err != nil {
		t.Fatal(err)
	}
	dg, err := o.CreateGame(ctx, f.Admin, office.GameInput{EventID: de.ID, Label: "練習対局", SenteID: &dps[0].ID, GoteID: &dps[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	x.draft, x.draftSt, x.draftGame = de.ID, ds.ID, dg.ID

	x.recorder = a.addUser("pub-recorder", false)
	if err := a.store.GrantEventRole(ctx, &store.EventRole{EventID: term.ID, UserID: x.recorder.ID, Role: office.RoleRecorder, GrantedBy: f.Admin.UserID, CreatedAt: a.now}); err != nil {
		t.Fatal(err)
	}
	x.outsider = a.addUser("pub-outsider", false)
	x.recorderC, x.outsideC = a.newClient(), a.newClient()
	a.signIn(x.recorderC, x.recorder.ID)
	a.signIn(x.outsideC, x.outsider.ID)
	return x
}

// TestLeagueVisibility_UnpublishedClassIsHiddenUntilPublished (issue 21
// item 2): class B of a term whose class A is published is drawn but not
// published. For the public and for a signed-in user with no role in the
// event, B does not exist on any surface — its page, CSV, ICS, embed and
// API resource are 404 like a missing class; the term's overview, the
// projector and the event's API list leave it out; its (void) game is 404
// on the game page, the record download and the API, and left out of the
// event's game lists. The event's staff (a recorder) still see all of it,
// and publishing B makes it public. Both databases.
func TestLeagueVisibility_UnpublishedClassIsHiddenUntilPublished(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newPubFixture(t, a)
		b, g := fmt.Sprint(x.classB), fmt.Sprint(x.gameB)
		// Surfaces of B itself: 404 for whoever may not see it.
		own := []string{"/league/" + b, "/league/" + b + "/schedule.csv", "/league/" + b + "/calendar.ics", "/embed/league/" + b,
			"/api/v1/league-classes/" + b, "/games/" + g, "/games/" + g + "/record.kif", "/api/v1/games/" + g}
		// Lists that name B or its game, with what would betray it.
		lists := map[string][]string{
			fmt.Sprintf("/events/%d/league", x.term):                 {"/league/" + b, "抽選済み", x.playerB.Name},
			fmt.Sprintf("/events/%d/projector", x.term):              {x.playerB.Name, "C級1組"},
			fmt.Sprintf("/api/v1/events/%d/league", x.term):          {"/league-classes/" + b, `"C1"`},
			fmt.Sprintf("/events/%d/games", x.term):                  {"/games/" + g + `"`, x.playerB.Name},
			fmt.Sprintf("/api/v1/events/%d/games?limit=200", x.term): {`"id":` + g + ",", x.playerB.Name},
			fmt.Sprintf("/players/%d/record", x.playerB.ID):          {"/games/" + g + `"`},
		}
		// A's surfaces stay public (the rule hides B, not the term).
		public := []string{"/league/" + fmt.Sprint(x.classA), "/api/v1/league-classes/" + fmt.Sprint(x.classA), "/games/" + fmt.Sprint(x.gameA)}

		hiddenFor := func(who string, c *http.Client) {
			t.Helper()
			for _, p := range own {
				resp, body := a.do(c, http.MethodGet, p, nil, "")
				if resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s: GET %s: %d, want 404", who, p, resp.StatusCode)
				}
				if strings.Contains(body, x.playerB.Name) {
					t.Errorf("%s: GET %s names B's member %s", who, p, x.playerB.Name)
				}
			}
			for p, leaks := range lists {
				resp, body := a.do(c, http.MethodGet, p, nil, "")
				if resp.StatusCode != http.StatusOK {
					t.Errorf("%s: GET %s: %d, want 200", who, p, resp.StatusCode)
				}
				for _, l := range leaks {
					if strings.Contains(body, l) {
						t.Errorf("%s: GET %s shows %q of the unpublished class", who, p, l)
					}
				}
			}
			for _, p := range public {
				if resp, _ := a.do(c, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusOK {
					t.Errorf("%s: GET %s: %d, want 200", who, p, resp.StatusCode)
				}
			}
		}
		missing := func(c *http.Client) (int, string) {
			resp, body := a.do(c, http.MethodGet, "/league/99999999", nil, "")
			return resp.StatusCode, body
		}
		anon := a.newClient()
		hiddenFor("anonymous", anon)
		hiddenFor("outsider", x.outsideC)
		// Identical to a missing class: same status, same page but for the
		// request's own tokens.
		resp, _ := a.do(anon, http.MethodGet, "/league/"+b, nil, "")
		if st, _ := missing(anon); resp.StatusCode != st {
			t.Errorf("hidden class %d, missing class %d", resp.StatusCode, st)
		}

		// The outsider's writes to B are 404 as to a missing class, whatever
		// the body holds (the staff's confirmation page is GET /publish).
		for _, w := range []string{"generate", "edit", "publish", "unpublish", "settings", "playoff"} {
			for _, cid := range []string{b, "99999999"} {
				form := url.Values{"_csrf": {a.csrfToken(x.outsideC)}, "reason": {"理由"}, "seed": {"1"}}
				resp, _ := a.do(x.outsideC, http.MethodPost, "/league/"+cid+"/"+w, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
				if resp.StatusCode != http.StatusNotFound {
					t.Errorf("outsider: POST /league/%s/%s: %d, want 404", cid, w, resp.StatusCode)
				}
			}
		}
		if resp, _ := a.do(x.outsideC, http.MethodGet, "/league/"+b+"/publish", nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("outsider: GET /league/%s/publish: %d, want 404", b, resp.StatusCode)
		}

		// The event's staff see B: its page, exports, API, the overview.
		for _, p := range []string{"/league/" + b, "/league/" + b + "/schedule.csv", "/league/" + b + "/calendar.ics", "/games/" + g} {
			resp, body := a.do(x.recorderC, http.MethodGet, p, nil, "")
			if resp.StatusCode != http.StatusOK {
				t.Errorf("staff: GET %s: %d, want 200", p, resp.StatusCode)
			}
			if strings.HasPrefix(p, "/league/"+b) && !strings.HasSuffix(p, ".ics") && !strings.Contains(body, x.playerB.Name) {
				t.Errorf("staff: GET %s does not show B's member", p)
			}
		}
		if _, body := a.do(x.recorderC, http.MethodGet, fmt.Sprintf("/events/%d/league", x.term), nil, ""); !strings.Contains(body, "/league/"+b) {
			t.Errorf("staff: the overview does not list class B")
		}
		// In the API the staff is a read_drafts token of the event; a
		// token of another scope reads as the public does.
		drafts := makeToken(t, a, x.f.Admin, x.term, "下書き確認", office.ScopeReadDrafts)
		results := makeToken(t, a, x.f.Admin, x.term, "結果入力", office.ScopeResults)
		for _, p := range []string{"/api/v1/league-classes/" + b, "/api/v1/games/" + g, fmt.Sprintf("/api/v1/events/%d/league", x.term)} {
			for tok, want := range map[string]int{drafts: http.StatusOK, results: http.StatusNotFound} {
				req, _ := http.NewRequest(http.MethodGet, a.ts.URL+p, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, body := a.send(a.newClient(), req)
				if strings.HasSuffix(p, "/league") {
					if got := strings.Contains(body, "/league-classes/"+b); got != (want == http.StatusOK) {
						t.Errorf("token %s: GET %s lists B: %v", tok[:10], p, got)
					}
					continue
				}
				if resp.StatusCode != want {
					t.Errorf("token %s: GET %s: %d, want %d", tok[:10], p, resp.StatusCode, want)
				}
			}
		}
		// The embed is the public's view, whoever asks.
		if resp, _ := a.do(x.recorderC, http.MethodGet, "/embed/league/"+b, nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("staff: embed of the unpublished class: %d, want 404", resp.StatusCode)
		}

		// Published, B is public everywhere.
		if err := a.srv.Office.PublishSchedule(context.Background(), x.f.Admin, x.classB); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/league/" + b, "/league/" + b + "/schedule.csv", "/league/" + b + "/calendar.ics", "/embed/league/" + b, "/api/v1/league-classes/" + b} {
			if resp, body := a.do(anon, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusOK {
				t.Errorf("published: anonymous GET %s: %d, want 200\n%.300s", p, resp.StatusCode, body)
			}
		}
		for p, want := range map[string]string{
			fmt.Sprintf("/events/%d/league", x.term):        "/league/" + b,
			fmt.Sprintf("/api/v1/events/%d/league", x.term): "/league-classes/" + b,
			fmt.Sprintf("/events/%d/projector", x.term):     x.playerB.Name,
		} {
			if _, body := a.do(anon, http.MethodGet, p, nil, ""); !strings.Contains(body, want) {
				t.Errorf("published: anonymous GET %s does not show %q", p, want)
			}
		}
	})
}
