package league

import (
	"fmt"
	"slices"
)

// oracle is the tests' own reading of the rules, written apart from the
// generator and from Check: it derives every relation from the raw input
// and walks the Schedule's rounds directly. It returns one line per broken
// rule, tagged with the rule id.
func oracle(d Draw, s Schedule) []string {
	var bad []string
	fail := func(rule, format string, a ...any) {
		bad = append(bad, rule+": "+fmt.Sprintf(format, a...))
	}
	n := len(d.Players)
	games := n - 1
	if !d.Settings.RoundRobin {
		games = d.Settings.GamesPerPlayer
	}
	rounds := games
	if n%2 == 1 {
		rounds++
	}
	if len(s.Rounds) != rounds {
		fail("structure", "%d rounds, want %d", len(s.Rounds), rounds)
		return bad
	}

	master := map[string]string{}
	for _, p := range d.Players {
		master[p.ID] = p.Master
	}
	key := func(a, b string) string {
		if a > b {
			a, b = b, a
		}
		return a + "\x00" + b
	}
	set := func(ps []Pair) map[string]bool {
		m := map[string]bool{}
		for _, p := range ps {
			m[key(p[0], p[1])] = true
		}
		return m
	}
	relatives := set(d.Relatives)
	var last, older map[string]bool
	if len(d.PreviousTerms) > 0 {
		last = set(d.PreviousTerms[0])
	}
	if len(d.PreviousTerms) > 1 {
		older = set(d.PreviousTerms[1])
	}
	lastFinal := set(d.PreviousFinalRound)

	// Each player's games as (round, opponent, sente), in round order.
	type played struct {
		round int
		opp   string
		sente bool
	}
	seq := map[string][]played{}
	met := map[string]bool{}
	for r, rd := range s.Rounds {
		here := map[string]int{}
		for _, g := range rd.Games {
			here[g.Sente]++
			here[g.Gote]++
			k := key(g.Sente, g.Gote)
			if met[k] {
				fail("structure", "%s and %s meet twice", g.Sente, g.Gote)
			}
			met[k] = true
			seq[g.Sente] = append(seq[g.Sente], played{r, g.Gote, true})
			seq[g.Gote] = append(seq[g.Gote], played{r, g.Sente, false})
		}
		for _, id := range rd.Rests {
			here[id]++
		}
		for _, p := range d.Players {
			if here[p.ID] != 1 {
				fail("structure", "%s appears %d times in round %d", p.ID, here[p.ID], r+1)
			}
		}
		if len(here) != n {
			fail("structure", "round %d names someone outside the league", r+1)
		}
	}
	for _, p := range d.Players {
		if len(seq[p.ID]) != games {
			fail("structure", "%s plays %d games, want %d", p.ID, len(seq[p.ID]), games)
		}
	}

	position := func(id string, round int) int {
		return slices.IndexFunc(seq[id], func(x played) bool { return x.round == round })
	}
	apply := func(rule PairRule, name string, a, b string, r int) {
		if rule.Never {
			fail(name, "%s and %s meet in round %d", a, b, r+1)
		}
		for _, id := range []string{a, b} {
			k := position(id, r)
			if k < rule.NotFirst || k >= len(seq[id])-rule.NotLast {
				fail(name, "%s–%s is %s's game %d of %d", a, b, id, k+1, len(seq[id]))
			}
		}
		if rule.NotFinalRound && r == rounds-1 {
			fail(name, "%s and %s meet in the final round", a, b)
		}
	}
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			a, b := g.Sente, g.Gote
			if master[a] == b || master[b] == a {
				apply(d.Settings.MasterStudent, "師弟", a, b, r)
			}
			if master[a] != "" && master[a] == master[b] {
				apply(d.Settings.FellowDisciples, "兄弟弟子", a, b, r)
			}
			if relatives[key(a, b)] {
				apply(d.Settings.Relatives, "肉親", a, b, r)
			}
			if last[key(a, b)] && d.Settings.PreviousTerm == PreviousForbid {
				fail("D-C2", "%s and %s met last term", a, b)
			}
			if last[key(a, b)] && older[key(a, b)] && d.Settings.NoThirdConsecutive {
				fail("D-C1", "%s and %s would meet a third term running", a, b)
			}
			if r == 0 && lastFinal[key(a, b)] && d.Settings.PreviousFinalNotRoundOne {
				fail("previous-final", "%s and %s met in last term's final round", a, b)
			}
		}
	}

	sg := d.Settings.SenteGote
	for id, gs := range seq {
		sente := 0
		for k, x := range gs {
			if x.sente {
				sente++
			}
			if k >= sg.MaxRun {
				same := true
				for j := k - sg.MaxRun; j < k; j++ {
					same = same && gs[j].sente == x.sente
				}
				if same {
					fail("D-B2", "%s: %d on one side in a row ending at game %d", id, sg.MaxRun+1, k+1)
				}
			}
		}
		if diff := sente - (len(gs) - sente); diff > 1 || diff < -1 {
			fail("D-B2", "%s: %d sente of %d", id, sente, len(gs))
		}
		m := len(gs)
		if m >= 2 && sg.SplitFirstTwo && gs[0].sente == gs[1].sente {
			fail("split", "%s: first two on one side", id)
		}
		if m >= 2 && sg.SplitLastTwo && gs[m-1].sente == gs[m-2].sente {
			fail("split", "%s: last two on one side", id)
		}
	}

	final := s.Rounds[rounds-1].Games
	for _, g := range final {
		if !g.Date.Equal(final[0].Date) {
			fail("D-B1", "final round on two dates")
		}
	}
	if len(d.Dates) == rounds {
		for r, rd := range s.Rounds {
			for _, g := range rd.Games {
				ok := false
				for _, day := range d.Dates[r] {
					ok = ok || day.Equal(g.Date)
				}
				if !ok {
					fail("dates", "round %d game dated %v", r+1, g.Date)
				}
			}
		}
	}
	return bad
}

// rematches counts games between last term's opponents, independently.
func rematches(d Draw, s Schedule) int {
	if len(d.PreviousTerms) == 0 {
		return 0
	}
	last := map[Pair]bool{}
	for _, p := range d.PreviousTerms[0] {
		last[p] = true
		last[Pair{p[1], p[0]}] = true
	}
	c := 0
	for _, rd := range s.Rounds {
		for _, g := range rd.Games {
			if last[Pair{g.Sente, g.Gote}] {
				c++
			}
		}
	}
	return c
}
