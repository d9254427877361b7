package league

import (
	"fmt"
	"slices"
	"strings"
)

// Check verifies a schedule against every rule the draw's settings turn
// on and counts last-term rematches. It works from the Schedule alone, so
// it can judge a schedule made by hand or by another program. The error is
// for an invalid draw; a bad schedule is reported as violations.
func Check(d Draw, s Schedule) (Report, error) {
	if err := d.validate(); err != nil {
		return Report{}, err
	}
	c := checker{d: d, index: indexOf(d.Players), rep: Report{RulesChecked: d.rulesChecked(), Violations: []Violation{}}}
	c.rel = buildRelations(d, c.index)
	c.structure(s)
	c.pairs(s)
	c.senteGote(s)
	c.dates(s)
	slices.SortStableFunc(c.rep.Violations, func(a, b Violation) int {
		if a.Rule != b.Rule {
			return strings.Compare(a.Rule, b.Rule)
		}
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return strings.Compare(fmt.Sprint(a.Players), fmt.Sprint(b.Players))
	})
	return c.rep, nil
}

type checker struct {
	d     Draw
	index map[string]int
	rel   relations
	rep   Report
}

func (c *checker) add(rule string, round int, msg string, players ...string) {
	c.rep.Violations = append(c.rep.Violations, Violation{Rule: rule, Round: round, Players: players, Message: msg})
}

// rulesChecked lists the rules the settings turn on.
func (d Draw) rulesChecked() []string {
	all := relMasterStudent | relFellow | relRelative | relPrev1 | relPrev2 | relPrevFinal
	rules := []string{RuleStructure, RuleFinalRoundOneDay, RuleSenteGote}
	if d.Settings.SenteGote.SplitFirstTwo || d.Settings.SenteGote.SplitLastTwo {
		rules = append(rules, RuleSenteGoteSplit)
	}
	for _, pc := range d.constraintsFor(all) {
		if !slices.Contains(rules, pc.rule) {
			rules = append(rules, pc.rule)
		}
	}
	return rules
}

func (c *checker) structure(s Schedule) {
	want := c.d.RoundCount()
	if len(s.Rounds) != want {
		c.add(RuleStructure, 0, fmt.Sprintf("the schedule has %d rounds, the draw needs %d", len(s.Rounds), want))
	}
	met := map[Pair]int{}
	games := map[string]int{}
	for r, rd := range s.Rounds {
		seen := map[string]bool{}
		mark := func(id string) {
			if _, ok := c.index[id]; !ok {
				c.add(RuleStructure, r+1, fmt.Sprintf("%q is not a player of this league", id), id)
				return
			}
			if seen[id] {
				c.add(RuleStructure, r+1, fmt.Sprintf("%s appears twice in round %d", id, r+1), id)
			}
			seen[id] = true
		}
		for _, g := range rd.Games {
			mark(g.Sente)
			mark(g.Gote)
			if g.Sente == g.Gote {
				continue
			}
			k := normPair(g.Sente, g.Gote)
			met[k]++
			if met[k] == 2 {
				c.add(RuleStructure, r+1, fmt.Sprintf("%s and %s meet more than once", k[0], k[1]), k[0], k[1])
			}
			games[g.Sente]++
			games[g.Gote]++
		}
		for _, id := range rd.Rests {
			mark(id)
		}
		for _, p := range c.d.Players {
			if !seen[p.ID] {
				c.add(RuleStructure, r+1, fmt.Sprintf("%s neither plays nor rests in round %d", p.ID, r+1), p.ID)
			}
		}
	}
	for _, p := range c.d.Players {
		if g := games[p.ID]; g != c.d.GamesEach() {
			c.add(RuleStructure, 0, fmt.Sprintf("%s plays %d games, every player plays %d", p.ID, g, c.d.GamesEach()), p.ID)
		}
	}
}

