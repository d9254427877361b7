package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// cacheFixture: a published knockout event (a game, a drawn and published
// stage) and a published league event (a class with its schedule), an
// arbiter of the knockout event, and a draft event with a stage and a
// class, invisible to the public.
type cacheFixture struct {
	a                         *testApp
	g                         gameSetup
	stage, class, leagueEvent int64
	draft, draftStage         int64 // a draft knockout event and its stage
	draftLeague, draftClass   int64 // a draft league event and its class
	leagueGames               []store.LeagueGame
}

func newCacheFixture(t *testing.T, a *testApp) *cacheFixture {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	f := &cacheFixture{a: a, g: newGameSetup(t, a, "{}")}
	admin := f.g.admin
	var names []string
	var players []store.Player
	for i := range 6 {
		p, err := o.CreatePlayer(ctx, admin, office.PlayerInput{Name: fmt.Sprintf("棋士 %d郎", i+1), Reading: "きし", Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
		names = append(names, p.Name)
	}
	stage := func(event int64, publish bool) int64 {
		t.Helper()
		st, err := o.CreateStage(ctx, admin, office.StageInput{EventID: event, Name: "本戦", Kind: office.StageKinds[2]})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range players[:4] {
			if _, err := o.AddEntrant(ctx, admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := o.DrawStage(ctx, admin, office.DrawInput{StageID: st.ID, Seed: "3", DrawDate: "2026-11-01"}); err != nil {
			t.Fatal(err)
		}
		if publish {
			if err := o.PublishStage(ctx, admin, st.ID); err != nil {
				t.Fatal(err)
			}
		}
		return st.ID
	}
	class := func(event int64, publish bool) int64 {
		t.Helper()
		c, err := o.AddLeagueClass(ctx, admin, office.LeagueClassInput{EventID: event, Members: strings.Join(names, "\n"), AllowanceMinutes: 360})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.GenerateSchedule(ctx, admin, office.ScheduleInput{ClassID: c.ID, Seed: "7", DrawDate: "2026-11-01"}); err != nil {
			t.Fatal(err)
		}
		if publish {
			if err := o.PublishSchedule(ctx, admin, c.ID); err != nil {
				t.Fatal(err)
			}
		}
		return c.ID
	}
	event := func(name, kind string) int64 {
		t.Helper()
		e, err := o.CreateEvent(ctx, admin, office.EventInput{OrganiserID: f.g.event.OrganiserID, Name: name, Kind: kind,
			StartDate: "2026-11-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	f.stage = stage(f.g.event.ID, true)
	f.leagueEvent = event("第1期リーグ", office.EventLeague)
	f.class = class(f.leagueEvent, true) // publishes the event with the schedule
	var err error
	if f.leagueGames, err = a.store.LeagueGames(ctx, f.class); err != nil || len(f.leagueGames) == 0 {
		t.Fatalf("league games: %v %v", f.leagueGames, err)
	}
	f.draft = event("下書き杯", office.EventKnockout)
	f.draftStage = stage(f.draft, false)
	f.draftLeague = event("下書きリーグ", office.EventLeague)
	f.draftClass = class(f.draftLeague, false)
	return f
}

// browser is a visitor who has been on the site before: it holds its CSRF
// cookie, which every page it gets carries (and so its tag covers).
func (f *cacheFixture) browser() *http.Client {
	f.a.t.Helper()
	c := f.a.newClient()
	f.a.csrfToken(c)
	return c
}

func (f *cacheFixture) knockoutPages() []string {
	ev := "/events/" + i64s(f.g.event.ID)
	return []string{ev, ev + "/brackets", ev + "/games", "/stages/" + i64s(f.stage) + "/csv"}
}

func (f *cacheFixture) leaguePages() []string {
	cl := "/league/" + i64s(f.class)
	return []string{"/events/" + i64s(f.leagueEvent) + "/league", cl, cl + "/schedule.csv", cl + "/calendar.ics"}
}

// request sends GET path from client c with extra headers.
func (f *cacheFixture) request(c *http.Client, path string, header ...string) (*http.Response, string) {
	f.a.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.a.ts.URL+path, nil)
	if err != nil {
		f.a.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return f.a.send(c, req)
}

// tags fetches every page and returns its ETag, checking the page is a
// 200 with validators for the public.
func (f *cacheFixture) tags(t *testing.T, c *http.Client, pages []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range pages {
		resp, body := f.request(c, p)
		tag := resp.Header.Get("ETag")
		if resp.StatusCode != http.StatusOK || body == "" || !strings.HasPrefix(tag, `W/"`) {
			t.Fatalf("GET %s: %d, ETag %q, %d bytes", p, resp.StatusCode, tag, len(body))
		}
		if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
			t.Errorf("GET %s: Cache-Control %q, want revalidation (no-cache)", p, cc)
		}
		out[p] = tag
	}
	return out
}

// notModified asserts that each page answers 304 with no body to its tag.
func (f *cacheFixture) notModified(t *testing.T, c *http.Client, tags map[string]string, want bool) {
	t.Helper()
	for p, tag := range tags {
		resp, body := f.request(c, p, "If-None-Match", tag)
		switch {
		case want && (resp.StatusCode != http.StatusNotModified || body != "" || resp.Header.Get("ETag") != tag):
			t.Errorf("GET %s If-None-Match %s: %d, ETag %q, %d bytes; want 304, the same tag, no body", p, tag, resp.StatusCode, resp.Header.Get("ETag"), len(body))
		case !want && (resp.StatusCode != http.StatusOK || body == "" || resp.Header.Get("ETag") == tag || resp.Header.Get("ETag") == ""):
			t.Errorf("GET %s If-None-Match %s (stale): %d, ETag %q; want 200 with a new tag", p, tag, resp.StatusCode, resp.Header.Get("ETag"))
		}
	}
}

// Issue 12 part 5: every public page of an event answers 304 to its own
// tag until something it shows is written — a result entered through the
// arbiter's form, a league result, a player's name — and only the pages
// of the event written to change.
func TestCache_PublicPagesAnswer304UntilAWrite(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		public := f.browser()
		storetest.AgeRevisions(t, a.store, 2*time.Second)
		ko := f.tags(t, public, f.knockoutPages())
		lg := f.tags(t, public, f.leaguePages())
		f.notModified(t, public, ko, true)
		f.notModified(t, public, lg, true)

		// Last-Modified once the change's second is over; If-Modified-Since
		// alone is believed from a client without cookies.
		bare := &http.Client{Timeout: 30 * time.Second}
		for _, p := range append(f.knockoutPages(), f.leaguePages()...) {
			resp, _ := f.request(bare, p)
			lm := resp.Header.Get("Last-Modified")
			if _, err := http.ParseTime(lm); err != nil {
				t.Fatalf("GET %s: Last-Modified %q: %v", p, lm, err)
			}
			if resp, body := f.request(bare, p, "If-Modified-Since", lm); resp.StatusCode != http.StatusNotModified || body != "" {
				t.Errorf("GET %s If-Modified-Since %s: %d", p, lm, resp.StatusCode)
			}
			early := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
			if resp, _ := f.request(bare, p, "If-Modified-Since", early); resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s If-Modified-Since an hour ago: %d, want 200", p, resp.StatusCode)
			}
			if resp, _ := f.request(public, p, "If-Modified-Since", lm); resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s If-Modified-Since from a browser with cookies: %d, want 200 (a date cannot tell its language)", p, resp.StatusCode)
			}
		}

		// The arbiter ends the game through the page's form.
		arbiter := a.newClient()
		a.signIn(arbiter, f.g.arbiter.UserID)
		gp := "/games/" + i64s(f.g.game.ID)
		a.client = arbiter
		if resp, body := a.postForm(gp+"/end", a.shown(gp, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end the game: %d %s", resp.StatusCode, body)
		}
		f.notModified(t, public, ko, false)
		f.notModified(t, public, lg, true)
		ko = f.tags(t, public, f.knockoutPages())
		f.notModified(t, public, ko, true)

		// A league result (through office, as the league page's form does).
		if err := a.srv.Office.EnterLeagueResult(ctx, f.g.admin, office.LeagueResultInput{GameID: f.leagueGames[0].GameID, Result: "sente_win"}); err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, lg, false)
		f.notModified(t, public, ko, true)
		lg = f.tags(t, public, f.leaguePages())

		// A player's name shows on every event's pages.
		if err := a.store.DB(ctx).Exec("UPDATE players SET name = ? WHERE id = ?", "羽生 善治 永世七冠", f.g.sente.ID).Error; err != nil {
			t.Fatal(err)
		}
		f.notModified(t, public, ko, false)
		f.notModified(t, public, lg, false)
	})
}

// The tag differs by language (?lang=en, or the language cookie) and for
// htmx; a copy in one language never answers 304 for another.
func TestCache_LanguageVariesTheTag(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newCacheFixture(t, a)
		ja := f.browser()
		en := f.browser()
		if resp, _ := f.request(en, "/lang?to=en&back=/"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("switch language: %d", resp.StatusCode)
		}
		for _, p := range append(f.knockoutPages(), f.leaguePages()...) {
			tja := f.tags(t, ja, []string{p})[p]
			sep := "?"
			if strings.Contains(p, "?") {
				sep = "&"
			}
			tq := f.tags(t, ja, []string{p + sep + "lang=en"})[p+sep+"lang=en"]
			ten := f.tags(t, en, []string{p})[p]
			if tja == tq || tja == ten {
				t.Errorf("%s: Japanese %s, ?lang=en %s, English cookie %s: want different tags", p, tja, tq, ten)
			}
			if resp, _ := f.request(en, p, "If-None-Match", tja); resp.StatusCode != http.StatusOK {
				t.Errorf("%s: the English browser sent the Japanese tag and got %d, want 200", p, resp.StatusCode)
			}
			if resp, _ := f.request(ja, p, "If-None-Match", tja, "HX-Request", "true"); resp.StatusCode != http.StatusOK {
				t.Errorf("%s: an htmx request with the full page's tag got %d, want 200", p, resp.StatusCode)
			}
			if resp, _ := f.request(en, p, "If-None-Match", ten); resp.StatusCode != http.StatusNotModified {
				t.Errorf("%s: the English browser's own tag: %d, want 304", p, resp.StatusCode)
			}
		}
	})
}

