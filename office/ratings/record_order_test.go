package ratings

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"kisen/store"
)

// newestFirst, moving lines in place along the sort's cycles (issue 12),
// gives the order a plain sort of a copy gives: newest first, ties by game
// id, for records with many games on one day and games with no day.
func TestNewestFirst_InPlaceEqualsASortedCopy(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(12, 3))
	for _, n := range []int{0, 1, 2, 3, 10, 100, 1000} {
		lines := make([]recordLine, n)
		for i := range lines {
			lines[i] = recordLine{Game: store.Game{ID: int64(rng.IntN(3*n + 1))}, Result: "r"}
			if rng.IntN(5) > 0 {
				lines[i].PlayedAt = time.Date(2026, 1, 1+rng.IntN(max(n/4, 1)), 0, 0, 0, 0, time.UTC)
			}
		}
		want := slices.Clone(lines)
		slices.SortStableFunc(want, func(a, b recordLine) int {
			return cmp.Or(b.PlayedAt.Compare(a.PlayedAt), cmp.Compare(b.Game.ID, a.Game.ID))
		})
		got := newestFirst(lines)
		if len(got) != n {
			t.Fatalf("%d lines: %d after sorting", n, len(got))
		}
		for i := range want {
			if got[i].Game.ID != want[i].Game.ID || !got[i].PlayedAt.Equal(want[i].PlayedAt) {
				t.Fatalf("%d lines, line %d: game %d at %v, want game %d at %v", n, i, got[i].Game.ID, got[i].PlayedAt, want[i].Game.ID, want[i].PlayedAt)
			}
		}
	}
}
