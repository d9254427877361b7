package league

import (
	"errors"
	"testing"
)

// A four-way tie in 順位 order p1..p4: p3–p4 first, the winner meets p2,
// then p1 (DOMAIN.md: A class, stepladder in 順位 order).
func TestPlayoffProgress_StepladderOneGameAtATime(t *testing.T) {
	t.Parallel()
	games, err := Stepladder([]string{"p1", "p2", "p3", "p4"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		winners []string
		want    PlayoffState
	}{
		{nil, PlayoffState{Next: 1, Higher: "p3", Lower: "p4"}},
		{[]string{""}, PlayoffState{Next: 1, Higher: "p3", Lower: "p4"}},
		{[]string{"p4"}, PlayoffState{Next: 2, Higher: "p2", Lower: "p4"}},
		{[]string{"p3"}, PlayoffState{Next: 2, Higher: "p2", Lower: "p3"}},
		{[]string{"p4", "p4"}, PlayoffState{Next: 3, Higher: "p1", Lower: "p4"}},
		{[]string{"p4", "p2", ""}, PlayoffState{Next: 3, Higher: "p1", Lower: "p2"}},
		{[]string{"p4", "p2", "p1"}, PlayoffState{Challenger: "p1"}},
		{[]string{"p4", "p4", "p4"}, PlayoffState{Challenger: "p4"}},
	}
	for _, tc := range cases {
		got, err := PlayoffProgress(games, tc.winners)
		if err != nil || got != tc.want {
			t.Errorf("winners %v: %+v %v, want %+v", tc.winners, got, err, tc.want)
		}
	}
	for name, w := range map[string][]string{
		"winner who did not play":  {"p1"},
		"later game decided first": {"", "p2"},
		"too many winners":         {"p4", "p4", "p4", "p4"},
		"second game wrong player": {"p4", "p3"},
	} {
		if _, err := PlayoffProgress(games, w); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTable_SettlePlayoffMarksTheChallenger(t *testing.T) {
	t.Parallel()
	tab := Table{Rows: []Row{{ID: "a", Outcome: OutcomePlayoff}, {ID: "b", Outcome: OutcomePlayoff}, {ID: "c", Outcome: OutcomeDemoted}}, Playoff: []string{"a", "b"}}
	if err := tab.SettlePlayoff("z"); !errors.Is(err, ErrInvalid) {
		t.Errorf("outsider: %v", err)
	}
	if err := tab.SettlePlayoff("b"); err != nil {
		t.Fatal(err)
	}
	if tab.Playoff != nil {
		t.Errorf("playoff still open: %v", tab.Playoff)
	}
	want := map[string]Outcome{"a": OutcomeStays, "b": OutcomeChallenger, "c": OutcomeDemoted}
	for _, r := range tab.Rows {
		if r.Outcome != want[r.ID] {
			t.Errorf("%s: %s, want %s", r.ID, r.Outcome, want[r.ID])
		}
	}
}