// Signed-in people see forms, roles and their name: they always get the
// page, never a 304 for the public's tag, and no tag of their own.
func TestCache_SignedInNeverGets304(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newCacheFixture(t, a)
		director := a.addUser("director", false)
		for _, ev := range []int64{f.g.event.ID, f.leagueEvent} {
			if err := a.srv.Office.GrantEventRole(ctx, f.g.admin, office.RoleGrant{EventID: ev, UserID: director.ID, Role: office.RoleDirector}); err != nil {
				t.Fatal(err)
			}
		}
		staff := f.browser()
		a.signIn(staff, director.ID)
		public := f.browser()
		anon := f.tags(t, public, append(f.knockoutPages(), f.leaguePages()...))
		for p, tag := range anon {
			resp, body := f.request(staff, p, "If-None-Match", tag)
			if resp.StatusCode != http.StatusOK || body == "" {
				t.Errorf("director GET %s with the public's tag: %d, want 200", p, resp.StatusCode)
			}
			if resp.Header.Get("ETag") != "" || resp.Header.Get("Last-Modified") != "" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
				t.Errorf("director GET %s: ETag %q Last-Modified %q Cache-Control %q; want no validators, private",
					p, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"), resp.Header.Get("Cache-Control"))
			}
			if resp, _ := f.request(staff, p, "If-None-Match", "*"); resp.StatusCode != http.StatusOK {
				t.Errorf("director GET %s If-None-Match *: %d, want 200", p, resp.StatusCode)
			}
		}
		// The stage page is for staff only: the director gets it, uncached.
		sp := "/stages/" + i64s(f.stage)
		if resp, _ := f.request(staff, sp); resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != "" {
			t.Errorf("director GET %s: %d, ETag %q", sp, resp.StatusCode, resp.Header.Get("ETag"))
		}
		if resp, _ := f.request(public, sp, "If-None-Match", "*"); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("public GET %s: %d, want the sign-in page", sp, resp.StatusCode)
		}
	})
}

