package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// recordDistance is how far apart two records are: a float from 1-0 to
// 1-1 is 1, to 0-1 is 2.
func recordDistance(a, b Record) int {
	return abs(a.Wins-b.Wins) + abs(a.Losses-b.Losses)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// recordsRound pairs one round of the records mode over the playing players.
type recordsRound struct {
	p     *pools
	s     *state
	round int
	v     []int // vertex → player, in lot order
	// Per vertex pair (a*n+b): whether the game is allowed, and its cost
	// (record distance, avoided relations), computed once per round.
	ok    []bool
	dist  []uint8
	avoid []uint8
}

func (rr *recordsRound) precompute() {
	n := len(rr.v)
	rr.ok, rr.dist, rr.avoid = make([]bool, n*n), make([]uint8, n*n), make([]uint8, n*n)
	for a := range n {
		x := rr.v[a]
		for b := a + 1; b < n; b++ {
			y := rr.v[b]
			ok := rr.s.met[pairKey(x, y)] == 0
			var avoid int
			if rr.p.rel[x] != nil {
				var never bool
				avoid, never = rr.p.weight(x, y)
				ok = ok && !never
			}
			d := uint8(min(recordDistance(rr.s.rec[x], rr.s.rec[y]), 255))
			av := uint8(min(avoid, 255))
			for _, k := range []int{a*n + b, b*n + a} {
				rr.ok[k], rr.dist[k], rr.avoid[k] = ok, d, av
			}
		}
	}
}

func (rr *recordsRound) allowed(a, b int) bool { return rr.ok[a*len(rr.v)+b] }

// graph links the vertices in keep whose game is allowed and passes ok.
func (rr *recordsRound) graph(keep []bool, ok func(a, b int) bool) *graph {
	g := newGraph(len(rr.v))
	for a := range rr.v {
		if !keep[a] {
			continue
		}
		for b := a + 1; b < len(rr.v); b++ {
			if keep[b] && rr.allowed(a, b) && (ok == nil || ok(a, b)) {
				g.link(a, b)
			}
		}
	}
	return g
}

// perfect runs a maximum matching on g restricted to keep and returns it,
// with the vertices of keep it leaves unmatched. A vertex outside keep is
// no partner (before, one could absorb a kept vertex and make a pairable
// rest look unpairable, so the bye skipped the players first in its order).
func perfect(g *graph, keep []bool) (*matcher, []int) {
	h := newGraph(g.n)
	mask := make([]uint64, g.words)
	for v, k := range keep {
		if k {
			mask[v/64] |= 1 << (v % 64)
		}
	}
	for v, k := range keep {
		if !k {
			continue
		}
		for i := range mask {
			h.adj[v*h.words+i] = g.adj[v*g.words+i] & mask[i]
		}
	}
	m := newMatcher(h)
	var order []int
	for v, k := range keep {
		if k {
			order = append(order, v)
		}
	}
	m.greedy(order)
	m.maximize(order)
	var exposed []int
	for _, v := range order {
		if m.match[v] == -1 {
			exposed = append(exposed, v)
		}
	}
	return m, exposed
}

// pairRecords pairs the playing players with equal records (docs/pools.md):
//  1. Odd count: the bye (a win, 不戦勝) goes to the player with the fewest
//     byes so far, then the most losses, then the fewest wins, then by lot,
//     among those whose bye leaves the rest pairable.
//  2. The games are a perfect matching of the rest with no rematch and no
//     "never" relation, built in stages: first only equal records without
//     an avoided relation, then equal records, then records one apart
//     without, with, and so on. Each stage keeps every player matched
//     before and augments from the unmatched, so floats go to the nearest
//     record the field allows.
//  3. Two-game swaps then lower the total (record distance first, avoided
//     relations second) until none helps.
func (p *pools) pairRecords(s *state, act []int, rng *rand.Rand, round int) ([]PoolPairing, int, error) {
	rr := &recordsRound{p: p, s: s, round: round, v: slices.Clone(act)}
	rng.Shuffle(len(rr.v), func(i, j int) { rr.v[i], rr.v[j] = rr.v[j], rr.v[i] })
	rr.precompute()
	n := len(rr.v)
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	full := rr.graph(keep, nil)
	bye := -1
	if n%2 == 1 {
		cand := make([]int, n)
		for i := range cand {
			cand[i] = i
		}
		slices.SortStableFunc(cand, func(a, b int) int { return byeOrder(s, rr.v[a], rr.v[b]) })
		for _, c := range cand {
			keep[c] = false
			if _, exp := perfect(full, keep); len(exp) == 0 {
				bye = c
				break
			}
			keep[c] = true
		}
		if bye < 0 {
			return nil, -1, rr.noPairing(full, "whoever has the bye, the others cannot all be paired without a rematch or a \"never\" relation")
		}
	} else if _, exp := perfect(full, keep); len(exp) > 0 {
		return nil, -1, rr.noPairing(full, "the players cannot all be paired without a rematch or a \"never\" relation")
	}

	maxDist := p.req.Wins + p.req.Losses
	var m *matcher
	var order []int
	for v, k := range keep {
		if k {
			order = append(order, v)
		}
	}
	for d := 0; d <= maxDist; d++ {
		for _, withAvoid := range []bool{false, true} {
			g := rr.graph(keep, func(a, b int) bool {
				k := a*n + b
				return int(rr.dist[k]) <= d && (withAvoid || rr.avoid[k] == 0)
			})
			if m == nil {
				m = newMatcher(g)
				m.greedy(order)
			}
			m.g = g
			m.maximize(order)
		}
	}
	m.g = full
	m.maximize(order)

	var pairs [][2]int
	for _, a := range order {
		if b := m.match[a]; b > a {
			pairs = append(pairs, [2]int{a, b})
		}
	}
	if len(pairs)*2 != len(order) {
		return nil, -1, rr.noPairing(full, "the players cannot all be paired without a rematch or a \"never\" relation")
	}
	rr.improve(pairs)

	// Boards: the best records first, so the desk reads the whiteboard top
	// down; equal records keep the lot order.
	best := func(pr [2]int) Record {
		x, y := s.rec[rr.v[pr[0]]], s.rec[rr.v[pr[1]]]
		if y.Wins > x.Wins || y.Wins == x.Wins && y.Losses < x.Losses {
			return y
		}
		return x
	}
	slices.SortStableFunc(pairs, func(a, b [2]int) int {
		ra, rb := best(a), best(b)
		if ra.Wins != rb.Wins {
			return rb.Wins - ra.Wins
		}
		return ra.Losses - rb.Losses
	})
	out := make([]PoolPairing, len(pairs))
	for k, pr := range pairs {
		x, y := rr.v[pr[0]], rr.v[pr[1]]
		if s.rec[y].Wins > s.rec[x].Wins || s.rec[y].Wins == s.rec[x].Wins && s.rec[y].Losses < s.rec[x].Losses {
			x, y = y, x
		}
		out[k] = PoolPairing{Board: k + 1, Players: [2]string{p.req.Players[x].ID, p.req.Players[y].ID}, Records: [2]Record{s.rec[x], s.rec[y]}}
	}
	byePlayer := -1
	if bye >= 0 {
		byePlayer = rr.v[bye]
	}
	return out, byePlayer, nil
}

// cost of a game: record distance first, then avoided relations.
func (rr *recordsRound) cost(a, b int) int {
	k := a*len(rr.v) + b
	return int(rr.dist[k])*256 + int(rr.avoid[k])
}

// improve swaps partners between two games whenever that lowers the cost
// and keeps both games allowed.
func (rr *recordsRound) improve(pairs [][2]int) {
	for pass := 0; pass < 8; pass++ {
		changed := false
		for i := range pairs {
			for j := i + 1; j < len(pairs); j++ {
				a, b := pairs[i][0], pairs[i][1]
				c, d := pairs[j][0], pairs[j][1]
				now := rr.cost(a, b) + rr.cost(c, d)
				if now == 0 {
					break
				}
				if rr.allowed(a, c) && rr.allowed(b, d) && rr.cost(a, c)+rr.cost(b, d) < now {
					pairs[i], pairs[j] = [2]int{a, c}, [2]int{b, d}
					changed = true
				} else if rr.allowed(a, d) && rr.allowed(b, c) && rr.cost(a, d)+rr.cost(b, c) < now {
					pairs[i], pairs[j] = [2]int{a, d}, [2]int{b, c}
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// noPairing names the players a maximum matching leaves out.
func (rr *recordsRound) noPairing(full *graph, reason string) error {
	all := make([]bool, len(rr.v))
	for i := range all {
		all[i] = true
	}
	_, exp := perfect(full, all)
	var ids []string
	for _, v := range exp {
		ids = append(ids, rr.p.req.Players[rr.v[v]].ID)
	}
	ids = sortedIDs(ids...)
	return &NoPairingError{Round: rr.round, Players: ids,
		Reason: fmt.Sprintf("%s (left over: %v)", reason, ids)}
}

// byeOrder orders players for the records-mode bye (docs/pools.md): the
// fewest byes so far, then the most losses, then the fewest wins; 0 when
// only the lot separates them.
func byeOrder(s *state, x, y int) int {
	switch {
	case s.byes[x] != s.byes[y]:
		return s.byes[x] - s.byes[y]
	case s.rec[x].Losses != s.rec[y].Losses:
		return s.rec[y].Losses - s.rec[x].Losses
	}
	return s.rec[x].Wins - s.rec[y].Wins
}

// byeBefore lists the playing players who come before bye in byeOrder and
// whose own bye would leave the rest pairable (no rematch, no "never"):
// any one of them makes a records-mode bye out of order.
func (p *pools) byeBefore(s *state, act []int, bye int) []int {
	var out []int
	pos := map[int]int{}
	for k, i := range act {
		pos[i] = k
	}
	var g *graph
	for _, x := range act {
		if x == bye || byeOrder(s, x, bye) >= 0 {
			continue
		}
		if g == nil {
			g = newGraph(len(act))
			for a, i := range act {
				for b := a + 1; b < len(act); b++ {
					j := act[b]
					if s.met[pairKey(i, j)] == 0 && !p.never[pairKey(i, j)] {
						g.link(a, b)
					}
				}
			}
		}
		keep := make([]bool, len(act))
		for k := range keep {
			keep[k] = k != pos[x]
		}
		if _, exp := perfect(g, keep); len(exp) == 0 {
			out = append(out, x)
		}
	}
	return out
}
