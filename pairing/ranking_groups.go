package pairing

import (
	"fmt"
	"math/bits"
)

// Ranking groups (組, the 竜王戦 format; docs/ranking-groups.md).
//
// The seeds say nothing about this format: what is implemented is the
// publicly known shape, every count an organiser setting (GroupRule). Each
// group plays a knockout (ランキング戦) drawn like any other bracket. Around
// it the organiser may set
//
//   - a 昇級者決定戦 (in the top group called 出場者決定戦): a losers'
//     bracket in which the losers of main rounds FromRound…ToRound meet, the
//     losers of a later round entering deeper, so that every loser has met
//     the same number of games' worth of opposition (PlayoffRule);
//   - a 残留決定戦: the losers of one main round (usually the first) play
//     on among themselves, the loser going on each time, until as many
//     players as the organiser relegates are left (SurvivalRule);
//   - the places to the 本戦, each a finish (ランキング戦優勝, 準優勝, a
//     決定戦 winner …) and the 本戦 slot it fills (e.g. 「1組1位」);
//   - the finishes that are promoted (昇級) to the group above.
//
// Everything else stays (残留). NextTerm carries the promotions and
// relegations to the next term's groups.
//
// The rule ids (written down in docs/ranking-groups.md in DOMAIN's manner,
// beyond the seeds): D-G1 the organiser's table, D-G2 the 決定戦, D-G3 the
// 残留決定戦, D-G4 the outcome and the 本戦 slots, D-G5 the next term.

// FinishSource names where a place or a promotion comes from.
type FinishSource string

const (
	FinishWinner          FinishSource = "winner"            // ランキング戦優勝
	FinishRunnerUp        FinishSource = "runner_up"         // ランキング戦準優勝 (the final's loser)
	FinishPlayoffWinner   FinishSource = "playoff_winner"    // a winner of the 決定戦 (Index 1…Winners, in bracket order)
	FinishPlayoffRunnerUp FinishSource = "playoff_runner_up" // the loser of the 決定戦's final (Winners 1)
	FinishPlayoffThird    FinishSource = "playoff_third"     // the winner of the 決定戦's third-place game
)

// Finish is one finish of a group: Index counts the 決定戦's winners from 1
// (only for FinishPlayoffWinner).
type Finish struct {
	Source FinishSource `json:"source"`
	Index  int          `json:"index,omitempty"`
}

// GroupPlace is a finish that goes to the 本戦, at the slot the
// organiser's table names (e.g. 「1組1位」).
type GroupPlace struct {
	Finish
	Slot string `json:"slot"`
}

// PlayoffRule is the 昇級者決定戦 / 出場者決定戦: the losers of main rounds
// FromRound…ToRound (ToRound before the final) enter; the losers of
// FromRound pair off in bracket order, and the losers of each later round
// meet the survivors after one more game among the survivors, in reverse
// bracket order (D-G2). So the 決定戦's first round and the first round
// the next losers enter never repeat a game of the ランキング戦; later
// rounds can, as in any fixed losers' bracket. The games go on until
// Winners players are left; with Winners 1 the losers of the
// last-but-one round may play for third.
type PlayoffRule struct {
	FromRound  int  `json:"from_round"`
	ToRound    int  `json:"to_round"`
	Winners    int  `json:"winners"`
	ThirdPlace bool `json:"third_place,omitempty"`
}

// SurvivalRule is the 残留決定戦: the losers of main round Round play in
// bracket order; a winner stays, a loser plays again, until Relegated
// players are left, who are relegated (降級).
type SurvivalRule struct {
	Round     int `json:"round"`
	Relegated int `json:"relegated"`
}

// GroupRule is the organiser's line of the table for group Group (1 is the
// top group).
type GroupRule struct {
	Group    int           `json:"group"`
	Places   []GroupPlace  `json:"places"`
	Promoted []Finish      `json:"promoted"`
	Playoff  *PlayoffRule  `json:"playoff,omitempty"`
	Survival *SurvivalRule `json:"survival,omitempty"`
}

// ValidateRankingTable checks the organiser's table (D-G1): groups 1…N, each
// rule fitting its bracket size (sizes[i] for rules[i]), the top group
// promoting nobody, the lowest relegating nobody, and every 本戦 slot named
// once.
func ValidateRankingTable(rules []GroupRule, sizes []int) error {
	if len(sizes) != len(rules) {
		return fieldErr("sizes", "%d sizes for %d groups", len(sizes), len(rules))
	}
	slots := map[string]int{}
	for i, r := range rules {
		if r.Group != i+1 {
			return codedErr(FieldRankingGroups, map[string]any{"Group": r.Group, "Want": i + 1},
				fmt.Sprintf("groups[%d].group", i), "group %d where group %d belongs; number the groups 1…N from the top", r.Group, i+1)
		}
		if err := validateGroupRule(r, sizes[i], fmt.Sprintf("groups[%d]", i)); err != nil {
			return err
		}
		if i == 0 && len(r.Promoted) > 0 {
			return codedErr(FieldRankingTopUp, map[string]any{"Group": r.Group},
				fmt.Sprintf("groups[%d].promoted", i), "group %d is the top group: nobody can be promoted from it", r.Group)
		}
		if i == len(rules)-1 && r.Survival != nil {
			return codedErr(FieldRankingBottom, map[string]any{"Group": r.Group},
				fmt.Sprintf("groups[%d].survival", i), "group %d is the lowest group: nobody can be relegated from it", r.Group)
		}
		for j, p := range r.Places {
			if prev, dup := slots[p.Slot]; dup {
				return codedErr(FieldRankingSlot, map[string]any{"Group": r.Group, "Slot": p.Slot},
					fmt.Sprintf("groups[%d].places[%d].slot", i, j), "本戦 slot %q is already filled from group %d", p.Slot, prev)
			}
			slots[p.Slot] = r.Group
		}
	}
	return nil
}

