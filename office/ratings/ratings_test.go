package ratings_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/officetest"
	"kisen/office/ratings"
	"kisen/rating"
	"kisen/store"
	"kisen/store/storetest"
)

// ratingFixture: a published event (results confirm themselves), a second
// published event that requires confirmation, and six players.
type ratingFixture struct {
	*officetest.GameFixture
	confirmEvent store.Event
	players      []store.Player
	// script is the test's own account of every game entered, as the
	// rating package should see it; the oracle recomputes from it.
	script []rating.Game
	day    int
}

func newRatingFixture(t *testing.T, s *store.Store) *ratingFixture {
	g := officetest.NewGameFixture(t, s, "{}")
	f := &ratingFixture{GameFixture: g}
	f.confirmEvent = event2(g, `{"require_confirmation": true}`)
	for _, e := range []int64{g.Event.ID, f.confirmEvent.ID} {
		if err := g.O.SetEventStatus(g.Ctx, g.Admin, e, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
	}
	f.players = []store.Player{g.Sente, g.Gote}
	for i, name := range []string{"甲", "乙", "丙", "丁"} {
		readings := []string{"あ", "い", "う", "え"}
		p, err := g.O.CreatePlayer(g.Ctx, g.Admin, office.PlayerInput{Name: "棋士 " + name, Reading: "きし " + readings[i], Kind: "professional", Rank: "四段",
			Number: fmt.Sprintf("X%d", 123+i)})
		if err != nil {
			t.Fatal(err)
		}
		f.players = append(f.players, p)
	}
	return f
}

func event2(g *officetest.GameFixture, settings string) store.Event {
	return event2Named(g, settings, "確認制棋戦")
}

func event2Named(g *officetest.GameFixture, settings, name string) store.Event {
	return g.Fixture.Event(g.Admin, g.Organiser(settings).ID, name)
}

// play creates a game on its own day and records a result through office.
func (f *ratingFixture) play(ev store.Event, sente, gote store.Player, handicap, result, reason string) store.Game {
	f.T.Helper()
	f.day++
	day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, f.day).Format("2006-01-02")
	gm, err := f.O.CreateGame(f.Ctx, f.Admin, office.GameInput{EventID: ev.ID, SenteID: &sente.ID, GoteID: &gote.ID, Handicap: handicap, ScheduledOn: day})
	if err != nil {
		f.T.Fatal(err)
	}
	f.record(gm, result, reason)
	return gm
}

func (f *ratingFixture) record(gm store.Game, result, reason string) store.ResultVersion {
	f.T.Helper()
	hist, err := f.O.ResultHistory(f.Ctx, gm.ID)
	if err != nil {
		f.T.Fatal(err)
	}
	// A correction carries the version it corrects (issue 11).
	rv, err := f.O.RecordResult(f.Ctx, f.Admin, gm.ID, office.ResultInput{Result: result, Reason: reason, Version: len(hist)})
	if err != nil {
		f.T.Fatal(err)
	}
	return rv
}

// expect adds a game to the oracle's script.
func (f *ratingFixture) expect(gm store.Game, outcome rating.Outcome, confirmed, forfeit, handicap bool) {
	day, _ := time.ParseInLocation("2006-01-02", *gm.ScheduledOn, time.FixedZone("JST", 9*3600))
	g := rating.Game{ID: strconv.FormatInt(gm.ID, 10), EventID: strconv.FormatInt(gm.EventID, 10), Date: day,
		Sente: strconv.FormatInt(*gm.SentePlayerID, 10), Gote: strconv.FormatInt(*gm.GotePlayerID, 10),
		Outcome: outcome, Confirmed: confirmed, Forfeit: forfeit, Handicap: handicap}
	if gm.RedoOfID != nil {
		g.RedoOf = strconv.FormatInt(*gm.RedoOfID, 10)
	}
	for i := range f.script {
		if f.script[i].ID == g.ID {
			f.script[i] = g
			return
		}
	}
	f.script = append(f.script, g)
}

