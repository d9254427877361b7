package pairing

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// swissSolution is one round as player indices.
type swissSolution struct {
	pairs [][2]int
	bye   int // -1 for none
}

// swissCosts are the lexicographic weights of the objective, each larger
// than the most all lower terms can add up to over a round, so one sum of
// weights orders rounds exactly as the objective does.
// broken (players whose colour rule breaks) is set per graph: it must
// outweigh the largest score differences the round can hold.
type swissCosts struct{ broken, diff, avoid, strong, weak int64 }

func newSwissCosts(players int) swissCosts {
	half := int64(players/2 + 1)
	c := swissCosts{weak: 1}
	c.strong = half*2*c.weak + 1
	c.avoid = half*2*(c.strong+c.weak) + 1
	c.diff = half*(4*c.avoid+2*c.strong+2*c.weak) + 1
	return c
}

// swissGraph is the round's compatibility graph on vertices 1..n (lot
// order) plus a bye vertex n+1 when the count is odd.
type swissGraph struct {
	s *swissState
	// relaxed: a pair whose seats break a colour rule is an edge costing
	// broken per player; otherwise it is no edge (the rules are hard).
	relaxed bool
	costs   swissCosts
	lot     []int // vertex k is player lot[k-1]
	n       int   // vertices including the bye vertex
	byeV    int   // 0 when no bye
	// w holds the matcher's weights, top − cost, 0 for no edge (the bye
	// row is set per bye tier); top bounds n/2 + 1 pairs' costs, so one
	// more pair always outweighs any difference in cost.
	w      []int64
	top    int64
	minPos int     // the smallest positive score difference of an edge
	score  []int32 // per vertex − 1: the player's score in half-points
	// zero is the graph of the zero-cost pairs (weight top) on vertices
	// 0..n−1, as bitset rows of zeroWords words, without the bye vertex's.
	zero      []uint64
	zeroWords int
	sc        *swissScratch
	// warmTier is the bye tier whose warm start sc.zm holds (warm true):
	// a re-solve under a score-difference limit starts from the same
	// matching, since the limit never removes a zero-cost pair.
	warmTier int
	warm     bool
}

// pair reports whether the players at vertices x and y (1..len(lot)) may
// meet, and their score difference.
func (g *swissGraph) pair(x, y int) (diff int, ok bool) {
	d := int(g.score[x-1] - g.score[y-1])
	return max(d, -d), x != y && g.w[x*(g.n+1)+y] != 0
}

// swissScratch holds the buffers of one solve: the weight matrices and the
// matchers. A 500-player round needs about 6 MB of them; they are kept in a
// pool between draws, so a draw allocates only small slices and the
// garbage collector has almost nothing to do. Every buffer is rewritten
// before it is read, so what an earlier draw left in it never matters.
type swissScratch struct {
	w     []int64
	lim   []int64 // w with the pairs above a score-difference limit removed
	met   []uint64
	zero0 []uint64 // swissGraph.zero
	m     weightedMatcher
	zero  graph
	zm    matcher
	order []int
	// Per lot position: score, relation tags, colour order key and colour
	// costs as sente and as gote.
	score           []int32
	tags            []swissTags
	key             []int64
	asSente, asGote []int64
	brSente, brGote []int64 // 1 when taking that seat breaks a colour rule
}

type swissTags struct{ self, club, family, master int32 }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

var swissScratchPool = sync.Pool{New: func() any { return new(swissScratch) }}

// colourKey orders players for colourOrder: of two players, the one with
// the smaller key is sente. colourOrder compares sente−gote, then the last
// colour, then lets the upper player (higher score, then initial order)
// alternate; players equal on the first two have the same last colour, so
// the upper one is sente unless that last colour was sente.
func (s *swissState) colourKey(p int) int64 {
	// Smaller is upper; in (0, 2^21) for scores up to 2 × MaxSwissRounds
	// half-points and orders below MaxSwissPlayers.
	up := int64(-s.score[p])*4096 + int64(s.order[p]) + 1<<20
	if s.last[p] == 1 {
		up = 1<<21 - up
	}
	return (int64(s.colour[p]+128)*4+int64(s.last[p]+1))<<22 | up
}

