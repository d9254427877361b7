package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/store"
)

// queryPage is one listing page of the query-count test and the path it
// has in a fixture.
type queryPage struct {
	name  string
	path  func(f queryFixture) string
	staff bool // only for signed-in staff
}

// queryFixture is one seeded size: a knockout stage, a 順位戦 class and a
// player's record.
type queryFixture struct {
	eventKO, stage, eventLeague, class, player, opponent int64
}

func seedQueryFixture(t *testing.T, f *seed.Fixture, scale int) queryFixture {
	t.Helper()
	ctx := context.Background()
	var q queryFixture
	ek, st, err := f.Knockout(ctx, 8*scale, 1)
	if err != nil {
		t.Fatal(err)
	}
	q.eventKO, q.stage = ek.ID, st.ID
	// A second stage whose draw was published, taken back and published
	// again: its first round 1 (4×scale games) is void, and the bracket
	// pages list void games.
	vs, err := f.O.CreateStage(ctx, f.Admin, office.StageInput{EventID: ek.ID, Name: "予選", Kind: string(pairing.FirstPreliminary)})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := f.Players(ctx, 8*scale, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if _, err := f.O.AddEntrant(ctx, f.Admin, office.EntrantInput{StageID: vs.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.O.DrawStage(ctx, f.Admin, office.DrawInput{StageID: vs.ID, Seed: "7", DrawDate: "2026-06-01"}); err != nil {
		t.Fatal(err)
	}
	if err := f.O.PublishStage(ctx, f.Admin, vs.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.O.UnpublishStage(ctx, f.Admin, vs.ID, "組み合わせの誤り"); err != nil {
		t.Fatal(err)
	}
	if err := f.O.PublishStage(ctx, f.Admin, vs.ID); err != nil { // published again: new games
		t.Fatal(err)
	}
	// C2 takes ten games a player, so the small class has 11 players (55
	// games, 10 decided) and the large one 61 (305 games, 100 decided).
	players := 11
	if scale > 1 {
		players = 61
	}
	el, c, err := f.League(ctx, players, 10*scale)
	if err != nil {
		t.Fatal(err)
	}
	q.eventLeague, q.class = el.ID, c.ID
	// Every game gets a record, so the record zips write one per game.
	for _, id := range []int64{q.eventKO, q.eventLeague} {
		if err := f.Records(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	p, err := f.Record(ctx, 10*scale)
	if err != nil {
		t.Fatal(err)
	}
	q.player, q.opponent = p.ID, p.ID+1
	return q
}

var queryPages = []queryPage{
	{name: "event", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d", f.eventKO) }},
	{name: "bracket", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/brackets", f.eventKO) }},
	{name: "stage", path: func(f queryFixture) string { return fmt.Sprintf("/stages/%d", f.stage) }, staff: true},
	{name: "stage seeds", path: func(f queryFixture) string { return fmt.Sprintf("/stages/%d/seeds", f.stage) }, staff: true},
	{name: "stage CSV", path: func(f queryFixture) string { return fmt.Sprintf("/stages/%d/csv", f.stage) }},
	{name: "knockout games list", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/games", f.eventKO) }},
	{name: "league overview", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/league", f.eventLeague) }},
	{name: "league class", path: func(f queryFixture) string { return fmt.Sprintf("/league/%d", f.class) }},
	{name: "league games list", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/games", f.eventLeague) }},
	{name: "knockout projector", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/projector", f.eventKO) }},
	{name: "league projector", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/projector", f.eventLeague) }},
	{name: "league CSV", path: func(f queryFixture) string { return fmt.Sprintf("/league/%d/schedule.csv", f.class) }},
	{name: "league ICS", path: func(f queryFixture) string { return fmt.Sprintf("/league/%d/calendar.ics", f.class) }},
	{name: "player record", path: func(f queryFixture) string { return fmt.Sprintf("/players/%d/record", f.player) }},
	{name: "player record CSV", path: func(f queryFixture) string { return fmt.Sprintf("/players/%d/record.csv", f.player) }},
	{name: "head to head", path: func(f queryFixture) string {
		return fmt.Sprintf("/players/%d/record?opponent=%d", f.player, f.opponent)
	}},
	{name: "player", path: func(f queryFixture) string { return fmt.Sprintf("/players/%d", f.player) }},
	{name: "players list", path: func(f queryFixture) string { return "/players" }},
	{name: "ratings", path: func(f queryFixture) string { return "/ratings" }},
	{name: "ratings page 2", path: func(f queryFixture) string { return "/ratings?page=2" }},
	{name: "ratings search", path: func(f queryFixture) string { return "/ratings?q=%E6%A3%8B%E5%A3%AB" }},
	{name: "players search", path: func(f queryFixture) string { return "/players?q=%E6%A3%8B%E5%A3%AB" }},
	{name: "ratings CSV", path: func(f queryFixture) string { return "/ratings/export.csv" }},
	{name: "players CSV", path: func(f queryFixture) string { return "/players/export.csv" }},
	// record downloads (issue 15, docs/downloads.md)
	{name: "event records zip", path: func(f queryFixture) string { return fmt.Sprintf("/events/%d/records.zip?format=kif", f.eventKO) }},
	{name: "league records zip", path: func(f queryFixture) string {
		return fmt.Sprintf("/events/%d/records.zip?format=kif-sjis", f.eventLeague)
	}},
	{name: "stage records zip", path: func(f queryFixture) string { return fmt.Sprintf("/stages/%d/records.zip?format=csa", f.stage) }},
	// embeds (issue 15, docs/embeds.md)
	{name: "stage embed", path: func(f queryFixture) string { return fmt.Sprintf("/embed/stages/%d", f.stage) }},
	{name: "league embed", path: func(f queryFixture) string { return fmt.Sprintf("/embed/league/%d", f.class) }},
	// The public API (issue 15): lists and the resources that list games.
	{name: "API events", path: func(f queryFixture) string { return "/api/v1/events" }},
	{name: "API organisers", path: func(f queryFixture) string { return "/api/v1/organisers" }},
	{name: "API stages", path: func(f queryFixture) string { return fmt.Sprintf("/api/v1/events/%d/stages", f.eventKO) }},
	{name: "API knockout games", path: func(f queryFixture) string { return fmt.Sprintf("/api/v1/events/%d/games?limit=200", f.eventKO) }},
	{name: "API league games", path: func(f queryFixture) string { return fmt.Sprintf("/api/v1/events/%d/games?limit=200", f.eventLeague) }},
	{name: "API league", path: func(f queryFixture) string { return fmt.Sprintf("/api/v1/events/%d/league", f.eventLeague) }},
	{name: "API league class", path: func(f queryFixture) string { return fmt.Sprintf("/api/v1/league-classes/%d", f.class) }},
	{name: "API players", path: func(f queryFixture) string { return "/api/v1/players?limit=200" }},
	{name: "API ratings", path: func(f queryFixture) string { return "/api/v1/ratings?limit=200" }},
}

// statementsOf is how many statements one GET of path costs (after one
// warm-up GET, so caches filled on first use are not counted).
func statementsOf(t *testing.T, a *testApp, s *store.Store, path string) int64 {
	t.Helper()
	if resp, body := a.get(path); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, body)
	}
	before := s.Statements()
	if resp, _ := a.get(path); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	return s.Statements() - before
}

// TestQueryCount_ListingPagesCostTheSameAtTenTimesTheSize: every public
// page that lists games issues the same number of SQL statements for a
// small event and one ten times larger (issue 12: load sets, compute in
// memory), on both databases, signed in as an administrator (who sees the
// most: staff forms and drafts) and signed out. It takes about 60 s on
// SQLite and 35 s on PostgreSQL under -race (2 tests at once on 2 cores
// shared with other work; up to 175 s among the package's 8 at once): the
// ten times larger event is seeded through the office, and every listing
// page is computed twice per principal on both sizes.
func TestQueryCount_ListingPagesCostTheSameAtTenTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		// The computation is what is counted: no page from the render
		// cache, and no bracket, league table or record kept by revision
		// (statementsOf's warm-up GET would fill both, and the counted GET
		// would then read one revision row instead of the page's sets).
		a.srv.Pages = nil
		a.srv.Office.KeepNoViews()
		f, err := seed.New(context.Background(), a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		small := seedQueryFixture(t, f, 1)
		large := seedQueryFixture(t, f, 10)
		// The void games are listed, with their players' names (80
		// entrants in 128 slots: 48 byes and 32 games).
		_, body := a.get(fmt.Sprintf("/events/%d/brackets", large.eventKO))
		void := docOf(t, body).Find(`[data-testid="bracket-void-game"]`)
		if void.Length() != 32 || !strings.Contains(void.First().Text(), "棋士") || strings.Contains(void.Text(), "#") {
			t.Fatalf("the bracket lists %d void games (want 32, named): %q", void.Length(), void.First().Text())
		}
		// What the worker of `kisen serve` does in the background (pages
		// never recompute): the rating pages list rated players.
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, a.addUser(fmt.Sprintf("qc-admin-%v", signedIn), true).ID)
			}
			for _, p := range queryPages {
				if p.staff && !signedIn {
					continue
				}
				ns := statementsOf(t, a, a.store, p.path(small))
				nl := statementsOf(t, a, a.store, p.path(large))
				t.Logf("%-20s signed in %-5v small %4d large %4d", p.name, signedIn, ns, nl)
				if nl != ns {

					t.Errorf("%s (signed in %v): %d statements for the small event, %d for the ten times larger one", p.name, signedIn, ns, nl)
				}
				if nl > 30 {
					t.Errorf("%s (signed in %v): %d statements, more than 30", p.name, signedIn, nl)
				}
			}
		}
	})
}
