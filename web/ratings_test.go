package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
)

// ratingSetup: a published event and three professionals and an amateur,
// with results entered through office:
//
//	day 1  A (sente) beats B
//	day 2  C (sente) loses to amateur D
//	day 3  B (sente) 千日手 with A, redo (A sente) won by A
//
// Elo, K 32, everyone 1500 at first: A 1516 after day 1; D 1516, C 1484
// after day 2; B 1484 before day 3, where A (1516) beats B (1484) again:
// A's expectation is 1/(1+10^(−32/400)) ≈ 0.5460, so A gains
// 32 × 0.4540 ≈ 14.53 → 1530.53 and B drops to 1469.47.
type ratingSetup struct {
	admin      office.Actor
	event      store.Event
	a, b, c, d store.Player
	games      []store.Game
}

func newRatingSetup(t *testing.T, a *testApp) ratingSetup {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	var r ratingSetup
	u := a.addUser("rating-admin", true)
	r.admin = office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: true}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	var err error
	if r.event, err = o.CreateEvent(ctx, r.admin, office.EventInput{OrganiserID: org.ID, Name: "第1期レーティング杯", Kind: office.EventKnockout,
		StartDate: "2026-05-01", EndDate: "2026-06-30"}); err != nil {
		t.Fatal(err)
	}
	if err := o.SetEventStatus(ctx, r.admin, r.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	mk := func(name, reading, kind, class string) store.Player {
		p, err := o.CreatePlayer(ctx, r.admin, office.PlayerInput{Name: name, Reading: reading, Kind: kind, Rank: "六段", Class: class})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	r.a = mk("甲斐 一", "かい はじめ", "professional", "A")
	r.b = mk("乙部 二", "おとべ じ", "professional", "B1")
	r.c = mk("丙野 三", "へいの さん", "professional", "C1")
	r.d = mk("丁田 四", "ていだ し", "amateur", "")
	play := func(day string, sente, gote store.Player, result, reason string) store.Game {
		g, err := o.CreateGame(ctx, r.admin, office.GameInput{EventID: r.event.ID, SenteID: &sente.ID, GoteID: &gote.ID, ScheduledOn: day})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.RecordResult(ctx, r.admin, g.ID, office.ResultInput{Result: result, Reason: reason}); err != nil {
			t.Fatal(err)
		}
		r.games = append(r.games, g)
		return g
	}
	play("2026-05-01", r.a, r.b, office.ResultSenteWin, "resignation")
	play("2026-05-02", r.c, r.d, office.ResultGoteWin, "resignation")
	g3 := play("2026-05-03", r.b, r.a, office.ResultRedo, "sennichite")
	redo, err := o.CreateRedoGameFromRemaining(ctx, r.admin, g3.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.RecordResult(ctx, r.admin, redo.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	r.games = append(r.games, redo)
	// What the worker of `kisen serve` does in the background.
	if _, err := ratings.New(o).RefreshRatingsIfStale(ctx); err != nil {
		t.Fatal(err)
	}
	return r
}

func docOf(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestRatingsWeb_PlayerRecordChartAndResults_D_R3(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		r := newRatingSetup(t, a)
		resp, body := a.get(fmt.Sprintf("/players/%d/record", r.a.ID))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("record page: %d", resp.StatusCode)
		}
		doc := docOf(t, body)
		if got := doc.Find(`[data-testid="record-rating-value"]`).Text(); got != "1531" {
			t.Errorf("A's rating shown as %q, want 1531 (1530.53 rounded)", got)
		}
		if got := doc.Find(`[data-testid="record-wl"]`).Text(); got != "2勝0敗" {
			t.Errorf("A's record %q, want 2勝0敗", got)
		}
		// The chart: the starting rating and one point per rated game (the
		// 千日手 and its redo are one game, D-R3).
		if n := doc.Find(`[data-testid="rating-chart-dot"]`).Length(); n != 3 {
			t.Errorf("chart has %d points, want 3", n)
		}
		if doc.Find(`svg polyline[data-testid="rating-chart-line"]`).Length() != 1 {
			t.Error("no chart line")
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, " style=") {
			t.Error("record page has inline script or style")
		}
		// Results: all three games A sat in, newest first, each linking to
		// its game; only the decided ones carry a rating change.
		rows := doc.Find(`[data-testid="record-games"] [data-testid="record-game"]`)
		if rows.Length() != 3 {
			t.Fatalf("record lists %d games, want 3", rows.Length())
		}
		var results, changes, links []string
		rows.Each(func(_ int, s *goquery.Selection) {
			results = append(results, s.Find(`[data-testid="record-result"]`).Text())
			changes = append(changes, s.Find(`[data-testid="record-change"]`).Text())
			href, _ := s.Find(`[data-testid="record-game-link"]`).Attr("href")
			links = append(links, href)
		})
		if strings.Join(results, ",") != "勝,指し直し,勝" {
			t.Errorf("results %v", results)
		}
		if changes[0] != "+15" || changes[1] != "" || changes[2] != "+16" {
			t.Errorf("rating changes %v, want +15, none, +16", changes)
		}
		wantLinks := []string{"/games/" + strconv.FormatInt(r.games[3].ID, 10), "/games/" + strconv.FormatInt(r.games[2].ID, 10), "/games/" + strconv.FormatInt(r.games[0].ID, 10)}
		if strings.Join(links, ",") != strings.Join(wantLinks, ",") {
			t.Errorf("game links %v, want %v", links, wantLinks)
		}
		// The player page links here.
		_, body = a.get(fmt.Sprintf("/players/%d", r.a.ID))
		if href, _ := docOf(t, body).Find(`[data-testid="player-record-link"]`).Attr("href"); href != fmt.Sprintf("/players/%d/record", r.a.ID) {
			t.Errorf("player page record link %q", href)
		}
		// An unrated player has no chart but a message.
		_, body = a.get(fmt.Sprintf("/players/%d/record", r.c.ID))
		if docOf(t, body).Find(`[data-testid="rating-chart"]`).Length() != 1 {
			t.Error("C lost a rated game: chart expected")
		}
		if resp, _ := a.get("/players/999999/record"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("unknown player: %d", resp.StatusCode)
		}
	})
}

func TestRatingsWeb_HeadToHeadFragment(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		r := newRatingSetup(t, a)
		_, body := a.get(fmt.Sprintf("/players/%d/record", r.a.ID))
		opts := docOf(t, body).Find(`[data-testid="h2h-opponent"] option[value!=""]`)
		if opts.Length() != 1 || opts.AttrOr("value", "") != strconv.FormatInt(r.b.ID, 10) {
			t.Fatalf("opponent choices: %d (%q)", opts.Length(), opts.AttrOr("value", ""))
		}
		path := fmt.Sprintf("/players/%d/record/h2h?opponent=%d", r.a.ID, r.b.ID)
		resp, frag := a.getHTMX(path)
		if resp.StatusCode != http.StatusOK || strings.Contains(frag, "<html") {
			t.Fatalf("fragment: %d, full page: %v", resp.StatusCode, strings.Contains(frag, "<html"))
		}
		doc := docOf(t, frag)
		// Two decided games (day 1 and the redo), the 千日手 counted apart.
		sum := doc.Find(`[data-testid="h2h-summary"]`).Text()
		if !strings.Contains(sum, "2勝0敗") || !strings.Contains(sum, "1局") {
			t.Errorf("summary %q", sum)
		}
		if n := doc.Find(`[data-testid="h2h-game"]`).Length(); n != 3 {
			t.Errorf("head-to-head lists %d games, want 3", n)
		}
		// From B's side it is the mirror image.
		_, frag = a.getHTMX(fmt.Sprintf("/players/%d/record/h2h?opponent=%d", r.b.ID, r.a.ID))
		if sum := docOf(t, frag).Find(`[data-testid="h2h-summary"]`).Text(); !strings.Contains(sum, "0勝2敗") {
			t.Errorf("B's summary %q", sum)
		}
		// Without htmx the picker lands on the full page.
		resp, _ = a.get(path)
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "/record?opponent=") {
			t.Errorf("no-script head-to-head: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		_, body = a.get(fmt.Sprintf("/players/%d/record?opponent=%d", r.a.ID, r.b.ID))
		if docOf(t, body).Find(`[data-testid="h2h-summary"]`).Length() != 1 {
			t.Error("full page with ?opponent= has no head-to-head")
		}
		if resp, _ := a.getHTMX(fmt.Sprintf("/players/%d/record/h2h?opponent=%d", r.a.ID, r.a.ID)); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("against themself: %d, want 422", resp.StatusCode)
		}
	})
}