// graphIn builds the graph in sc's buffers. Unless relaxed, a pair whose
// seats would break a colour rule (colour-balancing classes) is no edge.
func (s *swissState) graphIn(lot []int, sc *swissScratch, relaxed bool) *swissGraph {
	n := len(lot)
	balance := s.req.Settings.BalanceColours
	relaxed = relaxed || !balance || s.req.softColours
	g := &swissGraph{s: s, lot: lot, n: n, sc: sc, relaxed: relaxed}
	if n%2 == 1 {
		g.n++
		g.byeV = g.n
	}
	w := g.n + 1
	sc.w = resize(sc.w, w*w)
	g.w = sc.w
	g.zeroWords = (g.n + 63) / 64
	sc.zero0 = zeroed(sc.zero0, g.n*g.zeroWords)
	g.zero = sc.zero0
	c := newSwissCosts(n)
	lo, hi := s.score[lot[0]], s.score[lot[0]]
	for _, p := range lot {
		lo, hi = min(lo, s.score[p]), max(hi, s.score[p])
	}
	maxCost := int64(hi-lo)*c.diff + 4*c.avoid + 2*c.strong + 2*c.weak
	if balance && !s.req.softColours {
		// Above everything the other terms can add up to over a round.
		c.broken = int64(n/2+1)*maxCost + 1
		maxCost += 2 * c.broken
	}
	g.costs = c
	g.top = maxCost*int64(g.n+2) + 1
	// Dense copies of who met whom and the relations, per lot position, so
	// the O(n²) loop below does no map or string work.
	pos := make([]int, len(s.players))
	for i := range pos {
		pos[i] = -1
	}
	for k, p := range lot {
		pos[p] = k
	}
	words := (n + 63) / 64
	sc.met = zeroed(sc.met, n*words)
	met := sc.met
	for k := range s.met {
		a, b := pos[int(k>>32)], pos[int(k&0xffffffff)]
		if a < 0 || b < 0 { // a withdrawn player
			continue
		}
		met[a*words+b/64] |= 1 << (b % 64)
		met[b*words+a/64] |= 1 << (a % 64)
	}
	intern := map[string]int32{}
	id := func(v string) int32 {
		if k, ok := intern[v]; ok {
			return k
		}
		intern[v] = int32(len(intern) + 1)
		return int32(len(intern))
	}
	sc.score = resize(sc.score, n)
	sc.tags = resize(sc.tags, n)
	sc.key = resize(sc.key, n)
	sc.asSente = resize(sc.asSente, n)
	sc.asGote = resize(sc.asGote, n)
	sc.brSente = resize(sc.brSente, n)
	sc.brGote = resize(sc.brGote, n)
	score, tg, key, asSente, asGote := sc.score, sc.tags, sc.key, sc.asSente, sc.asGote
	brSente, brGote := sc.brSente, sc.brGote
	g.score = score
	for k, p := range lot {
		pl := s.players[p]
		tg[k] = swissTags{self: id("\x00" + pl.ID)}
		if pl.Club != "" {
			tg[k].club = id("c\x00" + pl.Club)
		}
		if pl.Family != "" {
			tg[k].family = id("f\x00" + pl.Family)
		}
		if pl.Master != "" {
			tg[k].master = id("\x00" + pl.Master)
		}
		score[k] = int32(s.score[p])
		key[k] = s.colourKey(p)
		// Each player's colour cost as sente and as gote (colourClash,
		// split per seat), so a pair's is the sum for the seats
		// colourOrder gives.
		asSente[k], asGote[k] = 0, 0
		brSente[k], brGote[k] = 0, 0
		if balance && !s.req.softColours {
			brSente[k], brGote[k] = b2i(s.breaks(p, 1)), b2i(s.breaks(p, -1))
		}
		if balance {
			if s.colour[p] >= 1 {
				asSente[k] += c.strong
			}
			if s.colour[p] <= -1 {
				asGote[k] += c.strong
			}
			if s.colour[p] == 0 && s.last[p] == 1 {
				asSente[k] += c.weak
			}
			if s.colour[p] == 0 && s.last[p] == -1 {
				asGote[k] += c.weak
			}
		}
	}
	rs := s.req.Settings.Relations
	kinds := [4]Relation{relationOr(rs.Club), relationOr(rs.MasterStudent), relationOr(rs.FellowDisciple), relationOr(rs.Family)}
	var never, avoid uint8 // bit k: relation kind k (club, 師弟, 兄弟弟子, family) is never / avoid
	for k, r := range kinds {
		never |= uint8(b2i(r == RelationNever)) << k
		avoid |= uint8(b2i(r == RelationAvoid)) << k
	}
	// Row 0, the diagonal and the bye vertex's row and column are no edge.
	clear(g.w[:w])
	minPos := int32(noLimit)
	top, cDiff, cAvoid := g.top, c.diff, c.avoid
	for x := 1; x <= n; x++ {
		ta, sa, ka := tg[x-1], score[x-1], key[x-1]
		senteA, goteA := asSente[x-1], asGote[x-1]
		brSenteA, brGoteA := brSente[x-1], brGote[x-1]
		mrow := met[(x-1)*words : x*words]
		wrow := g.w[x*w : (x+1)*w]
		zrow := g.zero[(x-1)*g.zeroWords : x*g.zeroWords]
		wrow[0], wrow[x] = 0, 0
		zx, zbit := (x-1)/64, uint64(1)<<((x-1)%64)
		// A pair's cost is symmetric (colourOrder does not depend on the
		// order of its arguments): each pair is computed once, for y > x,
		// and written to both rows (row y's entries for consecutive x share
		// a cache line). The loop has no branch that depends on the pair's
		// data except the rare rematch and never.
		for y := x + 1; y <= n; y++ {
			if mrow[(y-1)/64]&(1<<((y-1)%64)) != 0 { // no rematch
				wrow[y], g.w[y*w+x] = 0, 0
				continue
			}
			tb := tg[y-1]
			rel := uint8(b2i(ta.club != 0 && ta.club == tb.club)) |
				uint8(b2i(ta.master == tb.self || tb.master == ta.self))<<1 |
				uint8(b2i(ta.master != 0 && ta.master == tb.master))<<2 |
				uint8(b2i(ta.family != 0 && ta.family == tb.family))<<3
			if rel&never != 0 {
				wrow[y], g.w[y*w+x] = 0, 0
				continue
			}
			d := sa - score[y-1]
			sign := d >> 31
			d = (d ^ sign) - sign
			// Colour: the seats that break fewer colour rules (seats);
			// when as many, those colourOrder gives, without a branch (the
			// key of the player who is sente is the smaller).
			first := (ka - key[y-1]) >> 63 // all ones when x's player is sente
			xSente, ySente := senteA+asGote[y-1], asSente[y-1]+goteA
			colour := ySente ^ ((xSente ^ ySente) & first)
			if bx, by := brSenteA+brGote[y-1], brSente[y-1]+brGoteA; bx|by != 0 {
				switch {
				case bx < by:
					colour = xSente
				case by < bx:
					colour = ySente
				}
				if b := min(bx, by); b > 0 {
					if !relaxed {
						wrow[y], g.w[y*w+x] = 0, 0
						continue
					}
					colour += b * c.broken
				}
			}
			cost := int64(d)*cDiff + int64(bits.OnesCount8(rel&avoid))*cAvoid + colour
			wrow[y], g.w[y*w+x] = top-cost, top-cost
			isZero := uint64(b2i(cost == 0))
			zrow[(y-1)/64] |= isZero << ((y - 1) % 64)
			g.zero[(y-1)*g.zeroWords+zx] |= isZero * zbit
			pos := d
			if pos == 0 {
				pos = noLimit
			}
			minPos = min(minPos, pos)
		}
		if g.byeV != 0 {
			wrow[g.byeV] = 0
		}
	}
	if g.byeV != 0 {
		clear(g.w[g.byeV*w : (g.byeV+1)*w])
	}
	g.minPos = int(minPos)
	return g
}

