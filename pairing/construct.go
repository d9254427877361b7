package pairing

import (
	"fmt"
	"math/rand/v2"
)

// construct finds one valid draw when rejection sampling keeps failing, or
// proves none exists. It is a perfect-matching problem: players are
// vertices, and so is every free slot whose round-1 opposite is fixed (a
// seeded player, or a bye); an edge joins a player to such a slot, or two
// players, when they may meet. Any perfect matching is a valid draw (the
// matched player pairs fill the remaining free games); a maximum matching
// that is not perfect yields the Tutte certificate reported to the user.
func (d *drawer) construct(rng *rand.Rand, st Stage) ([]int, error) {
	players := d.f.unseeded
	u := len(players)
	vertexOf := make([]int, len(d.f.entrants))
	for i := range vertexOf {
		vertexOf[i] = -1
	}
	for v, e := range players {
		vertexOf[e] = v
	}
	var tokens []int // free indices whose opposite is fixed
	for k := range d.l.free {
		if d.oppFree[k] < 0 {
			tokens = append(tokens, k)
		}
	}
	g := newGraph(u + len(tokens))
	for a := 0; a < u; a++ {
		for b := a + 1; b < u; b++ {
			g.link(a, b)
		}
	}
	for a, e := range players {
		for _, p := range d.f.partners[e] {
			if b := vertexOf[p]; b >= 0 {
				g.unlink(a, b)
			}
		}
	}
	for t, k := range tokens {
		opp := d.oppEntrant[k]
		for a, e := range players {
			if opp < 0 || !d.f.isRelated(e, opp) {
				g.link(a, u+t)
			}
		}
	}
	m := newMatcher(g)
	order := rng.Perm(g.n)
	m.greedy(order)
	m.maximize(order)
	if 2*m.size() < g.n {
		dec, ok := m.decompose()
		if !ok {
			return nil, fmt.Errorf("draw: matching was not maximum (internal error)")
		}
		return nil, d.explain(st, g, dec, players, tokens)
	}
	place := make([]int, len(d.l.free))
	var pairs [][2]int
	for v := 0; v < u; v++ {
		w := m.match[v]
		switch {
		case w >= u:
			place[tokens[w-u]] = players[v]
		case v < w:
			pairs = append(pairs, [2]int{players[v], players[w]})
		}
	}
	next := 0
	for k := range d.l.free {
		if o := d.oppFree[k]; o > k {
			if next >= len(pairs) {
				return nil, fmt.Errorf("draw: %d free games but %d matched pairs (internal error)", next+1, len(pairs))
			}
			place[k], place[o] = pairs[next][0], pairs[next][1]
			next++
		}
	}
	return place, nil
}
