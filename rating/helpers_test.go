package rating

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// day is midnight JST of a date, the way events record game days.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, jst) }

// win is a confirmed, decided game won by winner against loser (winner sente).
func win(id string, date time.Time, winner, loser string) Game {
	return Game{ID: id, EventID: "e1", Date: date, Sente: winner, Gote: loser, Outcome: SenteWin, Confirmed: true}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

func mustRating(t *testing.T, st *State, id string) Rating {
	t.Helper()
	r, ok := st.Rating(id)
	if !ok {
		t.Fatalf("no rating for %q", id)
	}
	return r
}

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%04d", i)
	}
	return out
}

func nan() float64 { return math.NaN() }