func TestRatingsWeb_ListFiltersAndCSV(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		r := newRatingSetup(t, a)
		order := func(path string, htmx bool) []string {
			t.Helper()
			var resp *http.Response
			var body string
			if htmx {
				resp, body = a.getHTMX(path)
			} else {
				resp, body = a.get(path)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d", path, resp.StatusCode)
			}
			var ids []string
			docOf(t, body).Find(`[data-testid="rating-row"]`).Each(func(_ int, s *goquery.Selection) {
				ids = append(ids, s.AttrOr("data-player", ""))
			})
			return ids
		}
		id := func(p store.Player) string { return strconv.FormatInt(p.ID, 10) }
		cases := []struct {
			name, path string
			want       []string
		}{
			// D and A' tie-free: A 1530.5, D 1516, C 1484, B 1469.5.
			{"all", "/ratings", []string{id(r.a), id(r.d), id(r.c), id(r.b)}},
			{"amateurs", "/ratings?kind=amateur", []string{id(r.d)}},
			{"class B1", "/ratings?class=B1", []string{id(r.b)}},
			{"active since day 3", "/ratings?since=2026-05-03", []string{id(r.a), id(r.b)}},
			{"unknown kind ignored", "/ratings?kind=robot", []string{id(r.a), id(r.d), id(r.c), id(r.b)}},
		}
		for _, c := range cases {
			if got := order(c.path, false); strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
		if got := order("/ratings?kind=professional", true); strings.Join(got, ",") != strings.Join([]string{id(r.a), id(r.c), id(r.b)}, ",") {
			t.Errorf("htmx professionals: %v", got)
		}
		resp, frag := a.getHTMX("/ratings")
		if resp.StatusCode != http.StatusOK || strings.Contains(frag, "<html") {
			t.Errorf("htmx list should be a fragment")
		}

		resp, body := a.get("/ratings/export.csv?kind=professional")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("csv: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(recs[0], ",") != "place,player_id,name,reading,kind,class,rating,rd,games,wins,losses,last_played" {
			t.Errorf("header %v", recs[0])
		}
		if len(recs) != 4 {
			t.Fatalf("csv has %d rows, want header + 3 professionals", len(recs))
		}
		first := recs[1]
		if first[1] != id(r.a) || first[2] != r.a.Name || first[6] != "1530.5" || first[7] != "" || first[8] != "2" || first[11] != "2026-05-03" {
			t.Errorf("first row %v", first)
		}
	})
}

