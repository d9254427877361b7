package league

import (
	"fmt"
	"slices"
	"strings"
)

// feasibility finds conflicts that make any schedule impossible, before
// searching, and the lower bound on last-term rematches (D-C1).
func (p *problem) feasibility() (lowerBound int, conflicts []Violation) {
	ids := make([]string, p.n)
	for i, pl := range p.d.Players {
		ids[i] = pl.ID
	}
	if !p.d.Settings.RoundRobin && p.n%2 == 1 && p.games%2 == 1 {
		conflicts = append(conflicts, Violation{Rule: RuleStructure, Players: []string{},
			Message: fmt.Sprintf("an odd class of %d players cannot all play an odd number (%d) of games: every game takes two", p.n, p.games)})
		return 0, conflicts
	}
	sg := p.d.Settings.SenteGote
	if p.n == 4 && p.games == 3 && sg.SplitFirstTwo && sg.SplitLastTwo {
		// Three games each with both pairs split means sente-gote-sente or
		// gote-sente-gote: two players of each pattern, and the two
		// sente-gote-sente players would both be sente when they meet.
		conflicts = append(conflicts, Violation{Rule: RuleSenteGoteSplit, Players: ids,
			Message: "4 players who each play 3 games cannot split both every player's first two and last two games; turn off sente_gote.split_first_two or split_last_two"})
		return 0, conflicts
	}
	need, worst := 0, 0
	for u := 0; u < p.n; u++ {
		cand, clean := 0, 0
		blockers := map[string][]string{}
		for v := 0; v < p.n; v++ {
			if v == u {
				continue
			}
			l := p.limit(u, v)
			if l.never || p.windowEmpty(l) {
				for _, c := range l.rules {
					if c.kind == cNever || c.kind == cWindow {
						blockers[c.rule] = append(blockers[c.rule], ids[v])
					}
				}
				if p.d.Settings.RoundRobin {
					conflicts = append(conflicts, Violation{Rule: firstRule(l), Players: []string{ids[u], ids[v]},
						Message: fmt.Sprintf("%s and %s must meet in a round robin but %s forbids their game", ids[u], ids[v], ruleList(l))})
				}
				continue
			}
			cand++
			if !l.soft {
				clean++
			}
		}
		if !p.d.Settings.RoundRobin && cand < p.games {
			players := []string{ids[u]}
			var why []string
			main := ""
			for _, rule := range sortedKeys(blockers) {
				for _, id := range blockers[rule] {
					if !slices.Contains(players, id) {
						players = append(players, id)
					}
				}
				why = append(why, fmt.Sprintf("%s rules out %s", rule, strings.Join(blockers[rule], ", ")))
				if main == "" || len(blockers[rule]) > len(blockers[main]) {
					main = rule // name the rule that takes the most opponents away
				}
			}
			conflicts = append(conflicts, Violation{Rule: main, Players: players,
				Message: fmt.Sprintf("%s plays %d games but may meet only %d classmates: %s", ids[u], p.games, cand, strings.Join(why, "; "))})
		}
		need += max(0, p.games-clean)
		worst = max(worst, p.games-clean)
	}
	if p.d.Settings.RoundRobin {
		conflicts = append(conflicts, p.windowConflicts(ids)...)
	}
	// Each rematch serves two players, and the neediest player alone
	// needs worst of them.
	return max((need+1)/2, worst), dedupe(conflicts)
}

// windowConflicts checks, for round robins, that each player's restricted
// opponents fit in the positions their windows allow: k opponents whose
// windows all lie inside an interval of fewer than k games cannot all be
// placed (a Hall-type count over intervals).
func (p *problem) windowConflicts(ids []string) []Violation {
	var out []Violation
	for u := 0; u < p.n; u++ {
		type win struct{ lo, hi, v int }
		var ws []win
		for v := 0; v < p.n; v++ {
			if l := p.limit(u, v); v != u && (l.first > 0 || l.last > 0) {
				ws = append(ws, win{l.first, p.games - l.last, v})
			}
		}
	pairs:
		for _, a := range ws {
			for _, b := range ws {
				lo, hi := min(a.lo, b.lo), max(a.hi, b.hi)
				var inside []string
				for _, w := range ws {
					if w.lo >= lo && w.hi <= hi {
						inside = append(inside, ids[w.v])
					}
				}
				if len(inside) > hi-lo {
					out = append(out, Violation{Rule: firstRule(p.limit(u, a.v)), Players: append([]string{ids[u]}, inside...),
						Message: fmt.Sprintf("%s has %d related opponents (%s) who may only be met in games %d–%d, %d places", ids[u], len(inside), strings.Join(inside, ", "), lo+1, hi, hi-lo)})
					break pairs
				}
			}
		}
	}
	return out
}

// restrictedPairs lists every pair a position rule applies to, for the
// report when no round robin can place them all.
func (p *problem) restrictedPairs() []Violation {
	var out []Violation
	for u := 0; u < p.n; u++ {
		for v := u + 1; v < p.n; v++ {
			l := p.limit(u, v)
			for _, c := range l.rules {
				var where string
				switch c.kind {
				case cWindow:
					where = fmt.Sprintf("only in games %d–%d of each player", c.first+1, p.games-c.last)
				case cFinalRound:
					where = "not in the final round"
				case cRoundOne:
					where = "not in round 1"
				default:
					continue
				}
				a, b := p.d.Players[u].ID, p.d.Players[v].ID
				out = append(out, Violation{Rule: c.rule, Players: []string{a, b}, Message: fmt.Sprintf("%s–%s %s", a, b, where)})
			}
		}
	}
	return out
}

func firstRule(l *limit) string {
	for _, c := range l.rules {
		if c.kind == cNever || c.kind == cWindow {
			return c.rule
		}
	}
	return RuleStructure
}

func ruleList(l *limit) string {
	var rs []string
	for _, c := range l.rules {
		if (c.kind == cNever || c.kind == cWindow) && !slices.Contains(rs, c.rule) {
			rs = append(rs, c.rule)
		}
	}
	return strings.Join(rs, ", ")
}

func sortedKeys(m map[string][]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// dedupe drops a round robin's second report of the same pair.
func dedupe(vs []Violation) []Violation {
	seen := map[string]bool{}
	out := vs[:0]
	for _, v := range vs {
		ps := slices.Clone(v.Players)
		slices.Sort(ps)
		k := v.Rule + "|" + strings.Join(ps, ",")
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}
