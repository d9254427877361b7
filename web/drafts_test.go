package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
)

// draftFixture: two draft events — a knockout event with a stage in setup
// (entrants added) and one game, and a league event with a drawn class —
// and one user per role holding that role in both, an outsider, an
// administrator and the public, each with their own browser.
type draftFixture struct {
	a                      *testApp
	o                      *office.Office
	admin                  office.Actor
	knockout, league       store.Event
	stageID, gameID, class int64
	drawnID                int64                   // a second stage, drawn, awaiting publication
	playerID               int64                   // sente of the game
	clients                map[string]*http.Client // by actor name
}

// draftActors are the actors of the matrix, in the order they act.
var draftActors = []string{"anonymous", "outsider", "recorder", "arbiter", "scheduler", "director", "admin"}

func newDraftFixture(t *testing.T, a *testApp) *draftFixture {
	t.Helper()
	ctx := context.Background()
	f := &draftFixture{a: a, o: a.srv.Office, clients: map[string]*http.Client{}}
	root := a.addUser("root", true)
	f.admin = office.Actor{UserID: root.ID, Login: root.Login, Admin: true}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.knockout, err = f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "下書き杯", NameEn: "Draft Cup",
		Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"}); err != nil {
		t.Fatal(err)
	}
	if f.league, err = f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "下書きリーグ", NameEn: "Draft League",
		Kind: office.EventLeague, StartDate: "2026-12-01", EndDate: "2027-03-31"}); err != nil {
		t.Fatal(err)
	}
	var players []store.Player
	var names []string
	for i := range 6 {
		p, err := f.o.CreatePlayer(ctx, f.admin, office.PlayerInput{Name: fmt.Sprintf("下書 %d郎", i+1), Reading: "したがき", Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
		names = append(names, p.Name)
	}
	st, err := f.o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.knockout.ID, Name: "予選", Kind: office.StageKinds[0], Qualifiers: 2})
	if err != nil {
		t.Fatal(err)
	}
	f.stageID = st.ID
	for _, p := range players {
		if _, err := f.o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	drawn, err := f.o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.knockout.ID, Name: "本戦", Kind: office.StageKinds[2]})
	if err != nil {
		t.Fatal(err)
	}
	f.drawnID = drawn.ID
	for _, p := range players[:4] {
		if _, err := f.o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: drawn.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.o.DrawStage(ctx, f.admin, office.DrawInput{StageID: drawn.ID, Seed: "3", DrawDate: "2026-11-01"}); err != nil {
		t.Fatal(err)
	}
	g, err := f.o.CreateGame(ctx, f.admin, office.GameInput{EventID: f.knockout.ID, Label: "1局", SenteID: &players[0].ID, GoteID: &players[1].ID, AllowanceMinutes: 180})
	if err != nil {
		t.Fatal(err)
	}
	f.gameID, f.playerID = g.ID, players[0].ID
	c, err := f.o.AddLeagueClass(ctx, f.admin, office.LeagueClassInput{EventID: f.league.ID, Members: strings.Join(names, "\n"), AllowanceMinutes: 360})
	if err != nil {
		t.Fatal(err)
	}
	f.class = c.ID
	if _, err := f.o.GenerateSchedule(ctx, f.admin, office.ScheduleInput{ClassID: c.ID, Seed: "7", DrawDate: "2026-11-01"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range draftActors {
		cl := a.newClient()
		f.clients[name] = cl
		switch name {
		case "anonymous":
		case "admin":
			a.signIn(cl, root.ID)
		default:
			u := a.addUser(name, false)
			a.signIn(cl, u.ID)
			if name == "outsider" {
				continue
			}
			for _, ev := range []int64{f.knockout.ID, f.league.ID} {
				if err := f.o.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: ev, UserID: u.ID, Role: name}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return f
}

// request sends one request as the named actor (with the CSRF token its
// browser holds, for a POST).
func (f *draftFixture) request(who, method, path string, form url.Values) (*http.Response, string) {
	f.a.t.Helper()
	c := f.clients[who]
	var body io.Reader
	ct := ""
	if method == http.MethodPost {
		if form == nil {
			form = url.Values{}
		}
		form.Set("_csrf", f.a.csrfToken(c))
		body, ct = strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"
	}
	return f.a.do(c, method, path, body, ct)
}

// answer is a response's family as far as permissions go: hidden (404),
// forbidden (403), login (sent to sign in), allowed (the permission check
// passed: the page, a redirect after a save, or a form / state error).
func answer(resp *http.Response) string {
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return "hidden"
	case resp.StatusCode == http.StatusForbidden:
		return "forbidden"
	case resp.StatusCode == http.StatusSeeOther && strings.HasPrefix(resp.Header.Get("Location"), "/login"):
		return "login"
	case resp.StatusCode < 500:
		return "allowed"
	}
	return fmt.Sprintf("error %d", resp.StatusCode)
}

func i64s(n int64) string { return strconv.FormatInt(n, 10) }

// TestDrafts_RoleMatrix: for a draft event, every role holder sees every
// page of it with the 下書き mark; outsiders get 404 and the public 404 or
// the sign-in page — exactly what they get for an id that does not exist,
// so a draft is not disclosed; each preview answers as its save does, for
// every actor. Then the league schedule is published through its
// confirmation, which says the event becomes public, and the public sees
// the event.
func TestDrafts_RoleMatrix(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newDraftFixture(t, a)
		ko, lg, st, gm, cl := i64s(f.knockout.ID), i64s(f.league.ID), i64s(f.stageID), i64s(f.gameID), i64s(f.class)
		const missing = "987654"
		type page struct {
			path, missing string
			html          bool // a page with the layout (carries the mark); else an export
		}
		pages := []page{
			{"/events/" + ko, "/events/" + missing, true},
			{"/events/" + ko + "/games", "/events/" + missing + "/games", true},
			{"/events/" + ko + "/brackets", "/events/" + missing + "/brackets", true},
			{"/events/" + ko + "/settings", "/events/" + missing + "/settings", true},
			{"/events/" + ko + "/handicap", "/events/" + missing + "/handicap", true},
			{"/stages/" + st, "/stages/" + missing, true},
			{"/stages/" + st + "/csv", "/stages/" + missing + "/csv", false},
			{"/stages/" + i64s(f.drawnID), "/stages/" + missing, true},
			{"/games/" + gm, "/games/" + missing, true},
			{"/events/" + lg, "/events/" + missing, true},
			{"/events/" + lg + "/games", "/events/" + missing + "/games", true},
			{"/events/" + lg + "/league", "/events/" + missing + "/league", true},
			{"/league/" + cl, "/league/" + missing, true},
			{"/league/" + cl + "/calendar.ics", "/league/" + missing + "/calendar.ics", false},
			{"/league/" + cl + "/schedule.csv", "/league/" + missing + "/schedule.csv", false},
		}
		for _, who := range draftActors {
			for _, p := range pages {
				resp, body := f.request(who, http.MethodGet, p.path, nil)
				switch who {
				case "anonymous", "outsider":
					got := answer(resp)
					ghost, _ := f.request(who, http.MethodGet, p.missing, nil)
					if got != answer(ghost) || (got != "hidden" && got != "login") || (who == "outsider" && got != "hidden") {
						t.Errorf("%s GET %s: %s (a missing id: %s), want it hidden", who, p.path, got, answer(ghost))
					}
					if strings.Contains(body, "下書き") || strings.Contains(body, "下書きリーグ") {
						t.Errorf("%s GET %s: the draft shows through", who, p.path)
					}
				default:
					if resp.StatusCode != http.StatusOK {
						t.Errorf("%s GET %s: %d, want 200", who, p.path, resp.StatusCode)
						continue
					}
					if p.html {
						mark := doc(t, body).Find(`[data-testid="draft-mark"]`)
						if mark.Length() != 1 || !strings.Contains(mark.Text(), "下書き") {
							t.Errorf("%s GET %s: no 下書き mark", who, p.path)
						}
					}
				}
			}
			// A stage page shows a form only to those whose write would pass.
			if who != "anonymous" && who != "outsider" {
				_, setup := f.request(who, http.MethodGet, "/stages/"+st, nil)
				_, drawn := f.request(who, http.MethodGet, "/stages/"+i64s(f.drawnID), nil)
				editor, director := contains([]string{"director", "scheduler", "admin"}, who), contains([]string{"director", "admin"}, who)
				for _, x := range []struct {
					body, testid string
					want         bool
				}{
					{setup, "draw-form", editor}, {setup, "entrant-search", editor}, {setup, "seeds-link", director},
					{drawn, "swap-form", editor}, {drawn, "publish-form", director},
				} {
					if got := doc(t, x.body).Find(`[data-testid="`+x.testid+`"]`).Length() > 0; got != x.want {
						t.Errorf("%s: %s shown: %v, want %v", who, x.testid, got, x.want)
					}
				}
			}
			// The events list names the drafts to their role holders only.
			_, body := f.request(who, http.MethodGet, "/events", nil)
			listed := strings.Contains(body, `href="/events/`+ko+`"`) && strings.Contains(body, `href="/events/`+lg+`"`)
			if hidden := who == "anonymous" || who == "outsider"; listed == hidden {
				t.Errorf("%s: drafts listed on /events: %v", who, listed)
			}
		}
		// The mark speaks the page's language.
		u, _ := url.Parse(a.ts.URL)
		f.clients["recorder"].Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: "en", Path: "/"}})
		if _, body := f.request("recorder", http.MethodGet, "/games/"+gm, nil); !strings.Contains(doc(t, body).Find(`[data-testid="draft-mark"]`).Text(), "Draft") {
			t.Error("the English page has no Draft mark")
		}

		// Each preview answers as its save: the same family for every actor,
		// and the family the roles give.
		type pair struct {
			name          string
			preview, save func(who string) *http.Response
			allowed       []string // roles whose save passes the permission check
		}
		post := func(path string, form url.Values) func(string) *http.Response {
			return func(who string) *http.Response {
				resp, _ := f.request(who, http.MethodPost, path, cloneForm(form))
				return resp
			}
		}
		get := func(path string) func(string) *http.Response {
			return func(who string) *http.Response {
				resp, _ := f.request(who, http.MethodGet, path, nil)
				return resp
			}
		}
		record := url.Values{"record": {"position startpos moves 7g7f 3c3d"}}
		end := url.Values{"kind": {"resign"}, "by": {"gote"}, "version": {"0"}} // as the form posts it
		endSave := cloneForm(end)
		endSave.Set("confirm", "1") // the preview's confirmation (issue 13)
		// The stage's publication, whose form only directors see: everyone
		// else is refused as the form's absence says (not tried for those it
		// lets through, which would publish the knockout event).
		for _, who := range []string{"anonymous", "outsider", "recorder", "arbiter", "scheduler"} {
			resp, _ := f.request(who, http.MethodPost, "/stages/"+i64s(f.drawnID)+"/publish", url.Values{})
			want := map[string]string{"anonymous": "login", "outsider": "hidden"}[who]
			if want == "" {
				want = "forbidden"
			}
			if got := answer(resp); got != want {
				t.Errorf("stage publish as %s: %s, want %s", who, got, want)
			}
		}
		pairs := []pair{
			{"record", post("/games/"+gm+"/record/preview", record), post("/games/"+gm+"/record", record),
				[]string{"director", "arbiter", "recorder", "admin"}},
			{"end", post("/games/"+gm+"/end/preview", end), post("/games/"+gm+"/end", endSave),
				[]string{"director", "arbiter", "recorder", "admin"}},
			{"seeds", get("/stages/" + st + "/seeds"), post("/stages/"+st+"/seeds", url.Values{"count": {"1"}}),
				[]string{"director", "admin"}},
			// Last: the scheduler's publication publishes the event.
			{"league publish", get("/league/" + cl + "/publish"), post("/league/"+cl+"/publish", url.Values{"confirm": {"1"}}),
				[]string{"scheduler", "director", "admin"}},
		}
		for _, p := range pairs {
			for _, who := range draftActors {
				want := "forbidden"
				switch {
				case who == "anonymous":
					want = "login"
				case who == "outsider":
					want = "hidden"
				case contains(p.allowed, who):
					want = "allowed"
				}
				pv := answer(p.preview(who))
				sv := answer(p.save(who))
				if pv != sv || pv != want {
					t.Errorf("%s as %s: preview %s, save %s, want both %s", p.name, who, pv, sv, want)
				}
			}
		}

		// Pages for everyone (a player's record, the ratings) list only
		// games of public events, whoever reads them: the draft's game, ended
		// above, is not there.
		if n, _ := a.store.EffectiveResults(context.Background(), f.knockout.ID); len(n) == 0 {
			t.Fatal("the draft's game has no result to leak")
		}
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, who := range draftActors {
			for _, path := range []string{"/players/" + i64s(f.playerID) + "/record", "/ratings"} {
				resp, body := f.request(who, http.MethodGet, path, nil)
				if resp.StatusCode != http.StatusOK || strings.Contains(body, `"/games/`+gm+`"`) || strings.Contains(body, "下書き杯") {
					t.Errorf("%s GET %s: %d, the draft's game listed: %v", who, path, resp.StatusCode, strings.Contains(body, "/games/"+gm))
				}
			}
		}
		// The confirmation said so, and the event is public now.
		e, err := a.store.EventByID(context.Background(), f.league.ID)
		if err != nil || e.Status != office.StatusPublished {
			t.Fatalf("league event after its schedule's publication: %q %v", e.Status, err)
		}
		changes, err := a.store.EventStatusChanges(context.Background(), f.league.ID)
		if err != nil || len(changes) != 1 || changes[0].FromStatus != office.StatusDraft || changes[0].ToStatus != office.StatusPublished {
			t.Fatalf("status history: %+v %v", changes, err)
		}
		for _, path := range []string{"/events/" + lg, "/events/" + lg + "/league", "/league/" + cl} {
			resp, body := f.request("anonymous", http.MethodGet, path, nil)
			if resp.StatusCode != http.StatusOK || doc(t, body).Find(`[data-testid="draft-mark"]`).Length() != 0 {
				t.Errorf("public GET %s after publication: %d (mark shown: %v)", path, resp.StatusCode, strings.Contains(body, "draft-mark"))
			}
		}
		// The knockout event is still a draft and still hidden.
		if resp, _ := f.request("anonymous", http.MethodGet, "/events/"+ko, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("the other draft: %d", resp.StatusCode)
		}
	})
}

