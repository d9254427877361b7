package rating

import (
	"errors"
	"testing"
)

func TestHeadToHead_CountsFromResults(t *testing.T) {
	t.Parallel()
	d := day(2026, 3, 1)
	games := []Game{
		win("g1", d, "a", "b"),
		win("g2", d.AddDate(0, 1, 0), "b", "a"),
		{ID: "g3", Date: d.AddDate(0, 2, 0), Sente: "b", Gote: "a", Outcome: GoteWin, Confirmed: true},
		// 千日手 then its redo on the same day: one game, one no-result (D-R3).
		{ID: "g4", Date: d.AddDate(0, 3, 0), Sente: "a", Gote: "b", Outcome: Sennichite, Confirmed: true},
		{ID: "g5", Date: d.AddDate(0, 3, 0), Sente: "b", Gote: "a", Outcome: SenteWin, Confirmed: true, RedoOf: "g4"},
		// Handicap counts (they met); forfeits and unconfirmed do not.
		{ID: "g6", Date: d.AddDate(0, 4, 0), Sente: "a", Gote: "b", Outcome: SenteWin, Confirmed: true, Handicap: true},
		{ID: "g7", Date: d.AddDate(0, 5, 0), Sente: "a", Gote: "b", Outcome: SenteWin, Confirmed: true, Forfeit: true},
		{ID: "g8", Date: d.AddDate(0, 6, 0), Sente: "a", Gote: "b", Outcome: GoteWin},
		// Other pairs are ignored.
		win("g9", d.AddDate(1, 0, 0), "a", "c"),
	}
	h, err := HeadToHeadOf("a", "b", games)
	if err != nil {
		t.Fatal(err)
	}
	want := HeadToHead{A: "a", B: "b", Games: 5, WinsA: 3, WinsB: 2, NoResults: 1, LastMet: d.AddDate(0, 4, 0), LastGame: "g6"}
	if h != want {
		t.Errorf("got %+v\nwant %+v", h, want)
	}
	// The same record seen from b.
	hb, err := HeadToHeadOf("b", "a", games)
	if err != nil {
		t.Fatal(err)
	}
	if hb.WinsA != want.WinsB || hb.WinsB != want.WinsA || hb.Games != want.Games || hb.LastGame != want.LastGame {
		t.Errorf("from b: %+v", hb)
	}
	// Never met.
	if h, err := HeadToHeadOf("b", "c", games); err != nil || h.Games != 0 || !h.LastMet.IsZero() {
		t.Errorf("b–c: %+v, %v; want an empty record", h, err)
	}
}

func TestHeadToHead_RejectsBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b string }{{"a", "a"}, {"", "b"}, {"a", ""}} {
		if _, err := HeadToHeadOf(tc.a, tc.b, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q v %q: err = %v, want ErrInvalid", tc.a, tc.b, err)
		}
	}
	bad := []Game{{ID: "x", Sente: "a", Gote: "b", Outcome: "draw", Confirmed: true}}
	if _, err := HeadToHeadOf("a", "b", bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown outcome: err = %v, want ErrInvalid", err)
	}
}
