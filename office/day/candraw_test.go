package day_test

import (
	"testing"

	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// A pools class offers the next draw while someone is still playing and
// no draw once the preliminary is over (the draw would only refuse it);
// a Swiss class offers none after its last round.
func TestDay_FinishedPreliminaryOffersNoDraw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatPools))
		f.present(12, "初段", c.ID)
		canDraw := func() bool {
			t.Helper()
			v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			return v.CanDraw() && !v.PreliminaryOver()
		}
		if !canDraw() {
			t.Fatal("no draw offered before round 1")
		}
		f.drawRound(c.ID, 1)
		if canDraw() {
			t.Fatal("a draw offered while round 1 is open")
		}
		f.finishRound(c.ID)
		if !canDraw() {
			t.Fatal("no draw offered after round 1 of 2勝通過2敗失格")
		}
		f.playPools(c.ID)
		if canDraw() {
			t.Fatal("a draw offered after the preliminary is over")
		}
		if _, err := f.d.PreviewRound(f.ctx, f.admin, c.ID, 9); fieldCodes(err)["round"] != "day.err.finished" {
			t.Fatalf("preview after the end: %v", err)
		}
	})
}