// TestDrafts_PublishConfirmationSaysTheEventGoesPublic: the schedule's
// confirmation (GET, and a POST without confirm=1) warns that the draft
// event becomes public and publishes nothing; the stage's publish form
// warns the same; once the event is public the warnings are gone.
func TestDrafts_PublishConfirmationSaysTheEventGoesPublic(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newDraftFixture(t, a)
		cl := i64s(f.class)
		for _, try := range []func() (*http.Response, string){
			func() (*http.Response, string) {
				return f.request("scheduler", http.MethodGet, "/league/"+cl+"/publish", nil)
			},
			func() (*http.Response, string) {
				return f.request("scheduler", http.MethodPost, "/league/"+cl+"/publish", url.Values{})
			},
		} {
			resp, body := try()
			d := doc(t, body)
			if resp.StatusCode != http.StatusOK || !strings.Contains(d.Find(`[data-testid="publish-event-public"]`).Text(), "下書きリーグ") ||
				d.Find(`[data-testid="publish-confirm-form"] input[name="confirm"][value="1"]`).Length() != 1 {
				t.Fatalf("confirmation: %d %s", resp.StatusCode, body)
			}
			if e, _ := a.store.EventByID(context.Background(), f.league.ID); e.Status != office.StatusDraft {
				t.Fatal("the confirmation published the event")
			}
			if c, _ := a.store.LeagueClassByID(context.Background(), f.class); c.Status != office.LeagueDrawn {
				t.Fatal("the confirmation published the schedule")
			}
		}
		// The class page's button leads to the confirmation.
		_, body := f.request("scheduler", http.MethodGet, "/league/"+cl, nil)
		form := doc(t, body).Find(`[data-testid="league-publish-form"]`)
		if m, _ := form.Attr("method"); m != "get" {
			t.Errorf("the class page publishes without confirmation (method %q)", m)
		}
		// The stage's publish form says so too, while the event is a draft.
		ctx := context.Background()
		if _, err := f.o.DrawStage(ctx, f.admin, office.DrawInput{StageID: f.stageID, Seed: "5", DrawDate: "2026-11-01"}); err != nil {
			t.Fatal(err)
		}
		_, body = f.request("director", http.MethodGet, "/stages/"+i64s(f.stageID), nil)
		if !strings.Contains(doc(t, body).Find(`[data-testid="publish-event-public"]`).Text(), "公開") {
			t.Error("the stage's publish form does not say the event becomes public")
		}
		resp, _ := f.request("scheduler", http.MethodPost, "/league/"+cl+"/publish", url.Values{"confirm": {"1"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		// The league event is public; the knockout one is still a draft, so
		// its stage still warns; a further confirmation would not.
		if e, _ := a.store.EventByID(ctx, f.league.ID); e.Status != office.StatusPublished {
			t.Fatalf("event %s after publication", e.Status)
		}
		if resp, _ := f.request("anonymous", http.MethodGet, "/league/"+cl, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("public class page: %d", resp.StatusCode)
		}
		if resp, _ := f.request("scheduler", http.MethodGet, "/league/"+cl+"/publish", nil); resp.StatusCode != http.StatusConflict {
			t.Errorf("confirming a published schedule: %d, want 409", resp.StatusCode)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