// byeTiers are the score levels, lowest first, of the players who have not
// had a bye: the bye goes to the first level that leaves a valid round.
func (g *swissGraph) byeTiers() []int {
	var t []int
	for _, p := range g.lot {
		if !g.s.hadBye[p] {
			t = append(t, g.s.score[p])
		}
	}
	slices.Sort(t)
	return slices.Compact(t)
}

// match finds a minimum-cost perfect matching using only edges with score
// difference ≤ limit and bye edges to players without a bye scoring ≤
// byeTier. ok is false when no perfect matching exists.
func (g *swissGraph) match(limit, byeTier int) (swissSolution, bool) {
	w := g.n + 1
	top := g.top
	sc := g.sc
	// Without a limit the matcher reads the graph's weights as they are
	// (it never writes them); a limit works on a copy without the pairs
	// above it.
	weights := g.w
	if limit < noLimit {
		sc.lim = resize(sc.lim, len(g.w))
		weights = sc.lim
		players := len(g.lot)
		for x := 0; x < w; x++ {
			row, lrow := g.w[x*w:(x+1)*w], weights[x*w:(x+1)*w]
			copy(lrow, row)
			if x == 0 || x > players {
				continue
			}
			sx := g.score[x-1]
			for y := 1; y <= players; y++ {
				d := sx - g.score[y-1]
				d = max(d, -d)
				over := int64(int32(limit)-d) >> 63 // all ones when d > limit
				lrow[y] &^= over
			}
		}
	}
	m := &sc.m
	m.reset(g.n, weights)
	if g.byeV != 0 { // the bye row is this tier's, whatever an earlier call left
		for x := 1; x < g.byeV; x++ {
			p := g.lot[x-1]
			if !g.s.hadBye[p] && g.s.score[p] <= byeTier {
				m.setWeight(x, g.byeV, top)
			} else {
				m.setWeight(x, g.byeV, 0)
			}
		}
	}
	// Warm start: a maximum matching of the zero-cost pairs (all tight):
	// those of difference 0, so within any limit ≥ 0, and this tier's bye
	// pairs. It depends on nothing else, so a tier's is computed once.
	zm := &sc.zm
	if !g.warm || g.warmTier != byeTier || limit < 0 {
		zero := &sc.zero
		zero.reset(g.n)
		if limit >= 0 {
			copy(zero.adj, g.zero)
		}
		if g.byeV != 0 {
			for x := 1; x < g.byeV; x++ {
				if p := g.lot[x-1]; !g.s.hadBye[p] && g.s.score[p] <= byeTier {
					zero.link(x-1, g.byeV-1)
				}
			}
		}
		sc.order = resize(sc.order, g.n)
		order := sc.order
		for i := range order {
			order[i] = i
		}
		zm.reset(zero)
		zm.greedy(order)
		zm.maximize(order)
		g.warm, g.warmTier = limit >= 0, byeTier
	}
	for v, u := range zm.match {
		if u >= 0 {
			m.match[v+1] = u + 1
		}
	}
	mate := m.solve(top)
	sol := swissSolution{bye: -1}
	for x := 1; x < w; x++ {
		y := mate[x]
		if y == 0 {
			return swissSolution{}, false
		}
		if x == g.byeV || y < x {
			continue
		}
		if y == g.byeV {
			sol.bye = g.lot[x-1]
			continue
		}
		sol.pairs = append(sol.pairs, [2]int{g.lot[x-1], g.lot[y-1]})
	}
	return sol, true
}

