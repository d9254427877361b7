package league

import "math/rand/v2"

// The sente/gote plan (D-B2, 001 第8条B2) is found by local search over the
// games' directions: a player's cost counts an unbalanced sente count, each
// run longer than MaxRun, and unsplit first/last pairs; a step flips the
// game of a player in trouble that helps both players most.

type orienter struct {
	rule  SenteGoteRule
	rng   *rand.Rand
	eu    []int   // game e is between eu[e] and ev[e]
	ev    []int   //
	uWins []bool  // true: eu[e] has sente
	games [][]int // each player's games in round order
	round []int   // round of each game
	bad   []int
}

func newOrienter(pl *plan, rule SenteGoteRule, rng *rand.Rand) *orienter {
	o := &orienter{rule: rule, rng: rng, games: make([][]int, pl.p.n)}
	for r, row := range pl.mate {
		for u, v := range row {
			if v > u {
				e := len(o.eu)
				o.eu = append(o.eu, u)
				o.ev = append(o.ev, v)
				o.round = append(o.round, r)
				o.games[u] = append(o.games[u], e)
				o.games[v] = append(o.games[v], e)
			}
		}
	}
	o.uWins = make([]bool, len(o.eu))
	return o
}

func (o *orienter) sente(p, e int) bool { return (o.eu[e] == p) == o.uWins[e] }

// playerCost counts what is wrong with p's sequence.
func (o *orienter) playerCost(p int) int {
	gs := o.games[p]
	g := len(gs)
	if g == 0 {
		return 0
	}
	c, s := 0, 0
	run, prev := 0, false
	for k, e := range gs {
		x := o.sente(p, e)
		if x {
			s++
		}
		if k > 0 && x == prev {
			run++
		} else {
			run = 1
		}
		if run > o.rule.MaxRun {
			c++
		}
		prev = x
	}
	if d := 2*s - g; d > 1 || d < -1 {
		c += max(d, -d) / 2 // games that would have to change side
	}
	if g >= 2 {
		if o.rule.SplitFirstTwo && o.sente(p, gs[0]) == o.sente(p, gs[1]) {
			c++
		}
		if o.rule.SplitLastTwo && o.sente(p, gs[g-1]) == o.sente(p, gs[g-2]) {
			c++
		}
	}
	return c
}

// pairedStart gives the search a start that is nearly right: each player's
// games are taken in pairs (1–2, 3–4, …, and the last two), and the two
// games of a pair get opposite sides. A player whose every pair is split
// is balanced, never has three in a row, and has games 1–2 and the last two
// split. "Opposite sides" links two games' directions, and each game is in
// at most one pair of each of its two players, so the links form paths
// and cycles: propagate from a random value along each; a cycle that
// comes back inconsistent leaves one pair unsplit for the search to fix.
func (o *orienter) pairedStart() {
	m := len(o.eu)
	type link struct{ to, flip int }
	links := make([][]link, m)
	for p, gs := range o.games {
		for _, pr := range gamePairs(len(gs)) {
			e, f := gs[pr[0]], gs[pr[1]]
			// x_p(e) != x_p(f) where x_p(e) = uWins[e] xor (p != eu[e]).
			flip := 1
			if o.eu[e] != p {
				flip ^= 1
			}
			if o.eu[f] != p {
				flip ^= 1
			}
			links[e] = append(links[e], link{f, flip})
			links[f] = append(links[f], link{e, flip})
		}
	}
	done := make([]bool, m)
	stack := []int{}
	for _, start := range o.rng.Perm(m) {
		if done[start] {
			continue
		}
		done[start] = true
		o.uWins[start] = o.rng.IntN(2) == 0
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, l := range links[e] {
				if !done[l.to] {
					done[l.to] = true
					o.uWins[l.to] = o.uWins[e] != (l.flip == 1)
					stack = append(stack, l.to)
				}
			}
		}
	}
}

// gamePairs pairs the positions of a player's g games: (0,1), (2,3), …;
// with g odd one middle game stays unpaired and the last two are paired.
func gamePairs(g int) [][2]int {
	var out [][2]int
	if g%2 == 0 {
		for k := 0; k+1 < g; k += 2 {
			out = append(out, [2]int{k, k + 1})
		}
		return out
	}
	for k := 0; k+1 < g-3; k += 2 {
		out = append(out, [2]int{k, k + 1})
	}
	if g >= 2 {
		out = append(out, [2]int{g - 2, g - 1})
	}
	return out
}

// solve returns true once every player's sequence is clean.
func (o *orienter) solve(iters int) bool {
	o.pairedStart()
	n := len(o.games)
	cost := make([]int, n)
	for p := range cost {
		cost[p] = o.playerCost(p)
	}
	for it := 0; it < iters; it++ {
		o.bad = o.bad[:0]
		for p, c := range cost {
			if c > 0 {
				o.bad = append(o.bad, p)
			}
		}
		if len(o.bad) == 0 {
			return true
		}
		p := o.bad[o.rng.IntN(len(o.bad))]
		gs := o.games[p]
		best, bestDelta, ties := -1, 0, 0
		if o.rng.IntN(10) == 0 {
			best = gs[o.rng.IntN(len(gs))]
		} else {
			for _, e := range gs {
				q := o.eu[e] + o.ev[e] - p
				o.uWins[e] = !o.uWins[e]
				delta := o.playerCost(p) + o.playerCost(q) - cost[p] - cost[q]
				o.uWins[e] = !o.uWins[e]
				switch {
				case best < 0 || delta < bestDelta:
					best, bestDelta, ties = e, delta, 1
				case delta == bestDelta:
					ties++
					if o.rng.IntN(ties) == 0 {
						best = e
					}
				}
			}
		}
		o.uWins[best] = !o.uWins[best]
		cost[o.eu[best]] = o.playerCost(o.eu[best])
		cost[o.ev[best]] = o.playerCost(o.ev[best])
	}
	return false
}