// validateGroupRule checks one rule against a bracket of size lines.
func validateGroupRule(r GroupRule, size int, at string) error {
	g := r.Group
	if size < 2 || size&(size-1) != 0 {
		return codedErr(FieldRankingSize, map[string]any{"Group": g, "Count": size},
			at+".slots", "%d lines is not a bracket of 2, 4, 8 … lines", size)
	}
	rounds := bits.TrailingZeros(uint(size))
	if p := r.Playoff; p != nil {
		if p.FromRound < 1 || p.ToRound < p.FromRound || p.ToRound >= rounds {
			return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
				at+".playoff", "rounds %d…%d: the losers who enter must come from rounds 1…%d, before the final", p.FromRound, p.ToRound, rounds-1)
		}
		left := size >> p.ToRound
		if p.Winners < 1 || p.Winners&(p.Winners-1) != 0 || p.Winners > left ||
			(p.FromRound == p.ToRound && p.Winners == left) {
			return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
				at+".playoff.winners", "%d winners: want 1, 2, 4 … below the %d players left after the last losers enter", p.Winners, left)
		}
		if p.ThirdPlace {
			sh := playoffShape(size, *p)
			if p.Winners != 1 || len(sh.rounds) < 2 || len(sh.rounds[len(sh.rounds)-2]) != 2 {
				return codedErr(FieldRankingPlayoff, map[string]any{"Group": g, "Rounds": rounds},
					at+".playoff.third_place", "a third-place game needs a 決定戦 that ends in one final after two semi-finals")
			}
		}
	}
	if s := r.Survival; s != nil {
		if s.Round < 1 || s.Round >= rounds {
			return codedErr(FieldRankingSurvival, map[string]any{"Group": g, "Rounds": rounds, "Entrants": 0},
				at+".survival.round", "round %d: the losers who play it must come from rounds 1…%d, before the final", s.Round, rounds-1)
		}
		n := size >> s.Round
		if s.Relegated < 1 || s.Relegated&(s.Relegated-1) != 0 || s.Relegated >= n {
			return codedErr(FieldRankingSurvival, map[string]any{"Group": g, "Rounds": rounds, "Entrants": n},
				at+".survival.relegated", "%d relegated: want 1, 2, 4 … below the %d losers of round %d", s.Relegated, n, s.Round)
		}
		if p := r.Playoff; p != nil && s.Round >= p.FromRound && s.Round <= p.ToRound {
			return codedErr(FieldRankingOverlap, map[string]any{"Group": g, "Round": s.Round},
				at+".survival.round", "the losers of round %d already enter the 決定戦", s.Round)
		}
	}
	has := func(f Finish) bool {
		switch f.Source {
		case FinishWinner, FinishRunnerUp:
			return f.Index == 0
		case FinishPlayoffWinner:
			return r.Playoff != nil && f.Index >= 1 && f.Index <= r.Playoff.Winners
		case FinishPlayoffRunnerUp:
			return r.Playoff != nil && r.Playoff.Winners == 1 && f.Index == 0
		case FinishPlayoffThird:
			return r.Playoff != nil && r.Playoff.ThirdPlace && f.Index == 0
		}
		return false
	}
	check := func(list []Finish, field string) error {
		seen := map[Finish]bool{}
		for j, f := range list {
			if !has(f) {
				return codedErr(FieldRankingFinish, map[string]any{"Group": g},
					fmt.Sprintf("%s.%s[%d]", at, field, j), "group %d has no finish %s %d", g, f.Source, f.Index)
			}
			if seen[f] {
				return codedErr(FieldRankingTwice, map[string]any{"Group": g},
					fmt.Sprintf("%s.%s[%d]", at, field, j), "finish %s %d listed twice", f.Source, f.Index)
			}
			seen[f] = true
		}
		return nil
	}
	places := make([]Finish, len(r.Places))
	for j, p := range r.Places {
		if p.Slot == "" {
			return codedErr(FieldRankingSlot, map[string]any{"Group": g, "Slot": ""},
				fmt.Sprintf("%s.places[%d].slot", at, j), "a place to the 本戦 needs the slot it fills")
		}
		places[j] = p.Finish
	}
	if err := check(places, "places"); err != nil {
		return err
	}
	return check(r.Promoted, "promoted")
}
