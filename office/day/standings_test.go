package day_test

import (
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Standings while a round is being played (some boards decided, some not)
// count the decided boards only, in every format, and never fail.
func TestDay_StandingsMidRound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		blocks := f.class(f.classInput("A級", day.FormatPools))
		recIn := f.classInput("B級", day.FormatPools)
		recIn.PoolMode = "records"
		records := f.class(recIn)
		swiss := f.class(f.classInput("C級", day.FormatSwiss))
		for _, c := range []day.Class{blocks, records, swiss} {
			f.present(8, "初段", c.ID)
			f.drawRound(c.ID, 3)
			f.finishRound(c.ID)
			f.drawRound(c.ID, 4)
			v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			b := v.Rounds[1].Boards[0]
			if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 2, Board: b.Board, GameID: b.Last.ID, Version: 0, Result: office.ResultSenteWin}); err != nil {
				t.Fatal(err)
			}
			v, _ = f.d.ClassView(f.ctx, f.admin, c.ID)
			st, err := v.Standings()
			if err != nil {
				t.Fatalf("%s mid-round: %v", c.Name, err)
			}
			games := 0
			for _, l := range st.Pools {
				games += l.Wins + l.Losses - l.Byes
			}
			for _, l := range st.Swiss {
				games += l.Games
			}
			if games != 2*(len(v.Rounds[0].Boards)+1) {
				t.Errorf("%s: standings count %d game results, want %d (round 1 and one board of round 2)", c.Name, games, 2*(len(v.Rounds[0].Boards)+1))
			}
		}
	})
}
