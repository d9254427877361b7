package league

// plan is a schedule under construction: who meets whom in each round.
// mate[r][u] is u's opponent in round r, or -1 when u rests; idx[u][r] is
// the number of u's game in round r counted from 0 (-1 when resting).
type plan struct {
	p    *problem
	mate [][]int
	idx  [][]int
}

func newPlan(p *problem) *plan {
	pl := &plan{p: p, mate: make([][]int, p.rounds), idx: make([][]int, p.n)}
	for r := range pl.mate {
		pl.mate[r] = make([]int, p.n)
	}
	for u := range pl.idx {
		pl.idx[u] = make([]int, p.rounds)
	}
	return pl
}

// reindex recomputes idx from mate.
func (pl *plan) reindex() {
	for u := 0; u < pl.p.n; u++ {
		k := 0
		for r := 0; r < pl.p.rounds; r++ {
			if pl.mate[r][u] < 0 {
				pl.idx[u][r] = -1
				continue
			}
			pl.idx[u][r] = k
			k++
		}
	}
}

// hard counts the position rules a game of u and v in round r breaks.
// softHard makes last term's opponents (PreviousAvoid) count as forbidden.
func (pl *plan) hard(u, v, r int, softHard bool) int {
	l := pl.p.limit(u, v)
	if !l.restricted() {
		return 0
	}
	c := 0
	if l.never || (softHard && l.soft) {
		c++
	}
	if l.first > 0 || l.last > 0 {
		g := pl.p.games
		for _, x := range [2]int{u, v} {
			if i := pl.idx[x][r]; i < l.first || i >= g-l.last {
				c++
			}
		}
	}
	if l.notFinal && r == pl.p.rounds-1 {
		c++
	}
	if l.notRoundOne && r == 0 {
		c++
	}
	return c
}

func (pl *plan) clone() [][]int {
	out := make([][]int, len(pl.mate))
	for r := range pl.mate {
		out[r] = append([]int(nil), pl.mate[r]...)
	}
	return out
}

func (pl *plan) restore(m [][]int) {
	for r := range m {
		copy(pl.mate[r], m[r])
	}
	pl.reindex()
}
