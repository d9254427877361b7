package office_test

import (
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestEndGame_D_R3_RedoCreatedAtOnceVoidedWhenSuperseded: with
// confirmation required, a 千日手 creates the redo game at once (the
// players replay after the break); when a non-redo correction is confirmed
// the redo game is marked void (kept, never deleted) and the chain (D-R3)
// skips it; a later redo result gets a fresh redo game.
func TestEndGame_D_R3_RedoCreatedAtOnceVoidedWhenSuperseded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"require_confirmation":true}`)
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		sennichite := office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"}
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, sennichite)
		if err != nil {
			t.Fatal(err)
		}
		if end.Result.Confirmed() || end.Redo == nil {
			t.Fatalf("unconfirmed redo result %+v must create the redo game at once (redo %v)", end.Result, end.Redo)
		}
		first := *end.Redo
		if _, _, decided, _ := g.o.DecidingGame(g.ctx, gm.ID); decided {
			t.Fatal("nothing is confirmed yet: the chain is undecided")
		}
		// A correction to a win is entered: until it is confirmed the redo
		// game stands.
		v2, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resign", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, void, _ := s.GameVoidOf(g.ctx, first.ID); void {
			t.Fatal("an unconfirmed correction must not void the redo game")
		}
		if err := g.o.ConfirmResult(g.ctx, g.admin, v2.ID); err != nil {
			t.Fatal(err)
		}
		mark, void, err := s.GameVoidOf(g.ctx, first.ID)
		if err != nil || !void || mark.ResultID != v2.ID || mark.VoidedBy != g.admin.UserID {
			t.Fatalf("void mark %+v ok=%v err=%v; want voided by the confirmation of version %d", mark, void, err, v2.ID)
		}
		if _, err := s.GameByID(g.ctx, first.ID); err != nil {
			t.Fatalf("a void redo game is kept: %v", err)
		}
		if live, _ := s.RedoGames(g.ctx, gm.ID); len(live) != 0 {
			t.Fatalf("void redo game still listed as live: %+v", live)
		}
		last, res, decided, err := g.o.DecidingGame(g.ctx, gm.ID)
		if err != nil || !decided || last.ID != gm.ID || res.Result != office.ResultSenteWin {
			t.Fatalf("deciding game %d %+v decided=%v err=%v; want the first game's win", last.ID, res, decided, err)
		}
		// Corrected back to 千日手: a fresh redo game, and the chain runs
		// through it, not the void one.
		corr := sennichite
		corr.Version = 2
		again, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, corr)
		if err != nil {
			t.Fatal(err)
		}
		if again.Redo == nil || again.Redo.ID == first.ID {
			t.Fatalf("a new redo result needs a new redo game; got %+v", again.Redo)
		}
		if err := g.o.ConfirmResult(g.ctx, g.admin, again.Result.ID); err != nil {
			t.Fatal(err)
		}
		if _, void, _ := s.GameVoidOf(g.ctx, again.Redo.ID); void {
			t.Fatal("confirming the redo result must not void its redo game")
		}
		rv, err := g.o.RecordResult(g.ctx, g.recorder, again.Redo.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: "resign"})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.o.ConfirmResult(g.ctx, g.arbiter, rv.ID); err != nil {
			t.Fatal(err)
		}
		last, res, decided, err = g.o.DecidingGame(g.ctx, gm.ID)
		if err != nil || !decided || last.ID != again.Redo.ID || res.Result != office.ResultGoteWin {
			t.Fatalf("deciding game %d %+v decided=%v err=%v; want the live redo game %d", last.ID, res, decided, err, again.Redo.ID)
		}
		all, _ := s.AllRedoGames(g.ctx, gm.ID)
		if len(all) != 2 {
			t.Fatalf("history of redo games: %d, want the void one and the live one", len(all))
		}
	})
}

// Without confirmation the correction counts at once, and so does the void.
func TestEndGame_D_R3_SelfConfirmedCorrectionVoidsRedo(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"})
		if err != nil || end.Redo == nil {
			t.Fatalf("end: %v, redo %v", err, end.Redo)
		}
		v2, err := g.o.RecordResult(g.ctx, g.arbiter, gm.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: "resign", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if mark, void, _ := s.GameVoidOf(g.ctx, end.Redo.ID); !void || mark.ResultID != v2.ID {
			t.Fatalf("void mark %+v ok=%v", mark, void)
		}
		if _, res, decided, _ := g.o.DecidingGame(g.ctx, gm.ID); !decided || res.Result != office.ResultGoteWin {
			t.Fatalf("deciding result %+v decided=%v", res, decided)
		}
	})
}
