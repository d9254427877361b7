package league

import (
	"math/rand/v2"

	"github.com/crillab/gophersat/solver"
)

// exactMaxPlayers bounds the round robins handed to the SAT solver: small
// leagues (A, B1, challenger leagues) where the local search may give up on
// crowded lineage, and where an exhaustive answer is cheap.
const exactMaxPlayers = 16

// exactRoundRobin decides the rounds of a small round robin with a SAT
// model when the local search gave up. It returns the rounds, or
// impossible=true when no round robin satisfies the position rules.
//
// Variables: x(pair, round) — the pair meets in that round; for an odd
// league also y(player, round) — the player rests then. A player's game
// number in round r is r, less one if they rested earlier, so the window
// rules (D-A3 and the practice windows) become clauses over x and y.
func (p *problem) exactRoundRobin(rng *rand.Rand) (rounds [][]int, impossible bool) {
	n, R, G := p.n, p.rounds, p.games
	odd := n%2 == 1
	// Number the variables in a seed-dependent order so that different
	// seeds lead the solver to different schedules.
	nx := n * n * R
	order := rng.Perm(nx + n*R)
	x := func(u, v, r int) int {
		if u > v {
			u, v = v, u
		}
		return order[(u*n+v)*R+r] + 1
	}
	y := func(u, r int) int { return order[nx+u*R+r] + 1 }

	var cs []solver.CardConstr
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			lits := make([]int, R)
			for r := range lits {
				lits[r] = x(u, v, r)
			}
			cs = append(cs, exactly1(lits...)...)
		}
		for r := 0; r < R; r++ {
			var lits []int
			for v := 0; v < n; v++ {
				if v != u {
					lits = append(lits, x(u, v, r))
				}
			}
			if odd {
				lits = append(lits, y(u, r))
			}
			cs = append(cs, exactly1(lits...)...)
		}
	}
	if odd {
		for r := 0; r < R; r++ {
			lits := make([]int, n)
			for u := range lits {
				lits[u] = y(u, r)
			}
			cs = append(cs, exactly1(lits...)...)
		}
	}
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			l := p.limit(u, v)
			if l.notFinal {
				cs = append(cs, solver.AtLeast1(-x(u, v, R-1)))
			}
			if l.notRoundOne {
				cs = append(cs, solver.AtLeast1(-x(u, v, 0)))
			}
			if l.first == 0 && l.last == 0 {
				continue
			}
			in := func(i int) bool { return i >= l.first && i < G-l.last }
			for _, w := range [2]int{u, v} {
				for r := 0; r < R; r++ {
					now := in(r)                     // w has not rested yet
					after := odd && r > 0 && in(r-1) // w rested in an earlier round
					switch {
					case now && (after || !odd || r == 0):
					case !now && !after:
						cs = append(cs, solver.AtLeast1(-x(u, v, r)))
					case now: // only allowed if w has not rested before r
						for q := 0; q < r; q++ {
							cs = append(cs, solver.AtLeast1(-x(u, v, r), -y(w, q)))
						}
					default: // only allowed if w rested before r
						lits := []int{-x(u, v, r)}
						for q := 0; q < r; q++ {
							lits = append(lits, y(w, q))
						}
						cs = append(cs, solver.AtLeast1(lits...))
					}
				}
			}
		}
	}
	s := solver.New(solver.ParseCardConstrs(cs))
	switch s.Solve() {
	case solver.Unsat:
		return nil, true
	case solver.Sat:
	default:
		return nil, false
	}
	model := s.Model()
	// Check the model against the clauses before trusting it.
	for _, c := range cs {
		k := 0
		for _, l := range c.Lits {
			if (l > 0) == model[max(l, -l)-1] {
				k++
			}
		}
		if k < c.AtLeast {
			return nil, false // not a model after all: let the caller restart
		}
	}
	rounds = make([][]int, R)
	for r := range rounds {
		rounds[r] = make([]int, n)
		for u := range rounds[r] {
			rounds[r][u] = -1
		}
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				if model[x(u, v, r)-1] {
					rounds[r][u], rounds[r][v] = v, u
				}
			}
		}
	}
	return rounds, false
}

// exactly1 is "exactly one of lits" as plain clauses: one at least, and
// no two together. (gophersat's own cardinality constraints returned
// models that broke them in our tests, so only clauses are used.)
func exactly1(lits ...int) []solver.CardConstr {
	out := []solver.CardConstr{solver.AtLeast1(lits...)}
	for i, a := range lits {
		for _, b := range lits[i+1:] {
			out = append(out, solver.AtLeast1(-a, -b))
		}
	}
	return out
}
