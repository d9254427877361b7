package office_test

import (
	"errors"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// Issue 21 item 1, at the cause: the quick result's game must be the
// bracket game's own (its redo chain) before its version is compared. A
// game of another chain posted with a wrong version is not found — never
// a *StaleError, which would describe that game on the 409 page.
func TestQuickResult_GameOfAnotherChainIsNotFoundNotStale(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		st := k.stage()
		k.draw(st.ID, "1")
		if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
			t.Fatal(err)
		}
		eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ready []office.BracketGame
		for _, g := range eb.Stages[0].Rounds[0] {
			if g.Status == pairing.StatusReady {
				ready = append(ready, g)
			}
		}
		if len(ready) < 2 {
			t.Fatalf("%d ready games", len(ready))
		}
		mine, other := ready[0], ready[1]
		w, _ := strconv.ParseInt(mine.Players[0], 10, 64)
		for _, seen := range []int64{other.DecidingGameID, 987654321} {
			err := k.o.QuickResult(k.ctx, k.director, office.QuickResultInput{StageID: st.ID, BracketGame: mine.ID, WinnerID: w,
				Reason: office.ReasonResignation, GameID: seen, Version: 7})
			var stale *office.StaleError
			if !errors.Is(err, office.ErrNotFound) || errors.As(err, &stale) {
				t.Errorf("game %d posted on bracket game %s: %v, want not found", seen, mine.ID, err)
			}
		}
		// The bracket game's own game at a wrong version is still stale.
		err = k.o.QuickResult(k.ctx, k.director, office.QuickResultInput{StageID: st.ID, BracketGame: mine.ID, WinnerID: w,
			Reason: office.ReasonResignation, GameID: mine.DecidingGameID, Version: 7})
		var stale *office.StaleError
		if !errors.As(err, &stale) || stale.GameID != mine.DecidingGameID {
			t.Fatalf("own game at a wrong version: %v, want a stale error", err)
		}
	})
}