// brokenIn counts the players whose colour rule sol breaks, with the seats
// the draw would give (colour-balancing classes only).
func (s *swissState) brokenIn(sol swissSolution) int {
	if !s.req.Settings.BalanceColours || s.req.softColours {
		return 0
	}
	k := 0
	for _, p := range sol.pairs {
		b, _, _ := s.colourClash(p[0], p[1])
		k += b
	}
	return k
}

func (s *swissState) diffs(sol swissSolution) (sum, mx int) {
	for _, p := range sol.pairs {
		d := s.score[p[0]] - s.score[p[1]]
		if d < 0 {
			d = -d
		}
		sum += d
		mx = max(mx, d)
	}
	return sum, mx
}

// noLimit is a score-difference limit that keeps every pair.
const noLimit = 1 << 30

// solve draws the round: the lowest bye tier that leaves a valid round, the
// smallest score differences in it (solveTiers).
//
// In a colour-balancing class the colour rules (no third game in a row on
// one side, sente−gote within ±2 before the class's last round and ±1 in
// it) are hard first: the graph has no pair
// whose seats would break one, and the bye tiers are tried on it. Only when
// no tier leaves a round are the rules relaxed: such pairs come back at a
// cost above every other term, so the fewest players break them, and the
// bye goes to the lowest tier that leaves any round.
func (s *swissState) solve(lot []int) (swissSolution, error) {
	sc := swissScratchPool.Get().(*swissScratch)
	defer swissScratchPool.Put(sc)
	g := s.graphIn(lot, sc, false)
	tiers := []int{noLimit}
	if g.byeV != 0 {
		tiers = g.byeTiers()
		if len(tiers) == 0 {
			return swissSolution{}, &NoSwissPairingError{Reason: "an odd number of players and every one of them has had the bye (one bye per player)"}
		}
	}
	if sol, ok := g.solveTiers(tiers); ok {
		return sol, nil
	}
	if !g.relaxed {
		g = s.graphIn(lot, sc, true)
		if sol, ok := g.solveTiers(tiers); ok {
			return sol, nil
		}
	}
	return swissSolution{}, s.noPairing(g)
}