// checkAgainstScratch refreshes the stored ratings as the worker of
// `kisen serve` does (RefreshRatingsIfStale) and compares every player's rating and history with rating.Recompute over
// the script.
func (f *ratingFixture) checkAgainstScratch(step string) {
	f.T.Helper()
	if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
		f.T.Fatalf("%s: refresh: %v", step, err)
	}
	var roster []string
	for _, p := range f.players {
		roster = append(roster, strconv.FormatInt(p.ID, 10))
	}
	want, err := rating.Recompute(ratings.DefaultRatingSettings(), roster, f.script)
	if err != nil {
		f.T.Fatalf("%s: oracle: %v", step, err)
	}
	got, err := f.S.AllPlayerRatings(f.Ctx)
	if err != nil {
		f.T.Fatal(err)
	}
	if len(got) != len(roster) {
		f.T.Fatalf("%s: %d stored ratings, want %d", step, len(got), len(roster))
	}
	for _, r := range got {
		w, ok := want.Rating(strconv.FormatInt(r.PlayerID, 10))
		if !ok {
			f.T.Fatalf("%s: stored rating for unknown player %d", step, r.PlayerID)
		}
		if math.Abs(r.Rating-w.Rating) > 1e-9 || r.Games != w.Games || r.Wins != w.Wins || r.Losses != w.Losses {
			f.T.Errorf("%s: player %d stored %.6f (%d games %d–%d), scratch %.6f (%d games %d–%d)",
				step, r.PlayerID, r.Rating, r.Games, r.Wins, r.Losses, w.Rating, w.Games, w.Wins, w.Losses)
		}
		hist, err := f.S.RatingHistoryOf(f.Ctx, r.PlayerID)
		if err != nil {
			f.T.Fatal(err)
		}
		wh := want.History(strconv.FormatInt(r.PlayerID, 10))
		if len(hist) != len(wh) {
			f.T.Fatalf("%s: player %d history has %d entries, scratch %d", step, r.PlayerID, len(hist), len(wh))
		}
		for i := range hist {
			if strconv.FormatInt(hist[i].GameID, 10) != wh[i].Game || math.Abs(hist[i].RatingAfter-wh[i].After) > 1e-9 {
				f.T.Errorf("%s: player %d history[%d] = game %d → %.3f, scratch game %s → %.3f",
					step, r.PlayerID, i, hist[i].GameID, hist[i].RatingAfter, wh[i].Game, wh[i].After)
			}
		}
	}
}

