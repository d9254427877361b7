package pairing

import "fmt"

// Rules a Swiss round can break. The first group are hard: CheckSwiss
// reports them as violations. The soft ones are reported as notes.
const (
	RuleSwissMissing    = "swiss-player-missing"   // an active player neither plays nor has the bye
	RuleSwissTwice      = "swiss-player-twice"     // a player in two places
	RuleSwissWithdrawn  = "swiss-withdrawn-drawn"  // a withdrawn player drawn
	RuleSwissRematch    = "swiss-rematch"          // the two have met before
	RuleSwissNever      = "swiss-never"            // a "never" relation paired
	RuleSwissByeTwice   = "swiss-bye-twice"        // a second bye for one player
	RuleSwissByeCount   = "swiss-bye-count"        // a bye in an even field, or none in an odd one
	RuleSwissByeLowest  = "swiss-bye-not-lowest"   // the bye above the lowest score that allows a round
	RuleSwissAvoid      = "swiss-avoid"            // soft: an "avoid" relation paired
	RuleSwissColour     = "swiss-colour"           // soft: sente−gote leaves ±1
	RuleSwissScoreDiffs = "swiss-score-difference" // soft: more score difference than the draw's optimum
	// Colour rules (colour-balancing classes): hard whenever a valid round
	// keeps them; a round breaking them for more players than the draw
	// must is a violation of each rule broken, otherwise a note.
	RuleSwissThirdInARow = "swiss-colour-third-in-a-row" // a third game in a row on one side
	RuleSwissBalance     = "swiss-colour-balance"        // sente−gote past ±2 before the last round, ±1 in it
)

// CheckSwiss judges round req.Round given as p (games by sente/gote, and
// the bye) against the class's history: every hard rule it breaks is a
// violation; the soft objectives are returned as notes, with the draw's
// optimum for comparison. Unknown players are bad input.
func CheckSwiss(req SwissRequest, p SwissPairing) (violations, notes []Violation, err error) {
	s, err := newSwissState(req, true)
	if err != nil {
		return nil, nil, err
	}
	seen := map[int]string{}
	place := func(field, id string) (int, bool, error) {
		i, ok := s.index[id]
		if !ok {
			return 0, false, fieldErr(field, "unknown player %q", id)
		}
		if prev, dup := seen[i]; dup {
			violations = append(violations, Violation{Rule: RuleSwissTwice, Players: []string{id},
				Message: fmt.Sprintf("%s is in %s and %s", id, prev, field)})
			return i, false, nil
		}
		seen[i] = field
		if s.players[i].Withdrawn {
			violations = append(violations, Violation{Rule: RuleSwissWithdrawn, Players: []string{id},
				Message: fmt.Sprintf("%s has withdrawn but is drawn in %s", id, field)})
		}
		return i, true, nil
	}
	for k, g := range p.Games {
		at := fmt.Sprintf("pairings[%d]", k)
		a, _, err := place(at+".sente", g.Sente)
		if err != nil {
			return nil, nil, err
		}
		b, _, err := place(at+".gote", g.Gote)
		if err != nil {
			return nil, nil, err
		}
		// Every board is judged on its own, even when a player also sits
		// on another board (reported above as swiss-player-twice).
		if a == b {
			continue
		}
		if s.met[pairKey(a, b)] {
			violations = append(violations, Violation{Rule: RuleSwissRematch, Players: []string{g.Sente, g.Gote},
				Message: fmt.Sprintf("board %d: %s and %s have met before", g.Board, g.Sente, g.Gote)})
		}
		never, _ := s.relations(a, b)
		if never {
			violations = append(violations, Violation{Rule: RuleSwissNever, Players: []string{g.Sente, g.Gote},
				Message: fmt.Sprintf("board %d: %s and %s are related and the class says never", g.Board, g.Sente, g.Gote)})
		}
	}
	act := s.active()
	if p.Bye != "" {
		i, ok, err := place("bye", p.Bye)
		if err != nil {
			return nil, nil, err
		}
		if ok && s.hadBye[i] {
			violations = append(violations, Violation{Rule: RuleSwissByeTwice, Players: []string{p.Bye},
				Message: fmt.Sprintf("%s has already had a bye", p.Bye)})
		}
	}
	if (len(act)%2 == 1) != (p.Bye != "") {
		violations = append(violations, Violation{Rule: RuleSwissByeCount,
			Message: fmt.Sprintf("%d players to draw: a bye is needed exactly when the count is odd", len(act))})
	}
	for _, i := range act {
		if _, ok := seen[i]; !ok {
			violations = append(violations, Violation{Rule: RuleSwissMissing, Players: []string{s.players[i].ID},
				Message: fmt.Sprintf("%s neither plays nor has the bye", s.players[i].ID)})
		}
	}
	// The draw's optimum on the same field: the lowest feasible bye tier and
	// the best score differences.
	best, drawErr := s.solve(act)
	if drawErr == nil && p.Bye != "" && best.bye >= 0 {
		if i, ok := s.index[p.Bye]; ok && s.score[i] > s.score[best.bye] {
			violations = append(violations, Violation{Rule: RuleSwissByeLowest, Players: []string{p.Bye},
				Message: fmt.Sprintf("%s has %.1f wins; a round exists with the bye at %.1f", p.Bye,
					float64(s.score[i])/2, float64(s.score[best.bye])/2)})
		}
	}
	rep := s.report(p)
	for _, a := range rep.NotKept {
		notes = append(notes, Violation{Rule: RuleSwissAvoid, Players: a.IDs[:], Message: a.Message})
	}
	for _, id := range rep.ColourOverflows {
		notes = append(notes, Violation{Rule: RuleSwissColour, Players: []string{id},
			Message: fmt.Sprintf("%s's sente−gote count leaves ±1", id)})
	}
	// The colour rules are hard while a valid round keeps them: breaking
	// them for more players than the draw's optimum must is a violation.
	if len(rep.ColourRulesBroken) > 0 {
		must := -1
		if drawErr == nil {
			must = s.brokenIn(best)
		}
		for _, b := range rep.ColourRulesBroken {
			v := Violation{Rule: b.Rule, Players: []string{b.ID}, Message: b.Message}
			if must >= 0 && len(rep.ColourRulesBroken) > must {
				if must == 0 {
					v.Message += "; a valid round keeps every colour rule"
				} else {
					v.Message += fmt.Sprintf("; a valid round breaks them for %d players, not %d", must, len(rep.ColourRulesBroken))
				}
				violations = append(violations, v)
			} else {
				notes = append(notes, v)
			}
		}
	}
	if drawErr == nil {
		bs, bm := s.diffs(best)
		if float64(bs)/2 < rep.ScoreDiffSum || (float64(bs)/2 == rep.ScoreDiffSum && float64(bm)/2 < rep.ScoreDiffMax) {
			notes = append(notes, Violation{Rule: RuleSwissScoreDiffs,
				Message: fmt.Sprintf("score differences sum %.1f (max %.1f); the draw achieves %.1f (max %.1f)",
					rep.ScoreDiffSum, rep.ScoreDiffMax, float64(bs)/2, float64(bm)/2)})
		}
	}
	return violations, notes, nil
}
