package pairing

import (
	"fmt"
	"slices"
	"strings"
)

// swissSolution is one round as player indices.
type swissSolution struct {
	pairs [][2]int
	bye   int // -1 for none
}

// swissCosts are the lexicographic weights of the objective, each larger
// than the most all lower terms can add up to over a round, so one sum of
// weights orders rounds exactly as the objective does.
type swissCosts struct{ diff, avoid, strong, weak int64 }

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
	s    *swissState
	lot  []int   // vertex k is player lot[k-1]
	n    int     // vertices including the bye vertex
	byeV int     // 0 when no bye
	diff []int16 // half-points, (n+1)²; -1 no edge
	// w holds the matcher's weights, top − cost, 0 for no edge (the bye
	// row is set per bye tier); top bounds n/2 + 1 pairs' costs, so one
	// more pair always outweighs any difference in cost.
	w   []int64
	top int64
}

func (s *swissState) graph(lot []int) *swissGraph {
	n := len(lot)
	g := &swissGraph{s: s, lot: lot, n: n}
	if n%2 == 1 {
		g.n++
		g.byeV = g.n
	}
	w := g.n + 1
	g.diff = make([]int16, w*w)
	g.w = make([]int64, w*w)
	for i := range g.diff {
		g.diff[i] = -1
	}
	c := newSwissCosts(n)
	lo, hi := s.score[lot[0]], s.score[lot[0]]
	for _, p := range lot {
		lo, hi = min(lo, s.score[p]), max(hi, s.score[p])
	}
	maxCost := int64(hi-lo)*c.diff + 4*c.avoid + 2*c.strong + 2*c.weak
	g.top = maxCost*int64(g.n+2) + 1
	// Dense copies of who met whom and the relations, so the O(n²) loop
	// below does no map or string work.
	pos := make([]int, len(s.players))
	for k, p := range lot {
		pos[p] = k
	}
	met := make([]bool, n*n)
	for k := range s.met {
		a, b := int(k>>32), int(k&0xffffffff)
		if s.players[a].Withdrawn || s.players[b].Withdrawn {
			continue
		}
		met[pos[a]*n+pos[b]], met[pos[b]*n+pos[a]] = true, true
	}
	intern := map[string]int{}
	id := func(v string) int {
		if v == "" {
			return 0
		}
		if k, ok := intern[v]; ok {
			return k
		}
		intern[v] = len(intern) + 1
		return len(intern)
	}
	type tags struct{ self, club, family, master int }
	tg := make([]tags, n)
	for k, p := range lot {
		pl := s.players[p]
		tg[k] = tags{self: id("\x00" + pl.ID), club: id("c\x00" + pl.Club), family: id("f\x00" + pl.Family), master: id("\x00" + pl.Master)}
		if pl.Club == "" {
			tg[k].club = 0
		}
		if pl.Family == "" {
			tg[k].family = 0
		}
		if pl.Master == "" {
			tg[k].master = 0
		}
	}
	rs := s.req.Settings.Relations
	kinds := [4]Relation{relationOr(rs.Club), relationOr(rs.MasterStudent), relationOr(rs.FellowDisciples), relationOr(rs.Family)}
	var never, avoid [4]bool
	for k, r := range kinds {
		never[k], avoid[k] = r == RelationNever, r == RelationAvoid
	}
	balance := s.req.Settings.BalanceColours
	// Each player's colour cost as sente and as gote (colourClash, split
	// per seat), so a pair's is the sum for the seats colourOrder gives.
	asSente, asGote := make([]int64, len(s.players)), make([]int64, len(s.players))
	if balance {
		for _, p := range lot {
			if s.colour[p] >= 1 {
				asSente[p] += c.strong
			}
			if s.colour[p] <= -1 {
				asGote[p] += c.strong
			}
			if s.colour[p] == 0 && s.last[p] == 1 {
				asSente[p] += c.weak
			}
			if s.colour[p] == 0 && s.last[p] == -1 {
				asGote[p] += c.weak
			}
		}
	}
	for x := 1; x <= n; x++ {
		a := lot[x-1]
		ta := tg[x-1]
		for y := x + 1; y <= n; y++ {
			if met[(x-1)*n+y-1] { // no rematch
				continue
			}
			b := lot[y-1]
			tb := tg[y-1]
			holds := [4]bool{ta.club != 0 && ta.club == tb.club,
				ta.master == tb.self || tb.master == ta.self,
				ta.master != 0 && ta.master == tb.master,
				ta.family != 0 && ta.family == tb.family}
			if (holds[0] && never[0]) || (holds[1] && never[1]) || (holds[2] && never[2]) || (holds[3] && never[3]) {
				continue
			}
			var kept int64
			for k, h := range holds {
				if h && avoid[k] {
					kept++
				}
			}
			d := s.score[a] - s.score[b]
			if d < 0 {
				d = -d
			}
			cost := int64(d)*c.diff + kept*c.avoid
			if balance {
				se, gt := s.colourOrder(a, b)
				cost += asSente[se] + asGote[gt]
			}
			g.diff[x*w+y], g.diff[y*w+x] = int16(d), int16(d)
			g.w[x*w+y], g.w[y*w+x] = g.top-cost, g.top-cost
		}
	}
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
	// Without a limit the matcher reads the graph's weights as they are
	// (it never writes them); a limit works on a copy without the pairs
	// above it. The warm start's zero-cost graph is read off the same rows.
	weights := g.w
	if limit < noLimit {
		weights = slices.Clone(g.w)
	}
	zero := newGraph(g.n)
	for x := 1; x < w; x++ {
		if x == g.byeV {
			continue
		}
		drow, wrow := g.diff[x*w:(x+1)*w], weights[x*w:(x+1)*w]
		for y := 1; y < w; y++ {
			if d := int(drow[y]); d > limit {
				wrow[y] = 0
			} else if y > x && y != g.byeV && wrow[y] == top {
				zero.link(x-1, y-1)
			}
		}
	}
	m := newWeightedMatcherOn(g.n, weights)
	if g.byeV != 0 { // the bye row is this tier's, whatever an earlier call left
		for x := 1; x < g.byeV; x++ {
			p := g.lot[x-1]
			if !g.s.hadBye[p] && g.s.score[p] <= byeTier {
				m.setWeight(x, g.byeV, top)
				zero.link(x-1, g.byeV-1)
			} else {
				m.setWeight(x, g.byeV, 0)
			}
		}
	}
	// Warm start: a maximum matching of the zero-cost pairs (all tight).
	order := make([]int, g.n)
	for i := range order {
		order[i] = i
	}
	zm := newMatcher(zero)
	zm.greedy(order)
	zm.maximize(order)
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

// solve applies the bye tiers, then tightens the largest score difference
// while the sum stays minimal.
// noLimit is a score-difference limit that keeps every pair.
const noLimit = 1 << 30

func (s *swissState) solve(lot []int) (swissSolution, error) {
	g := s.graph(lot)
	tiers := []int{noLimit}
	if g.byeV != 0 {
		tiers = g.byeTiers()
		if len(tiers) == 0 {
			return swissSolution{}, &NoSwissPairingError{Reason: "an odd number of players and every one of them has had the bye (one bye per player)"}
		}
	}
	for _, tier := range tiers {
		sol, ok := g.match(noLimit, tier)
		if !ok {
			continue
		}
		sum, mx := s.diffs(sol)
		minPos := noLimit
		for _, d := range g.diff {
			if d > 0 {
				minPos = min(minPos, int(d))
			}
		}
		for sum > 0 && mx > minPos {
			better, ok := g.match(mx-1, tier)
			if !ok {
				break
			}
			if bs, bm := s.diffs(better); bs == sum {
				sol, mx = better, bm
				continue
			}
			break
		}
		return sol, nil
	}
	return swissSolution{}, s.noPairing(g)
}

// noPairing explains an impossible round with the Gallai–Edmonds
// decomposition of a maximum matching of the hard-rule graph.
func (s *swissState) noPairing(g *swissGraph) error {
	ug := newGraph(g.n)
	w := g.n + 1
	for x := 1; x < w; x++ {
		for y := x + 1; y < w; y++ {
			if g.diff[x*w+y] >= 0 {
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
	name := func(v int) string {
		if v+1 == g.byeV {
			return "(bye)"
		}
		p := s.players[g.lot[v]]
		if p.Name != "" {
			return p.Name
		}
		return p.ID
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