func TestRatings_D_R3_StoredEqualsFullRecomputeAfterEveryResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		p := f.players
		f.checkAgainstScratch("no games")

		g1 := f.play(f.Event, p[0], p[1], "", office.ResultSenteWin, "resignation")
		f.expect(g1, rating.SenteWin, true, false, false)
		f.checkAgainstScratch("first win")

		g2 := f.play(f.Event, p[2], p[3], "", office.ResultGoteWin, "resignation")
		f.expect(g2, rating.GoteWin, true, false, false)
		f.checkAgainstScratch("second game")

		// 千日手, then its redo with colours swapped (D-R1), won: the chain
		// counts once (D-R3).
		g3 := f.play(f.Event, p[0], p[2], "", office.ResultRedo, "sennichite")
		f.expect(g3, rating.Sennichite, true, false, false)
		f.checkAgainstScratch("sennichite")
		redo, err := f.O.CreateRedoGameFromRemaining(f.Ctx, f.Admin, g3.ID, time.Hour, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		f.record(redo, office.ResultGoteWin, "resignation")
		f.expect(redo, rating.GoteWin, true, false, false)
		f.checkAgainstScratch("redo decided")

		// A forfeit and a handicap game are entered but not rated.
		g4 := f.play(f.Event, p[4], p[5], "", office.ResultSenteWin, "forfeit")
		f.expect(g4, rating.SenteWin, true, true, false)
		g5 := f.play(f.Event, p[4], p[5], "香落ち", office.ResultGoteWin, "resignation")
		f.expect(g5, rating.GoteWin, true, false, true)
		f.checkAgainstScratch("forfeit and handicap")

		// In the event that requires confirmation the result counts only
		// once a second person confirms it.
		g6 := f.play(f.confirmEvent, p[1], p[3], "", office.ResultSenteWin, "resignation")
		f.checkAgainstScratch("unconfirmed")
		rv, err := f.O.ResultHistory(f.Ctx, g6.ID)
		if err != nil || len(rv) != 1 {
			t.Fatalf("result history: %v %v", rv, err)
		}
		if err := f.O.ConfirmResult(f.Ctx, f.arbiterOf(f.confirmEvent), rv[0].ID); err != nil {
			t.Fatal(err)
		}
		f.expect(g6, rating.SenteWin, true, false, false)
		f.checkAgainstScratch("confirmed")

		// A correction (new version) replaces the first result.
		f.record(g1, office.ResultGoteWin, "resignation")
		f.expect(g1, rating.GoteWin, true, false, false)
		f.checkAgainstScratch("corrected")

		sum, err := ratings.New(f.O).RecomputeRatings(f.Ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Rated: g1, g2, redo, g6. Skipped: g3 (redone), g4 (forfeit), g5 (handicap).
		if sum.GamesUsed != 4 || sum.GamesSkipped["redone"] != 1 || sum.GamesSkipped["forfeit"] != 1 || sum.GamesSkipped["handicap"] != 1 {
			t.Errorf("summary %+v", sum)
		}
		if sum.Players != len(p) || sum.PlayersRated != 4 {
			t.Errorf("players %d rated %d, want %d and 4", sum.Players, sum.PlayersRated, len(p))
		}
		f.checkAgainstScratch("forced recompute")
	})
}

// arbiterOf grants the fixture's arbiter the role in another event.
func (f *ratingFixture) arbiterOf(e store.Event) office.Actor {
	f.T.Helper()
	if err := f.O.GrantEventRole(f.Ctx, f.Admin, office.RoleGrant{EventID: e.ID, UserID: f.Arbiter.UserID, Role: office.RoleArbiter}); err != nil {
		f.T.Fatal(err)
	}
	return f.Arbiter
}

// Elo by hand: two 1500 players, expectation 0.5, K 32: the winner gains
// 32 × 0.5 = 16.
func TestRatings_EloByHandAndRedoCountedOnce_D_R3(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		a, b := f.players[0], f.players[1]
		g := f.play(f.Event, a, b, "", office.ResultRedo, "sennichite")
		redo, err := f.O.CreateRedoGameFromRemaining(f.Ctx, f.Admin, g.ID, time.Hour, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		f.record(redo, office.ResultSenteWin, "resignation") // b is sente in the redo
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		rec, err := ratings.New(f.O).PlayerRecord(f.Ctx, b.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Rating.Rating != 1516 || rec.Rating.Games != 1 || len(rec.History) != 1 {
			t.Fatalf("b: rating %v games %d history %d, want 1516 after one game", rec.Rating.Rating, rec.Rating.Games, len(rec.History))
		}
		ra, _, _ := s.PlayerRatingOf(f.Ctx, a.ID)
		if ra.Rating != 1484 || ra.Games != 1 {
			t.Fatalf("a: %v after %d games, want 1484 after 1", ra.Rating, ra.Games)
		}
		if len(rec.Games) != 2 {
			t.Fatalf("record lists %d games, want the 千日手 and its redo", len(rec.Games))
		}
	})
}

