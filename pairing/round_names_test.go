package pairing

import (
	"fmt"
	"testing"
)

// TestNameRound_ByDistanceFromTheEnd names every round of stages of one to
// six rounds (2 … 64 places): the last three by distance from the end,
// the rest by number (issue 24 item 3).
func TestNameRound_ByDistanceFromTheEnd(t *testing.T) {
	t.Parallel()
	cases := map[int][]RoundName{
		1: {{Kind: RoundFinal}},
		2: {{Kind: RoundSemiFinal}, {Kind: RoundFinal}},
		3: {{Kind: RoundQuarterFinal}, {Kind: RoundSemiFinal}, {Kind: RoundFinal}},
		4: {{Kind: RoundNumbered, N: 1}, {Kind: RoundQuarterFinal}, {Kind: RoundSemiFinal}, {Kind: RoundFinal}},
		6: {{Kind: RoundNumbered, N: 1}, {Kind: RoundNumbered, N: 2}, {Kind: RoundNumbered, N: 3}, {Kind: RoundQuarterFinal}, {Kind: RoundSemiFinal}, {Kind: RoundFinal}},
	}
	for rounds, want := range cases {
		for q := range 2 { // 0: to a champion; 1: the one winner goes on — the same names
			for r := 1; r <= rounds; r++ {
				if got := NameRound(r, rounds, q); got != want[r-1] {
					t.Errorf("rounds %d, qualifiers %d, round %d: got %+v, want %+v", rounds, q, r, got, want[r-1])
				}
			}
		}
	}
}

// TestNameRound_StageSendingSeveralOn: a stage cut at 4 or 8 players has no
// final, so no 準決勝 either; its last round is the 予選決勝.
func TestNameRound_StageSendingSeveralOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ rounds, q int }{{2, 4}, {3, 4}, {4, 8}, {1, 2}} {
		for r := 1; r <= tc.rounds; r++ {
			got := NameRound(r, tc.rounds, tc.q)
			want := RoundName{Kind: RoundNumbered, N: r}
			if r == tc.rounds {
				want = RoundName{Kind: RoundQualifyingLast}
			}
			if got != want {
				t.Errorf("%d rounds, %d qualifiers, round %d: got %+v, want %+v", tc.rounds, tc.q, r, got, want)
			}
		}
	}
}

// TestNameRound_WithThirdPlace: a third-place game changes no round's name
// (the semi-final losers play it beside the final); it is named itself.
func TestNameRound_WithThirdPlace(t *testing.T) {
	t.Parallel()
	// The third-place game is played by the losers of the round NameRound
	// calls the semi-final, in every stage of two or more rounds.
	for rounds := 2; rounds <= 7; rounds++ {
		if got := NameRound(rounds-1, rounds, 0); got.Kind != RoundSemiFinal {
			t.Errorf("%d rounds: the round before the final is %+v", rounds, got)
		}
	}
	if got := ThirdPlaceRound(); got.Kind != RoundThirdPlace || got.N != 0 {
		t.Errorf("third place: %+v", got)
	}
	if got := NameRound(0, 3, 0); got != (RoundName{Kind: RoundNumbered, N: 0}) {
		t.Errorf("out of range: %s", fmt.Sprint(got))
	}
}