// solveTiers applies the bye tiers, then tightens the largest score
// difference while the colour rules broken and the sum stay minimal.
func (g *swissGraph) solveTiers(tiers []int) (swissSolution, bool) {
	s := g.s
	for _, tier := range tiers {
		sol, ok := g.match(noLimit, tier)
		if !ok {
			continue
		}
		sum, mx := s.diffs(sol)
		broken := 0
		if g.relaxed {
			broken = s.brokenIn(sol)
		}
		for sum > 0 && mx > g.minPos {
			better, ok := g.match(mx-1, tier)
			if !ok {
				break
			}
			if bs, bm := s.diffs(better); bs == sum && (!g.relaxed || s.brokenIn(better) == broken) {
				sol, mx = better, bm
				continue
			}
			break
		}
		return sol, true
	}
	return swissSolution{}, false
}

// noPairing explains an impossible round with the Gallai–Edmonds
// decomposition of a maximum matching of the hard-rule graph.
func (s *swissState) noPairing(g *swissGraph) error {
	ug := newGraph(g.n)
	for x := 1; x <= len(g.lot); x++ {
		for y := x + 1; y <= len(g.lot); y++ {
			if _, ok := g.pair(x, y); ok {
				ug.link(x-1, y-1)
			}
		}
	}
	if g.byeV != 0 {
		for x := 1; x < g.byeV; x++ {
			if !s.hadBye[g.lot[x-1]] {
				ug.link(x-1, g.byeV-1)
			}
		}
	}
	order := make([]int, g.n)
	for i := range order {
		order[i] = i
	}
	m := newMatcher(ug)
	m.greedy(order)
	m.maximize(order)
	// Players by id, as the input gives them (a caller with names maps
	// them; a display name need not be unique).
	name := func(v int) string {
		if v+1 == g.byeV {
			return "(bye)"
		}
		return s.players[g.lot[v]].ID
	}
	e := &NoSwissPairingError{Groups: [][]string{}, Barrier: []string{}}
	d, ok := m.decompose()
	if ok {
		for _, grp := range d.odd {
			var names []string
			for _, v := range grp {
				names = append(names, name(v))
			}
			e.Groups = append(e.Groups, names)
		}
		for _, v := range d.barrier {
			e.Barrier = append(e.Barrier, name(v))
		}
	}
	var parts []string
	for _, grp := range e.Groups {
		parts = append(parts, "{"+strings.Join(grp, ", ")+"}")
	}
	e.Reason = fmt.Sprintf("every round would repeat a game, pair a 'never' relation or give a second bye: "+
		"%d groups with an odd number of players (%s) may meet only each other or the %d players of the barrier [%s]",
		len(e.Groups), strings.Join(parts, " "), len(e.Barrier), strings.Join(e.Barrier, ", "))
	return e
}
