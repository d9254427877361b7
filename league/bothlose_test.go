package league

import (
	"errors"
	"testing"
)

// A both_lose game (neither player came) is decided: a loss for each side,
// a win for nobody, and it no longer keeps the table provisional.
func TestStandings_BothLoseCountsALossForEach(t *testing.T) {
	t.Parallel()
	s := sched(
		[]Game{{Sente: "a", Gote: "b"}},
		[]Game{{Sente: "b", Gote: "c"}},
		[]Game{{Sente: "c", Gote: "a"}},
	)
	cases := []struct {
		name      string
		results   []Result
		wins      map[string]int
		losses    map[string]int
		final     bool
		unplayedB int
	}{
		{"both lose and two wins", []Result{
			{Round: 1, Sente: "a", Gote: "b", BothLose: true},
			{Round: 2, Sente: "b", Gote: "c", Winner: "b"},
			{Round: 3, Sente: "c", Gote: "a", Winner: "c"},
		}, map[string]int{"a": 0, "b": 1, "c": 1}, map[string]int{"a": 2, "b": 1, "c": 1}, true, 0},
		{"after a 千日手 redo", []Result{
			{Round: 1, Sente: "a", Gote: "b"},
			{Round: 1, Sente: "b", Gote: "a", BothLose: true},
		}, map[string]int{"a": 0, "b": 0, "c": 0}, map[string]int{"a": 1, "b": 1, "c": 0}, false, 1},
	}
	for _, tc := range cases {
		tab, err := Standings(Term{Class: ClassB1, Players: []string{"a", "b", "c"}, Schedule: s, Results: tc.results})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, r := range tab.Rows {
			if r.Wins != tc.wins[r.ID] || r.Losses != tc.losses[r.ID] {
				t.Errorf("%s: %s has %d–%d, want %d–%d", tc.name, r.ID, r.Wins, r.Losses, tc.wins[r.ID], tc.losses[r.ID])
			}
			if r.ID == "b" && r.Unplayed != tc.unplayedB {
				t.Errorf("%s: b unplayed %d, want %d", tc.name, r.Unplayed, tc.unplayedB)
			}
		}
		if tab.Final != tc.final {
			t.Errorf("%s: final %v, want %v", tc.name, tab.Final, tc.final)
		}
	}
}

func TestStandings_BothLoseRejectsContradictions(t *testing.T) {
	t.Parallel()
	s := sched([]Game{{Sente: "a", Gote: "b"}})
	for name, rs := range map[string][]Result{
		"both lose with a winner": {{Round: 1, Sente: "a", Gote: "b", Winner: "a", BothLose: true}},
		"decided twice":           {{Round: 1, Sente: "a", Gote: "b", Winner: "a"}, {Round: 1, Sente: "b", Gote: "a", BothLose: true}},
		"both lose twice":         {{Round: 1, Sente: "a", Gote: "b", BothLose: true}, {Round: 1, Sente: "a", Gote: "b", BothLose: true}},
	} {
		if _, err := Standings(Term{Class: ClassB1, Players: []string{"a", "b"}, Schedule: s, Results: rs}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err %v, want ErrInvalid", name, err)
		}
	}
}
