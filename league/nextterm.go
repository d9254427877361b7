package league

import (
	"fmt"
	"slices"
)

// Group says why a player is where they are in next term's 順位.
type Group string

const (
	GroupDemotedFromAbove  Group = "demoted_from_above"
	GroupStayed            Group = "stayed"
	GroupPromotedFromBelow Group = "promoted_from_below"
	GroupStayedWithPoint   Group = "stayed_with_point" // got a 降級点 this term
)

// NextPlayer is one player of next term's class.
type NextPlayer struct {
	ID     string `json:"id"`
	Group  Group  `json:"group"`
	Points int    `json:"points"` // 降級点 carried into the term
}

// NextOrder gives next term's 順位 of a class (DOMAIN.md, "Next term's
// 順位 within a class"): those demoted from the class above, then this
// class's stayers without a new 降級点, then those promoted from the class
// below, then stayers who got one; inside each group by this term's record
// (more wins, then fewer losses), then this term's 順位. above and below
// are the neighbouring classes' final tables, nil at either end (C2's
// demoted leave the 順位戦 for フリークラス).
func NextOrder(this Table, above, below *Table) ([]NextPlayer, error) {
	if !this.Final || (above != nil && !above.Final) || (below != nil && !below.Final) {
		return nil, fmt.Errorf("%w: next term needs final tables: games are still unplayed", ErrInvalid)
	}
	if len(this.Playoff) > 0 {
		return nil, fmt.Errorf("%w: class %s: the playoff among %v must be decided first", ErrInvalid, this.Class, this.Playoff)
	}
	var groups [4][]Row
	if above != nil {
		for _, r := range above.Rows {
			if r.Outcome == OutcomeDemoted {
				groups[0] = append(groups[0], r)
			}
		}
	}
	for _, r := range this.Rows {
		switch {
		case r.Outcome == OutcomePromoted || r.Outcome == OutcomeDemoted:
		case r.NewPoint:
			groups[3] = append(groups[3], r)
		default:
			groups[1] = append(groups[1], r)
		}
	}
	if below != nil {
		for _, r := range below.Rows {
			if r.Outcome == OutcomePromoted {
				groups[2] = append(groups[2], r)
			}
		}
	}
	names := [4]Group{GroupDemotedFromAbove, GroupStayed, GroupPromotedFromBelow, GroupStayedWithPoint}
	var out []NextPlayer
	seen := map[string]bool{}
	for g, rows := range groups {
		slices.SortStableFunc(rows, func(a, b Row) int {
			if a.Wins != b.Wins {
				return b.Wins - a.Wins
			}
			if a.Losses != b.Losses {
				return a.Losses - b.Losses
			}
			return a.Junni - b.Junni
		})
		for _, r := range rows {
			if seen[r.ID] {
				return nil, fmt.Errorf("%w: %q appears in two classes", ErrInvalid, r.ID)
			}
			seen[r.ID] = true
			out = append(out, NextPlayer{ID: r.ID, Group: names[g], Points: r.Points})
		}
	}
	return out, nil
}

// NextHistory is the history next term's draw needs (D-C1, D-C2 and the
// previous-final-pair practice): this term's pairings become last term's,
// last term's become the term before. Pass every schedule the class's new
// members played in (its own and its neighbours'): pairs of players who
// end up in different classes are ignored by the draw.
func NextHistory(thisTerm []Schedule, previous [][]Pair) (terms [][]Pair, finalRound []Pair) {
	var now []Pair
	for _, s := range thisTerm {
		now = append(now, s.Pairings()...)
		finalRound = append(finalRound, s.FinalRoundPairs()...)
	}
	terms = [][]Pair{now}
	if len(previous) > 0 {
		terms = append(terms, previous[0])
	}
	return terms, finalRound
}