func TestRatingsWeb_SettingsAdminOnly422AndSave(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		user := a.addUser("someone", false)
		a.signIn(a.client, user.ID)
		if resp, _ := a.get("/ratings/settings"); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("non-admin settings page: %d", resp.StatusCode)
		}
		admin := a.addUser("boss", true)
		c := a.newClient()
		a.client = c
		a.signIn(c, admin.ID)
		resp, body := a.get("/ratings/settings")
		if resp.StatusCode != http.StatusOK || docOf(t, body).Find(`[data-testid="rs-elo_k"]`).AttrOr("value", "") != "32" {
			t.Fatalf("settings page: %d", resp.StatusCode)
		}
		form := url.Values{"model": {"elo"}, "elo_initial": {"1500"}, "elo_k": {"abc"}, "provisional_games": {"0"},
			"provisional_k": {""}, "g2_initial": {"1500"}, "g2_initial_rd": {"350"}, "g2_volatility": {"0.06"}, "g2_tau": {"-1"}, "g2_period": {"month"}}
		resp, body = a.postForm("/ratings/settings", form)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad settings: %d", resp.StatusCode)
		}
		doc := docOf(t, body)
		if doc.Find(`[data-testid="rs-error-elo_k"]`).Length() != 1 || doc.Find(`[data-testid="rs-error-g2_tau"]`).Length() != 1 {
			t.Errorf("field errors missing: %s", doc.Find(".field-error").Text())
		}
		if v := doc.Find(`[data-testid="rs-elo_k"]`).AttrOr("value", ""); v != "abc" {
			t.Errorf("input not kept: %q", v)
		}
		form.Set("model", "glicko2")
		form.Set("elo_k", "24")
		form.Set("g2_tau", "0.6")
		form.Set("rate_handicap", "on")
		resp, _ = a.postForm("/ratings/settings", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good settings: %d", resp.StatusCode)
		}
		got, err := ratings.New(a.srv.Office).RatingSettings(context.Background())
		if err != nil || got.Model != "glicko2" || got.Elo.K != 24 || got.Glicko2.Tau != 0.6 || !got.RateHandicap {
			t.Fatalf("saved %+v %v", got, err)
		}
	})
}

func TestRatingsWeb_StageSeedsByRatingForDirectors(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		r := newRatingSetup(t, a)
		ctx := context.Background()
		o := a.srv.Office
		st, err := o.CreateStage(ctx, r.admin, office.StageInput{EventID: r.event.ID, Name: "本戦", Kind: office.StageKinds[0]})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []store.Player{r.b, r.c, r.d, r.a} {
			if _, err := o.AddEntrant(ctx, r.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		path := fmt.Sprintf("/stages/%d/seeds", st.ID)
		outsider := a.addUser("outsider", false)
		a.signIn(a.client, outsider.ID)
		// The stage is not published: for whoever is not the event's staff
		// it does not exist, as its page (issue 21; docs/security.md).
		if resp, _ := a.get(path); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("outsider: %d, want 404", resp.StatusCode)
		}
		a.client = a.newClient()
		a.signIn(a.client, r.admin.UserID)
		resp, body := a.get(path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("director: %d", resp.StatusCode)
		}
		var got []string
		docOf(t, body).Find(`[data-testid="seed-row"]`).Each(func(_ int, s *goquery.Selection) {
			got = append(got, s.AttrOr("data-player", ""))
		})
		// A 1530.5, D 1516, C 1484, B 1469.5.
		want := []string{strconv.FormatInt(r.a.ID, 10), strconv.FormatInt(r.d.ID, 10), strconv.FormatInt(r.c.ID, 10), strconv.FormatInt(r.b.ID, 10)}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("seeds %v, want %v", got, want)
		}
	})
}
