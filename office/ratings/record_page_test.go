package ratings_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
	"kisen/store/storetest"
)

// The record page's narrow read (store.PlayerRecordGames, kept once per
// revision) shows the same games as the whole record (the CSV's
// GameSetOfPlayer read): games of public events only, void games left
// out, the result in force (D-R3: the 千日手 and its redo both listed; an
// unconfirmed result shows none), rating changes, totals and opponents.
func TestRecordPage_SameGamesAsTheWholeRecord_D_R3(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		a, b, c := f.players[0], f.players[1], f.players[2]
		f.play(f.Event, a, b, "", office.ResultSenteWin, "resignation")
		f.play(f.Event, b, a, "", office.ResultSenteWin, "forfeit")
		g := f.play(f.Event, a, c, "", office.ResultRedo, "sennichite")
		redo, err := f.O.CreateRedoGameFromRemaining(f.Ctx, f.Admin, g.ID, time.Hour, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		f.record(redo, office.ResultGoteWin, "resignation")
		f.play(f.confirmEvent, a, c, "", office.ResultSenteWin, "resignation") // unconfirmed
		f.play(event2Named(f.GameFixture, "{}", "下書き棋戦"), a, b, "", office.ResultSenteWin, "resignation")
		open, err := f.O.CreateGame(f.Ctx, f.Admin, office.GameInput{EventID: f.Event.ID, SenteID: &c.ID, GoteID: &a.ID})
		if err != nil {
			t.Fatal(err)
		}
		withdrawn, err := f.O.CreateGame(f.Ctx, f.Admin, office.GameInput{EventID: f.Event.ID, SenteID: &a.ID, GoteID: &b.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DB(f.Ctx).Create(&store.GameVoid{GameID: withdrawn.ID, VoidedBy: f.Admin.UserID, VoidedAt: time.Now()}).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		r := ratings.New(f.O)
		var whole []ratings.PlayerGame
		if err := r.EachRecordGame(f.Ctx, a.ID, func(g ratings.PlayerGame) error {
			whole = append(whole, g)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for range 2 { // computed, then kept
			rec, err := r.PlayerRecord(f.Ctx, a.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Games) != 6 || len(whole) != 6 {
				t.Fatalf("page %d games, whole record %d: want 6 (4 decided, the unconfirmed one, the open one)", len(rec.Games), len(whole))
			}
			var want ratings.RecordTotals
			var rated int
			for i, w := range whole {
				p := rec.Games[i]
				if p.Game.ID != w.Game.ID || p.Event.ID != w.Event.ID || p.Event.Name != w.Event.Name || p.Opponent.ID != w.Opponent.ID ||
					p.Opponent.Name != w.Opponent.Name || p.Sente != w.Sente || !p.PlayedAt.Equal(w.PlayedAt) || p.Result != w.Result ||
					p.Reason != w.Reason || p.Won != w.Won || p.Lost != w.Lost || p.HasRecord != w.HasRecord || p.Rated != w.Rated ||
					p.Before != w.Before || p.After != w.After {
					t.Errorf("line %d: page %+v\nwhole %+v", i, p, w)
				}
				if p.Game.ID == withdrawn.ID {
					t.Errorf("the void game %d is listed", withdrawn.ID)
				}
				if p.Game.ID == open.ID && (p.Result != "" || !p.PlayedAt.IsZero()) {
					t.Errorf("the open game: result %q, played %v; want none", p.Result, p.PlayedAt)
				}
				want.Games++
				if w.Won {
					want.Wins++
				}
				if w.Lost {
					want.Losses++
				}
				if w.Rated {
					rated++
				}
			}
			if rec.Totals != want || want.Wins != 2 || want.Losses != 1 || rated != 2 {
				t.Errorf("totals %+v, want %+v (2 wins, 1 loss; 2 rated: %d)", rec.Totals, want, rated)
			}
			ids := make([]int64, 0, len(rec.Opponents))
			for _, o := range rec.Opponents {
				ids = append(ids, o.ID)
			}
			opps := []store.Player{b, c}
			slices.SortFunc(opps, func(x, y store.Player) int {
				return cmp.Or(strings.Compare(x.Reading, y.Reading), cmp.Compare(x.ID, y.ID))
			})
			if wantIDs := []int64{opps[0].ID, opps[1].ID}; !slices.Equal(ids, wantIDs) {
				t.Errorf("opponents %v, want %v by reading", ids, wantIDs)
			}
		}
	})
}

// The record page's chart read (store.RatingChartOf, the four columns the
// page uses) lists the same rated games, in the same order and with the
// same values, as the whole history (store.RatingHistoryOf), for every
// player: one with games, one with one game, one with none.
func TestRecordPage_ChartReadEqualsTheWholeHistory(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		a, b, c, d := f.players[0], f.players[1], f.players[2], f.players[3]
		f.play(f.Event, a, b, "", office.ResultSenteWin, "resignation")
		f.play(f.Event, b, a, "", office.ResultGoteWin, "resignation")
		f.play(f.Event, a, c, "", office.ResultSenteWin, "time")
		f.play(f.Event, c, b, "", office.ResultGoteWin, "resignation")
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		rows := 0
		for _, p := range []store.Player{a, b, c, d} {
			whole, err := s.RatingHistoryOf(f.Ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			chart, err := s.RatingChartOf(f.Ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(chart) != len(whole) {
				t.Fatalf("player %d: chart %d rows, history %d", p.ID, len(chart), len(whole))
			}
			for i, w := range whole {
				g := chart[i]
				if g.GameID != w.GameID || !g.PlayedAt.Equal(w.PlayedAt) || g.RatingBefore != w.RatingBefore || g.RatingAfter != w.RatingAfter {
					t.Errorf("player %d row %d: chart %+v\nhistory %+v", p.ID, i, g, w)
				}
			}
			rows += len(whole)
		}
		if rows != 8 {
			t.Errorf("%d history rows over the players, want 8 (four rated games, two sides)", rows)
		}
	})
}

// The record's revision read with the page's (store.PlayerPageRevisions,
// which PlayerRecordAt takes instead of reading it again) is the one
// PlayerGamesRevision reads, before and after a new game; the page's
// starts with it and moves with it.
func TestRecordPage_RevisionReadWithThePageIsTheRecords(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		a, b := f.players[0], f.players[1]
		f.play(f.Event, a, b, "", office.ResultSenteWin, "resignation")
		var pages []string
		for i := range 2 {
			page, games, err := s.PlayerPageRevisions(f.Ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := s.PlayerGamesRevision(f.Ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if games != alone || !strings.HasPrefix(page, games+"/") {
				t.Errorf("pass %d: page %q games %q; PlayerGamesRevision %q", i, page, games, alone)
			}
			pages = append(pages, games)
			f.play(f.Event, b, a, "", office.ResultGoteWin, "resignation")
		}
		if pages[0] == pages[1] {
			t.Errorf("the record's revision %q did not move with a new game", pages[0])
		}
	})
}