func TestRatings_DraftEventsAndUnconfirmedIgnored(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		draft := event2Named(f.GameFixture, "{}", "下書き棋戦")
		f.play(draft, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		f.play(f.confirmEvent, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		sum, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sum.GamesUsed != 0 || sum.GamesSkipped["unconfirmed"] != 1 {
			t.Fatalf("summary %+v: want no rated game and one unconfirmed", sum)
		}
		pg, err := ratings.New(f.O).RatingList(f.Ctx, ratings.RatingFilter{}, 1)
		if err != nil || len(pg.Rows) != 0 || pg.Status.Stale {
			t.Fatalf("list %+v %v, want empty and current", pg, err)
		}
		// Publishing the draft marks the ratings stale; the next refresh
		// brings its game in.
		if err := f.O.SetEventStatus(f.Ctx, f.Admin, draft.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		if pg, err = ratings.New(f.O).RatingList(f.Ctx, ratings.RatingFilter{}, 1); err != nil || !pg.Status.Stale || len(pg.Rows) != 0 {
			t.Fatalf("after publishing, before the refresh: %+v %v (want stale, still empty)", pg, err)
		}
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		pg, err = ratings.New(f.O).RatingList(f.Ctx, ratings.RatingFilter{}, 1)
		if err != nil || pg.Status.Stale || len(pg.Rows) != 2 || pg.Rows[0].Player.ID != f.players[0].ID || pg.Rows[0].Rating.Rating != 1516 {
			t.Fatalf("after publishing: %+v %v", pg, err)
		}
	})
}

func TestRatings_ListFilters(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		p := f.players
		amateur, err := f.O.CreatePlayer(f.Ctx, f.Admin, office.PlayerInput{Name: "アマ 強", Reading: "あま つよし", Kind: "amateur"})
		if err != nil {
			t.Fatal(err)
		}
		f.players = append(f.players, amateur)
		f.play(f.Event, p[0], amateur, "", office.ResultGoteWin, "resignation") // day 1
		f.play(f.Event, p[1], p[2], "", office.ResultSenteWin, "resignation")   // day 2
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name string
			f    ratings.RatingFilter
			want []int64
		}{
			{"all, by rating then reading", ratings.RatingFilter{}, []int64{amateur.ID, p[1].ID, p[2].ID, p[0].ID}},
			{"amateurs", ratings.RatingFilter{Kind: store.PlayerAmateur}, []int64{amateur.ID}},
			{"active since day 2", ratings.RatingFilter{ActiveSince: store.NewCivilDate(2026, 5, 3)}, []int64{p[1].ID, p[2].ID}},
			{"search by reading, kana and width folded", ratings.RatingFilter{Query: "キシ　ア"}, []int64{p[2].ID}},
			{"search by name", ratings.RatingFilter{Query: "アマ"}, []int64{amateur.ID}},
			{"search by number", ratings.RatingFilter{Query: "ｘ１２３"}, []int64{p[2].ID}},
			{"search and kind", ratings.RatingFilter{Query: "きし", Kind: store.PlayerAmateur}, nil},
		}
		for _, c := range cases {
			pg, err := ratings.New(f.O).RatingList(f.Ctx, c.f, 1)
			if err != nil {
				t.Fatal(err)
			}
			if pg.Total != int64(len(c.want)) {
				t.Errorf("%s: total %d, want %d", c.name, pg.Total, len(c.want))
			}
			var got []int64
			for _, r := range pg.Rows {
				got = append(got, r.Player.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	})
}

func TestRatings_SettingsAdminOnlyAndValidated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		good := ratings.RatingSettingsInputOf(rating.DefaultSettings(rating.ModelGlicko2))
		if _, err := ratings.New(f.O).SetRatingSettings(f.Ctx, f.Recorder, good); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("non-admin: %v", err)
		}
		bad := good
		bad.EloK, bad.G2Tau, bad.G2Period, bad.Model = 0, -1, "explicit", "trueskill"
		_, err := ratings.New(f.O).SetRatingSettings(f.Ctx, f.Admin, bad)
		codes := officetest.FieldCodes(err)
		for _, field := range []string{"elo_k", "g2_tau", "g2_period", "model"} {
			if codes[field] == "" {
				t.Errorf("field %s not reported: %v", field, codes)
			}
		}
		if _, err := ratings.New(f.O).SetRatingSettings(f.Ctx, f.Admin, good); err != nil {
			t.Fatal(err)
		}
		got, err := ratings.New(f.O).RatingSettings(f.Ctx)
		if err != nil || got.Model != rating.ModelGlicko2 || got.Glicko2.Tau != 0.5 {
			t.Fatalf("stored settings %+v %v", got, err)
		}
		f.play(f.Event, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		sum, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx)
		if err != nil || sum.Model != rating.ModelGlicko2 {
			t.Fatalf("refresh under Glicko-2: %+v %v", sum, err)
		}
		r, _, _ := s.PlayerRatingOf(f.Ctx, f.players[0].ID)
		if r.RD <= 0 || r.RD >= 350 || r.Rating <= 1500 {
			t.Fatalf("Glicko-2 winner after one game: %+v (RD must shrink from 350, rating rise)", r)
		}
	})
}