// A draft stays 404 to the public however If-None-Match or
// If-Modified-Since guess, exactly like an event that does not exist.
func TestCache_DraftStays404WhateverTheGuess(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newCacheFixture(t, a)
		storetest.AgeRevisions(t, a.store, 2*time.Second)
		public := f.browser()
		bare := &http.Client{Timeout: 30 * time.Second}
		pages := func(ev, st, lg, cl int64) []string {
			e, c := "/events/"+i64s(ev), "/league/"+i64s(cl)
			return []string{e, e + "/brackets", e + "/games", "/stages/" + i64s(st) + "/csv",
				"/events/" + i64s(lg) + "/league", c, c + "/schedule.csv", c + "/calendar.ics"}
		}
		// What a guesser might send: any tag, the public event's tag with
		// the draft's revision, a date in the future.
		guesses := [][]string{{"If-None-Match", "*"}, {"If-None-Match", `W/"1.1-000000000000000000000000"`},
			{"If-None-Match", `"x", W/"2.3-abc"`}, {"If-Modified-Since", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}}
		missing := pages(987654, 987654, 987654, 987654)
		for i, p := range pages(f.draft, f.draftStage, f.draftLeague, f.draftClass) {
			for _, c := range []*http.Client{public, bare} {
				for _, h := range append(guesses, nil) {
					resp, body := f.request(c, p, h...)
					respMissing, bodyMissing := f.request(c, missing[i], h...)
					if resp.StatusCode != http.StatusNotFound || resp.Header.Get("ETag") != "" || resp.Header.Get("Last-Modified") != "" {
						t.Errorf("draft GET %s %v: %d, ETag %q, Last-Modified %q; want 404 without validators",
							p, h, resp.StatusCode, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"))
					}
					if respMissing.StatusCode != resp.StatusCode || body == "" || bodyMissing == "" {
						t.Errorf("draft GET %s %v: %d, missing %s: %d; want the same answer, a page",
							p, h, resp.StatusCode, missing[i], respMissing.StatusCode)
					}
				}
			}
		}
		// Published, the same event gets tags.
		if err := a.srv.Office.SetEventStatus(context.Background(), f.g.admin, f.draft, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		f.tags(t, public, []string{"/events/" + strconv.FormatInt(f.draft, 10)})
	})
}

// TestCache_Figures times a public page answered in full and answered 304
// (docs/caching.md):
//
// KISEN_BENCH_REPORT=1 go test -run TestCache_Figures -v ./web/
func TestCache_Figures(t *testing.T) {
	// not parallel: an env-gated benchmark report: its timings need the machine to itself
	if os.Getenv("KISEN_BENCH_REPORT") != "1" {
		t.Skip("set KISEN_BENCH_REPORT=1 to print the figures")
	}
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newCacheFixture(t, a)
		public := f.browser()
		const n = 200
		for _, p := range append(f.knockoutPages(), f.leaguePages()...) {
			tag := f.tags(t, public, []string{p})[p]
			median := func(header ...string) time.Duration {
				ds := make([]time.Duration, n)
				for i := range ds {
					start := time.Now()
					f.request(public, p, header...)
					ds[i] = time.Since(start)
				}
				slices.Sort(ds)
				return ds[n/2]
			}
			full, cached := median(), median("If-None-Match", tag)
			t.Logf("%-28s 200: %8s   304: %8s", p, full.Round(time.Microsecond), cached.Round(time.Microsecond))
		}
	})
}
