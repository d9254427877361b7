package league

// limit is every constraint on one pair folded together, for the search.
type limit struct {
	never       bool
	first, last int
	notFinal    bool
	notRoundOne bool
	soft        bool // last term's opponents under PreviousAvoid
	rules       []pairConstraint
}

func (l limit) restricted() bool {
	return l.never || l.first > 0 || l.last > 0 || l.notFinal || l.notRoundOne || l.soft
}

// problem is a draw compiled to indices: player i is d.Players[i].
type problem struct {
	d      Draw
	n      int
	rounds int
	games  int // games per player
	lim    []limit
	stop   func() bool // Options.Stop, may be nil
	halted bool
}

func compile(d Draw) *problem {
	n := len(d.Players)
	p := &problem{d: d, n: n, rounds: d.RoundCount(), games: d.GamesEach(), lim: make([]limit, n*n)}
	rel := buildRelations(d, indexOf(d.Players))
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			cs := d.constraintsFor(rel.of(u, v))
			if len(cs) == 0 {
				continue
			}
			l := limit{rules: cs}
			for _, c := range cs {
				switch c.kind {
				case cNever:
					l.never = true
				case cWindow:
					l.first = max(l.first, c.first)
					l.last = max(l.last, c.last)
				case cFinalRound:
					l.notFinal = true
				case cRoundOne:
					l.notRoundOne = true
				case cSoft:
					l.soft = true
				}
			}
			p.lim[u*n+v] = l
			p.lim[v*n+u] = l
		}
	}
	return p
}

func (p *problem) limit(u, v int) *limit { return &p.lim[u*p.n+v] }

// windowEmpty reports whether a window leaves a pair no game it may be: with
// G games, not_first + not_last ≥ G rules out every position.
func (p *problem) windowEmpty(l *limit) bool {
	return (l.first > 0 || l.last > 0) && l.first+l.last >= p.games
}