func TestRatings_SeedsByRating_TiesByClassThenReading(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		mk := func(name, reading, class string) store.Player {
			p, err := f.O.CreatePlayer(f.Ctx, f.Admin, office.PlayerInput{Name: name, Reading: reading, Kind: "professional", Rank: "八段", Class: class})
			if err != nil {
				t.Fatal(err)
			}
			f.players = append(f.players, p)
			return p
		}
		top := mk("上位", "じょうい", "C2")
		low := mk("下位", "かい", "A")
		c1 := mk("同点一", "どうてん", "C1")
		b1 := mk("同点二", "どうてん", "B1")
		same := mk("同点三", "あ", "B1")
		f.play(f.Event, top, low, "", office.ResultSenteWin, "resignation")
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := ratings.New(f.O).SeedsByRating(f.Ctx, f.Recorder, f.Event.ID, []int64{top.ID}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a recorder may not seed: %v", err)
		}
		rows, err := ratings.New(f.O).SeedsByRating(f.Ctx, f.Admin, f.Event.ID, []int64{c1.ID, low.ID, b1.ID, top.ID, same.ID})
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{top.ID, low.ID, same.ID, b1.ID, c1.ID} // rated first; unrated by class, then reading
		var got []int64
		for i, r := range rows {
			got = append(got, r.Player.ID)
			if r.Seed != i+1 {
				t.Errorf("row %d has seed %d", i, r.Seed)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seeds %v, want %v", got, want)
		}
	})
}

// A redo game made void (its parent's redo result was corrected to a win
// and confirmed) is not rated, even though it was played; the corrected
// parent is.
func TestRatings_D_R3_VoidRedoGameNotRated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		arb := f.arbiterOf(f.confirmEvent)
		a, b := f.players[0], f.players[1]
		g := f.play(f.confirmEvent, a, b, "", office.ResultRedo, "sennichite")
		hist, _ := f.O.ResultHistory(f.Ctx, g.ID)
		if err := f.O.ConfirmResult(f.Ctx, arb, hist[len(hist)-1].ID); err != nil {
			t.Fatal(err)
		}
		redo, err := f.O.CreateRedoGameFromRemaining(f.Ctx, f.Admin, g.ID, time.Hour, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		rv := f.record(redo, office.ResultSenteWin, "resignation") // b wins the redo
		if err := f.O.ConfirmResult(f.Ctx, arb, rv.ID); err != nil {
			t.Fatal(err)
		}
		// The 千日手 is corrected: a had won the first game after all.
		corr := f.record(g, office.ResultSenteWin, "foul_after_game")
		if err := f.O.ConfirmResult(f.Ctx, arb, corr.ID); err != nil {
			t.Fatal(err)
		}
		if _, void, err := s.GameVoidOf(f.Ctx, redo.ID); err != nil || !void {
			t.Fatalf("the redo game should be void after the correction (void=%v, err=%v)", void, err)
		}
		f.expect(g, rating.SenteWin, true, false, false)
		f.checkAgainstScratch("after the correction voided the redo game")
		ra, _, _ := s.PlayerRatingOf(f.Ctx, a.ID)
		if ra.Rating != 1516 || ra.Games != 1 {
			t.Fatalf("a: %v after %d games, want 1516 after the one corrected game", ra.Rating, ra.Games)
		}
	})
}
