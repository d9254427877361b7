package league

import "math/rand/v2"

// Partial schedules (B2, C1, C2): every player plays p.games games against
// distinct classmates. The rests are fixed first (odd classes: one each,
// spread so that every round has an odd number of resters), which fixes
// every player's game numbering; then each round is a perfect matching of
// the players not resting, repaired by local search: take a conflicting
// game (a,b) and another game (c,d) of the same round and re-pair them as
// (a,c),(b,d) when that lowers the cost.

const (
	wHard = 100 // a broken hard rule or a pair met twice
	wSoft = 1   // a last-term rematch under PreviousAvoid
)

type partialSearch struct {
	*plan
	rng      *rand.Rand
	cnt      []uint8 // times each pair meets
	softHard bool    // treat last-term opponents as forbidden
	allow    []bool  // when set, only these last-term pairs (n*n) may meet
	bad      [][2]int
}

func newPartialSearch(p *problem, rng *rand.Rand, softHard bool) *partialSearch {
	return &partialSearch{plan: newPlan(p), rng: rng, cnt: make([]uint8, p.n*p.n), softHard: softHard}
}

// assignRests gives each player one rest round in an odd class; every
// round gets an odd number of resters, as evenly as possible.
func (s *partialSearch) assignRests() {
	p := s.p
	for r := range s.mate {
		for u := range s.mate[r] {
			s.mate[r][u] = 0 // playing; paired later
		}
	}
	if p.n%2 == 0 {
		return
	}
	size := make([]int, p.rounds)
	for r := range size {
		size[r] = 1
	}
	order := s.rng.Perm(p.rounds)
	for extra, k := p.n-p.rounds, 0; extra > 0; extra, k = extra-2, k+1 {
		size[order[k%p.rounds]] += 2
	}
	players := s.rng.Perm(p.n)
	k := 0
	for r, sz := range size {
		for range sz {
			s.mate[r][players[k]] = -1
			k++
		}
	}
}

func (s *partialSearch) edgeCost(u, v, r int) int {
	c := wHard * s.hard(u, v, r, s.softHard)
	if !s.softHard && s.p.limit(u, v).soft {
		if s.allow != nil && !s.allow[u*s.p.n+v] {
			c += wHard
		} else {
			c += wSoft
		}
	}
	return c
}

// initial pairs each round greedily: each player takes a random partner
// that costs nothing, if there is one.
func (s *partialSearch) initial() {
	p := s.p
	s.reindex()
	clear(s.cnt)
	free := make([]int, 0, p.n)
	for r := 0; r < p.rounds; r++ {
		free = free[:0]
		for _, u := range s.rng.Perm(p.n) {
			if s.mate[r][u] >= 0 {
				free = append(free, u)
			}
		}
		for len(free) > 0 {
			u := free[0]
			free = free[1:]
			pick := -1
			off := s.rng.IntN(len(free))
			for k := range free {
				j := (k + off) % len(free)
				v := free[j]
				if s.cnt[u*p.n+v] == 0 && s.edgeCost(u, v, r) == 0 {
					pick = j
					break
				}
			}
			if pick < 0 {
				pick = off
			}
			v := free[pick]
			free[pick] = free[len(free)-1]
			free = free[:len(free)-1]
			s.pairUp(r, u, v)
		}
	}
}

func (s *partialSearch) pairUp(r, u, v int) {
	s.mate[r][u], s.mate[r][v] = v, u
	s.cnt[u*s.p.n+v]++
	s.cnt[v*s.p.n+u]++
}

func (s *partialSearch) unpair(r, u, v int) {
	s.cnt[u*s.p.n+v]--
	s.cnt[v*s.p.n+u]--
}

// collectBad lists the games that cost something; hardLeft says whether
// any of them breaks a hard rule (soft ones are last-term rematches).
func (s *partialSearch) collectBad() (hardLeft bool, soft int) {
	n := s.p.n
	s.bad = s.bad[:0]
	for r := 0; r < s.p.rounds; r++ {
		row := s.mate[r]
		for u, v := range row {
			if v <= u {
				continue
			}
			c := s.edgeCost(u, v, r)
			if s.cnt[u*n+v] > 1 {
				c += wHard
			}
			if c == 0 {
				continue
			}
			s.bad = append(s.bad, [2]int{r, u})
			if c >= wHard {
				hardLeft = true
			} else {
				soft++
			}
		}
	}
	return hardLeft, soft
}

// swapDelta is the change in cost of replacing (a,b),(c,d) by (a,c),(b,d)
// in round r.
func (s *partialSearch) swapDelta(r, a, b, c, d int) int {
	n := s.p.n
	delta := s.edgeCost(a, c, r) + s.edgeCost(b, d, r) - s.edgeCost(a, b, r) - s.edgeCost(c, d, r)
	if s.cnt[a*n+b] > 1 {
		delta -= wHard
	}
	if s.cnt[c*n+d] > 1 {
		delta -= wHard
	}
	if s.cnt[a*n+c] > 0 {
		delta += wHard
	}
	if s.cnt[b*n+d] > 0 {
		delta += wHard
	}
	return delta
}

// step re-pairs one conflicting game; noise picks a random partner game
// now and then so the search leaves local minima.
func (s *partialSearch) step() {
	pick := s.bad[s.rng.IntN(len(s.bad))]
	r, a := pick[0], pick[1]
	b := s.mate[r][a]
	row := s.mate[r]
	bestC, bestDelta, ties := -1, 0, 0
	if s.rng.IntN(10) == 0 {
		for tries := 0; tries < 8 && bestC < 0; tries++ {
			c := s.rng.IntN(s.p.n)
			if c != a && c != b && row[c] >= 0 {
				bestC = c
			}
		}
	} else {
		for c, d := range row {
			if d < 0 || c == a || c == b {
				continue
			}
			delta := s.swapDelta(r, a, b, c, d)
			switch {
			case bestC < 0 || delta < bestDelta:
				bestC, bestDelta, ties = c, delta, 1
			case delta == bestDelta:
				ties++
				if s.rng.IntN(ties) == 0 {
					bestC = c
				}
			}
		}
	}
	if bestC < 0 {
		return
	}
	c := bestC
	d := row[c]
	s.unpair(r, a, b)
	s.unpair(r, c, d)
	s.pairUp(r, a, c)
	s.pairUp(r, b, d)
}

// solve runs one restart: it returns the best hard-feasible rounds found
// and their number of last-term rematches, or nil. It stops early once the
// rematches reach floor (the known lower bound).
func (s *partialSearch) solve(iters, floor int) ([][]int, int) {
	s.assignRests()
	s.initial()
	var best [][]int
	bestSoft := -1
	sinceBest := 0
	for it := 0; it < iters; it++ {
		if it%stopCheckEvery == 0 && s.p.stopped() {
			break
		}
		hardLeft, soft := s.collectBad()
		if !hardLeft {
			if best == nil || soft < bestSoft {
				best, bestSoft, sinceBest = s.clone(), soft, 0
			}
			if soft <= floor {
				break
			}
			sinceBest++
			if sinceBest > iters/4 {
				break
			}
		}
		s.step()
	}
	return best, bestSoft
}
