package office_test

import (
	"context"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// TestQuickResult_StatementsSameAtSixteenTimesTheSize (issue 12 part 3:
// result entry proportional to what changes): the first two results of a
// published stage's round 1 — the second of which creates the round-2
// game they feed — issue the same number of statements on a stage of 32
// entrants and on one of 512, on both databases. A result that
// recomputed or re-synchronised the whole bracket one game at a time
// would cost more on the larger stage.
//
// Slow (~15 s under -race on a quiet 2-core machine, more when loaded):
// seeding and drawing the 512-entrant published stage is most of it, and
// the size is what the test is about.
func TestQuickResult_StatementsSameAtSixteenTimesTheSize(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
		o := office.New(s, func() time.Time { return now })
		f, err := seed.New(ctx, o, s, now)
		if err != nil {
			t.Fatal(err)
		}
		// results enters sente's win in round 1's first two games and
		// answers the statements of each, checking the round-2 game the
		// second one completes has both players.
		results := func(entrants int) [2]int64 {
			t.Helper()
			e, st, err := f.Knockout(ctx, entrants, 0)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := o.EventBrackets(ctx, f.Admin, e.ID)
			if err != nil {
				t.Fatal(err)
			}
			round := eb.Stages[0].Rounds[0]
			var n [2]int64
			for i, g := range round[:2] {
				if g.DecidingGameID == 0 || g.SenteID == 0 || g.GoteID == 0 {
					t.Fatalf("%d entrants: round 1 game %s has no two players", entrants, g.ID)
				}
				before := s.Statements()
				if err := o.QuickResult(ctx, f.Admin, office.QuickResultInput{StageID: st.ID, BracketGame: g.ID,
					WinnerID: g.SenteID, Reason: office.ReasonResignation, GameID: g.DecidingGameID}); err != nil {
					t.Fatalf("%d entrants, result %d: %v", entrants, i+1, err)
				}
				n[i] = s.Statements() - before
			}
			eb, err = o.EventBrackets(ctx, f.Admin, e.ID)
			if err != nil {
				t.Fatal(err)
			}
			next := eb.Stages[0].Rounds[1][0]
			if next.GameID == 0 || next.SenteID == 0 || next.GoteID == 0 {
				t.Fatalf("%d entrants: the round-2 game fed by the two results was not created: %+v", entrants, next)
			}
			return n
		}
		small, large := results(32), results(512)
		t.Logf("statements per result: 32 entrants %v, 512 entrants %v", small, large)
		for i := range small {
			if small[i] != large[i] {
				t.Errorf("result %d: %d statements on 32 entrants, %d on 512", i+1, small[i], large[i])
			}
			if small[i] > 40 {
				t.Errorf("result %d: %d statements", i+1, small[i])
			}
		}
	})
}
