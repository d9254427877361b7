package pairing

import (
	"fmt"
	"slices"
)

// PlaceResult is a 本戦 slot and who fills it ("" while undecided, or
// when every player who could have reached it was a bye).
type PlaceResult struct {
	Slot   string `json:"slot"`
	Player string `json:"player"`
}

// GroupOutcome is where a group's players end. Every member of the group is
// in exactly one of Promoted, Relegated, Stays and Undecided; Undecided is
// empty once Finished, and Stays empty before.
type GroupOutcome struct {
	Group     int           `json:"group"`
	Places    []PlaceResult `json:"places"`
	Promoted  []string      `json:"promoted"`
	Relegated []string      `json:"relegated"`
	Stays     []string      `json:"stays"`
	Undecided []string      `json:"undecided"`
	Finished  bool          `json:"finished"`
}

// TermMove is one player's place in the next term: From 0 for a new
// entrant, else the group of this term.
type TermMove struct {
	Player string `json:"player"`
	From   int    `json:"from"`
	To     int    `json:"to"`
}

// NextTerm carries finished groups' outcomes to the next term (D-G5): a promoted
// player one group up, a relegated one one group down, the rest where they
// are, and the new entrants into the lowest group. Groups are listed from
// the top; the result holds each next-term group's members (relegated from
// above first, then those who stay, those promoted from below and the new
// entrants, each in the order given) and every player's move.
func NextTerm(outcomes []GroupOutcome, newEntrants []string) ([][]string, []TermMove, error) {
	n := len(outcomes)
	if n == 0 {
		return nil, nil, fieldErr("groups", "no groups")
	}
	seen := map[string]int{}
	for i, o := range outcomes {
		if o.Group != i+1 {
			return nil, nil, codedErr(FieldRankingGroups, map[string]any{"Group": o.Group, "Want": i + 1},
				fmt.Sprintf("groups[%d].group", i), "group %d where group %d belongs", o.Group, i+1)
		}
		if !o.Finished || len(o.Undecided) > 0 {
			return nil, nil, codedErr(FieldRankingUnfinish, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d]", i), "group %d has not finished", o.Group)
		}
		if i == 0 && len(o.Promoted) > 0 {
			return nil, nil, codedErr(FieldRankingTopUp, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d].promoted", i), "group %d is the top group: nobody can be promoted from it", o.Group)
		}
		if i == n-1 && len(o.Relegated) > 0 {
			return nil, nil, codedErr(FieldRankingBottom, map[string]any{"Group": o.Group},
				fmt.Sprintf("groups[%d].relegated", i), "group %d is the lowest group: nobody can be relegated from it", o.Group)
		}
		for _, list := range [][]string{o.Promoted, o.Relegated, o.Stays} {
			for _, id := range list {
				if _, dup := seen[id]; dup || id == "" {
					return nil, nil, codedErr(FieldRankingMember, map[string]any{"Player": id},
						fmt.Sprintf("groups[%d]", i), "%q is in two groups", id)
				}
				seen[id] = o.Group
			}
		}
	}
	for i, id := range newEntrants {
		if _, dup := seen[id]; dup || id == "" {
			return nil, nil, codedErr(FieldRankingMember, map[string]any{"Player": id},
				fmt.Sprintf("new_entrants[%d]", i), "%q is already in a group", id)
		}
		seen[id] = 0
	}
	groups := make([][]string, n)
	var moves []TermMove
	add := func(id string, from, to int) {
		groups[to-1] = append(groups[to-1], id)
		moves = append(moves, TermMove{Player: id, From: from, To: to})
	}
	for i := range outcomes {
		if i > 0 {
			for _, id := range outcomes[i-1].Relegated {
				add(id, i, i+1)
			}
		}
		for _, id := range outcomes[i].Stays {
			add(id, i+1, i+1)
		}
		if i+1 < n {
			for _, id := range outcomes[i+1].Promoted {
				add(id, i+2, i+1)
			}
		}
	}
	for _, id := range newEntrants {
		add(id, 0, n)
	}
	return groups, moves, nil
}

// MainSeat is the organiser's line for one 本戦 slot (D-G4): the seed it
// takes in the 本戦's draw and the round it enters there (0 or 1: round 1).
type MainSeat struct {
	Slot       string `json:"slot"`
	Seed       int    `json:"seed"`
	EnterRound int    `json:"enter_round,omitempty"`
}

// MainEventEntrants seeds the groups' places into the 本戦 (D-G4): every
// place of every group takes the seat its slot names, as an Entrant ready
// for Draw (whose own checks judge the seeds and entry rounds), in seed
// order. Every place must be decided and every seat filled.
func MainEventEntrants(outcomes []GroupOutcome, seats []MainSeat) ([]Entrant, error) {
	seat := map[string]MainSeat{}
	for i, s := range seats {
		if _, dup := seat[s.Slot]; dup || s.Slot == "" {
			return nil, codedErr(FieldRankingSeatTwice, map[string]any{"Slot": s.Slot},
				fmt.Sprintf("main_event[%d].slot", i), "本戦 slot %q is empty or named twice", s.Slot)
		}
		seat[s.Slot] = s
	}
	var out []Entrant
	filled := map[string]bool{}
	for i, o := range outcomes {
		for j, p := range o.Places {
			s, ok := seat[p.Slot]
			if !ok {
				return nil, codedErr(FieldRankingSeat, map[string]any{"Slot": p.Slot},
					fmt.Sprintf("groups[%d].places[%d]", i, j), "本戦 slot %q has no seat in the 本戦 table", p.Slot)
			}
			if p.Player == "" {
				return nil, codedErr(FieldRankingUnfinish, map[string]any{"Group": o.Group},
					fmt.Sprintf("groups[%d].places[%d]", i, j), "本戦 slot %q is not decided yet", p.Slot)
			}
			filled[p.Slot] = true
			out = append(out, Entrant{ID: p.Player, Seed: s.Seed, EnterRound: s.EnterRound})
		}
	}
	for i, s := range seats {
		if !filled[s.Slot] {
			return nil, codedErr(FieldRankingSeat, map[string]any{"Slot": s.Slot},
				fmt.Sprintf("main_event[%d].slot", i), "no group fills 本戦 slot %q", s.Slot)
		}
	}
	slices.SortStableFunc(out, func(a, b Entrant) int { return a.Seed - b.Seed })
	return out, nil
}