// pairs applies the lineage and history rules to each game. Positions are
// the player's own game numbers (see PairRule).
func (c *checker) pairs(s Schedule) {
	seq := s.sequences()
	pos := func(id string, round int) (int, int) {
		for k, sl := range seq[id] {
			if sl.round == round {
				return k, len(seq[id])
			}
		}
		return -1, len(seq[id])
	}
	last := len(s.Rounds) - 1
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			u, ok1 := c.index[g.Sente]
			v, ok2 := c.index[g.Gote]
			if !ok1 || !ok2 || u == v {
				continue
			}
			for _, pc := range c.d.constraintsFor(c.rel.of(u, v)) {
				switch pc.kind {
				case cNever:
					c.add(pc.rule, r+1, fmt.Sprintf("%s and %s may not meet (%s)", g.Sente, g.Gote, relationName(c.rel.of(u, v))), g.Sente, g.Gote)
				case cWindow:
					for _, id := range []string{g.Sente, g.Gote} {
						k, n := pos(id, r)
						if k < pc.first || k >= n-pc.last {
							c.add(pc.rule, r+1, fmt.Sprintf("%s and %s (%s) meet in %s's game %d of %d; not allowed in the first %d or last %d",
								g.Sente, g.Gote, relationName(c.rel.of(u, v)), id, k+1, n, pc.first, pc.last), g.Sente, g.Gote)
						}
					}
				case cFinalRound:
					if r == last {
						c.add(pc.rule, r+1, fmt.Sprintf("%s and %s (%s) meet in the final round", g.Sente, g.Gote, relationName(c.rel.of(u, v))), g.Sente, g.Gote)
					}
				case cRoundOne:
					if r == 0 {
						c.add(pc.rule, r+1, fmt.Sprintf("%s and %s met in last term's final round and again in round 1", g.Sente, g.Gote), g.Sente, g.Gote)
					}
				case cSoft:
					c.rep.PreviousTermRematches++
				}
			}
		}
	}
}

// senteGote checks D-B2 over each player's own games in round order.
func (c *checker) senteGote(s Schedule) {
	rule := c.d.Settings.SenteGote
	for id, games := range s.sequences() {
		if _, ok := c.index[id]; !ok {
			continue
		}
		n, sente, run := len(games), 0, 0
		for k, g := range games {
			if g.sente {
				sente++
			}
			if k > 0 && g.sente == games[k-1].sente {
				run++
			} else {
				run = 1
			}
			if run == rule.MaxRun+1 {
				c.add(RuleSenteGote, g.round+1, fmt.Sprintf("%s has %d games in a row as %s up to round %d", id, run, side(g.sente), g.round+1), id)
			}
		}
		if d := 2*sente - n; d > 1 || d < -1 {
			c.add(RuleSenteGote, 0, fmt.Sprintf("%s has %d sente and %d gote", id, sente, n-sente), id)
		}
		if n >= 2 && rule.SplitFirstTwo && games[0].sente == games[1].sente {
			c.add(RuleSenteGoteSplit, games[1].round+1, fmt.Sprintf("%s plays both first games as %s", id, side(games[0].sente)), id)
		}
		if n >= 2 && rule.SplitLastTwo && games[n-1].sente == games[n-2].sente {
			c.add(RuleSenteGoteSplit, games[n-1].round+1, fmt.Sprintf("%s plays both last games as %s", id, side(games[n-1].sente)), id)
		}
	}
}

// dates checks D-B1 (one day for the final round) and the calendar.
func (c *checker) dates(s Schedule) {
	if n := len(s.Rounds); n > 0 {
		final := s.Rounds[n-1]
		for _, g := range final.Games {
			if !g.Date.Equal(final.Games[0].Date) {
				c.add(RuleFinalRoundOneDay, n, fmt.Sprintf("final-round games are on %s and %s", final.Games[0].Date.Format(dateLayout), g.Date.Format(dateLayout)), g.Sente, g.Gote)
				break
			}
		}
	}
	if len(c.d.Dates) != len(s.Rounds) {
		return
	}
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			if !slices.ContainsFunc(c.d.Dates[r], g.Date.Equal) {
				c.add(RuleStructure, r+1, fmt.Sprintf("%s–%s is dated %s, not a date of round %d", g.Sente, g.Gote, g.Date.Format(dateLayout), r+1), g.Sente, g.Gote)
			}
		}
	}
}

const dateLayout = "2006-01-02"

func side(sente bool) string {
	if sente {
		return "sente"
	}
	return "gote"
}

func normPair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

func relationName(r relation) string {
	var out []string
	for _, x := range []struct {
		bit  relation
		name string
	}{{relMasterStudent, "師弟"}, {relFellow, "兄弟弟子"}, {relRelative, "肉親"}, {relPrev1, "met last term"}, {relPrev2, "met two terms ago"}, {relPrevFinal, "last term's final round"}} {
		if r&x.bit != 0 {
			out = append(out, x.name)
		}
	}
	return strings.Join(out, ", ")
}
