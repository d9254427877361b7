package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestResultVersion_StaleWritesRefused (issue 11): every write that
// changes a result carries the version seen; an out-of-date one is a
// *StaleError (409) naming the version stored and the result in force, and
// nothing is written. A confirmation must name the newest version, once.
func TestResultVersion_StaleWritesRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"require_confirmation": true}`)
		gm := g.game()
		v1, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation})
		if err != nil {
			t.Fatal(err)
		}
		stale := func(what string, err error, latest int) {
			t.Helper()
			var se *office.StaleError
			if !errors.As(err, &se) || !errors.Is(err, office.ErrConflict) {
				t.Fatalf("%s: %v, want a stale error", what, err)
			}
			if !se.Has || se.Latest.Version != latest || se.GameID != gm.ID {
				t.Fatalf("%s: stale error %+v, want latest version %d", what, se, latest)
			}
		}
		_, err = g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation})
		stale("result from a page without v1", err, 1)
		_, err = g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "resign", By: "sente"})
		stale("end from a page without v1", err, 1)
		_, _, err = g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二手指し"})
		stale("foul loss from a page without v1", err, 1)
		if rs, _ := s.Rulings(g.ctx, gm.ID); len(rs) != 0 {
			t.Fatalf("a refused foul loss left %d rulings", len(rs))
		}
		// A ruling that does not change the result needs no version.
		if _, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "warning", Player: "sente", Reason: "時計"}); err != nil || ended != nil {
			t.Fatalf("warning: %v %v", err, ended)
		}
		v2, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation, Version: 1})
		if err != nil || v2.Version != 2 {
			t.Fatalf("correction: %v %+v", err, v2)
		}
		// Confirming v1 once v2 exists confirms a result nobody sees.
		stale("confirm a superseded version", g.o.ConfirmResult(g.ctx, g.arbiter, v1.ID), 2)
		if err := g.o.ConfirmResult(g.ctx, g.arbiter, v2.ID); err != nil {
			t.Fatal(err)
		}
		err = g.o.ConfirmResult(g.ctx, g.admin, v2.ID)
		stale("confirm twice", err, 2)
		var se *office.StaleError
		if errors.As(err, &se); !se.HasInForce || se.InForce.ID != v2.ID {
			t.Fatalf("in force %+v, want v2", se.InForce)
		}
		if hist, _ := s.ResultHistory(g.ctx, gm.ID); len(hist) != 2 || hist[0].Confirmed() {
			t.Fatalf("history %+v: want v1 unconfirmed and v2", hist)
		}
	})
}
