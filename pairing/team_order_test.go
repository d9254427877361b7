package pairing

import (
	"slices"
	"testing"
)

// roster of four regulars and a reserve: positions 1…5, ranks 四段, 三段,
// 三段, 初段, 二段 (the reserve).
func teamRoster() []TeamRosterMember {
	steps := []int{4, 3, 3, 1, 2}
	var out []TeamRosterMember
	for i, s := range steps {
		out = append(out, TeamRosterMember{PlayerID: int64(101 + i), Position: i + 1, Rank: Dan(s), HasRank: true})
	}
	return out
}

func kinds(c TeamOrderCheck) []string {
	var out []string
	for _, b := range c.Breaches {
		out = append(out, b.Kind)
	}
	return out
}

// Issue 25 item 2: the free rule takes any roster players on any boards.
func TestTeamOrder_Issue25_FreeRuleAnyOrder(t *testing.T) {
	t.Parallel()
	c := CheckTeamOrder(TeamOrderFree, 3, teamRoster(), []int64{104, 101, 105})
	if !c.OK() || c.Players != 3 || len(c.ForfeitBoards) != 0 || c.ShortOfMajority {
		t.Fatalf("free order refused or miscounted: %+v", c)
	}
}

// Issue 25 item 2: by rank, a weaker player above a stronger one is a
// breach naming both boards and players; equal ranks are free.
func TestTeamOrder_Issue25_ByRankStrongerHigher(t *testing.T) {
	t.Parallel()
	r := teamRoster()
	// 三段 (102) and 三段 (103) swapped: equal ranks, free.
	if c := CheckTeamOrder(TeamOrderByRank, 3, r, []int64{101, 103, 102}); !c.OK() {
		t.Fatalf("equal ranks refused: %+v", c.Breaches)
	}
	// 初段 (104) on board 1 above 四段 (101) on board 2 and 三段 on board 3.
	c := CheckTeamOrder(TeamOrderByRank, 3, r, []int64{104, 101, 102})
	want := []TeamOrderBreach{
		{Kind: TeamBreachRank, Board: 1, Other: 2, PlayerID: 104, OtherID: 101},
		{Kind: TeamBreachRank, Board: 1, Other: 3, PlayerID: 104, OtherID: 102},
	} // 四段 on board 2 over 三段 on board 3 is no breach
	if !slices.Equal(c.Breaches, want) {
		t.Fatalf("breaches %+v, want %+v", c.Breaches, want)
	}
	// A player without a rank is free against everyone.
	r[3].HasRank = false
	if c := CheckTeamOrder(TeamOrderByRank, 3, r, []int64{104, 101, 102}); !c.OK() {
		t.Fatalf("unranked player refused: %+v", c.Breaches)
	}
}

// Issue 25 item 2: a fixed order keeps the registration order; a reserve
// coming in takes his registered place below those registered before him.
func TestTeamOrder_Issue25_FixedKeepsRegisteredOrder(t *testing.T) {
	t.Parallel()
	r := teamRoster()
	if c := CheckTeamOrder(TeamOrderFixed, 3, r, []int64{101, 103, 105}); !c.OK() {
		t.Fatalf("registered order refused: %+v", c.Breaches)
	}
	c := CheckTeamOrder(TeamOrderFixed, 3, r, []int64{105, 101, 102})
	if got := kinds(c); !slices.Equal(got, []string{TeamBreachFixed, TeamBreachFixed}) || c.Breaches[0].Board != 1 || c.Breaches[1].Other != 3 {
		t.Fatalf("reserve above regulars: %+v", c.Breaches)
	}
}

// Issue 25 item 2: an empty board is a forfeit; fewer players than a
// majority of the boards is reported; other players and duplicates refused.
func TestTeamOrder_Issue25_ForfeitsMajorityAndStrangers(t *testing.T) {
	t.Parallel()
	r := teamRoster()
	c := CheckTeamOrder(TeamOrderFree, 5, r, []int64{101, 0, 102})
	if !c.OK() || !slices.Equal(c.ForfeitBoards, []int{2, 4, 5}) || c.Players != 2 || !c.ShortOfMajority {
		t.Fatalf("forfeits: %+v", c)
	}
	if c := CheckTeamOrder(TeamOrderFree, 5, r, []int64{101, 0, 102, 103}); c.ShortOfMajority {
		t.Fatalf("three of five is a majority: %+v", c)
	}
	c = CheckTeamOrder(TeamOrderFree, 3, r, []int64{101, 999, 101, 102})
	if got := kinds(c); !slices.Equal(got, []string{TeamBreachTwice, TeamBreachNotOnRoster, TeamBreachTooManyBoards}) {
		t.Fatalf("breaches %+v", c.Breaches)
	}
	for boards, want := range map[int]int{1: 1, 2: 2, 3: 2, 5: 3, 7: 4} {
		if got := TeamOrderMajority(boards); got != want {
			t.Errorf("majority of %d = %d, want %d", boards, got, want)
		}
	}
}

// FuzzTeamOrder: whatever the order, the check never panics, every
// breach names boards within the order, forfeits and players add up.
func FuzzTeamOrder(f *testing.F) {
	f.Add(uint8(3), []byte{1, 2, 3})
	f.Add(uint8(5), []byte{5, 0, 1, 1, 9})
	f.Fuzz(func(t *testing.T, boards uint8, raw []byte) {
		n := int(boards%15) + 1
		order := make([]int64, len(raw))
		for i, b := range raw {
			if b%7 != 0 {
				order[i] = 100 + int64(b%8)
			}
		}
		for _, rule := range TeamOrderRules {
			c := CheckTeamOrder(rule, n, teamRoster(), order)
			if c.Players+len(c.ForfeitBoards) != n {
				t.Fatalf("%s: players %d + forfeits %d != boards %d", rule, c.Players, len(c.ForfeitBoards), n)
			}
			for _, b := range c.Breaches {
				if b.Board < 1 || b.Board > len(order) || b.Other > len(order) {
					t.Fatalf("%s: breach outside the order: %+v", rule, b)
				}
			}
		}
	})
}
