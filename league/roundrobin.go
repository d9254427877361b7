package league

import "math/rand/v2"

// Full round robins (A, B1, other leagues) start from the circle method,
// which already meets everyone once; the search then relabels players
// and reorders rounds until the position rules (D-A3, D-A4, D-A5 and the
// practice windows) all hold. Both moves keep the round robin intact.

type roundRobinSearch struct {
	*plan
	rng   *rand.Rand
	m     int     // positions: n rounded up to even; position m-1 rests a player when n is odd
	base  [][]int // base[r][x] = position paired with x in circle round r
	label []int   // label[x] = player at position x, -1 for the odd class's rest slot
	order []int   // order[r] = circle round played as round r
}

func newRoundRobinSearch(p *problem, rng *rand.Rand) *roundRobinSearch {
	m := p.n + p.n%2
	s := &roundRobinSearch{plan: newPlan(p), rng: rng, m: m, base: make([][]int, m-1)}
	// Circle method: position m-1 stays put, the others rotate.
	for r := 0; r < m-1; r++ {
		row := make([]int, m)
		row[m-1], row[r] = r, m-1
		for k := 1; k < m/2; k++ {
			x, y := (r+k)%(m-1), (r-k+m-1)%(m-1)
			row[x], row[y] = y, x
		}
		s.base[r] = row
	}
	return s
}

func (s *roundRobinSearch) build() {
	for r := range s.mate {
		row := s.base[s.order[r]]
		for x, y := range row {
			u := s.label[x]
			if u < 0 {
				continue
			}
			s.mate[r][u] = s.label[y] // -1 when y is the rest slot
		}
	}
	s.reindex()
}

func (s *roundRobinSearch) cost() int {
	c := 0
	for r, row := range s.mate {
		for u, v := range row {
			if v > u {
				c += s.hard(u, v, r, true)
			}
		}
	}
	return c
}

// solve returns rounds with no broken rule, or nil after iters moves.
func (s *roundRobinSearch) solve(iters int) [][]int {
	s.label = s.rng.Perm(s.m)
	for x, u := range s.label {
		if u >= s.p.n {
			s.label[x] = -1
		}
	}
	s.order = s.rng.Perm(s.m - 1)
	s.build()
	cur := s.cost()
	for it := 0; it < iters && cur > 0; it++ {
		if it%stopCheckEvery == 0 && s.p.stopped() {
			break
		}
		var undo func()
		if s.m > 3 && s.rng.IntN(2) == 0 {
			i, j := s.rng.IntN(s.m-1), s.rng.IntN(s.m-1)
			s.order[i], s.order[j] = s.order[j], s.order[i]
			undo = func() { s.order[i], s.order[j] = s.order[j], s.order[i] }
		} else {
			i, j := s.rng.IntN(s.m), s.rng.IntN(s.m)
			s.label[i], s.label[j] = s.label[j], s.label[i]
			undo = func() { s.label[i], s.label[j] = s.label[j], s.label[i] }
		}
		s.build()
		next := s.cost()
		// Accept sideways and better moves, and now and then a worse one.
		if next <= cur || s.rng.IntN(20) == 0 {
			cur = next
			continue
		}
		undo()
		s.build()
	}
	if cur > 0 {
		return nil
	}
	return s.clone()
}
