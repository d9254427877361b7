package pairing

// weightedMatcher finds a maximum-weight matching in a general graph with
// Edmonds' weighted blossom algorithm (the O(n³) primal–dual form with
// vertex labels lab and slack edges). Vertices are 1..n; blossoms take
// n+1..cap. Weights are positive; 0 means "no edge".
//
// The Swiss draw uses it for a minimum-cost perfect matching: weight =
// big − cost, big large enough that one more pair always outweighs any cost
// difference. All labels start at big, so every zero-cost edge is tight and
// a matching of zero-cost edges is a valid warm start (matched edges tight,
// no blossoms, exposed vertices with equal labels). Only the vertices the
// warm start leaves exposed need augmenting stages, which keeps a 500-player
// round to a handful of O(n²) stages.
type weightedMatcher struct {
	n, nx, cap int
	w          []int64 // (n+1)², symmetric
	// be holds the blossom rows: entry (b, x) is the representative edge
	// between blossom b and x (u in b, v in x) with its weight, so its
	// slack needs no lookup in w; u = 0 for none.
	be    []blossomEdge
	from  []int32 // blossom rows of flower_from: member of b holding vertex x
	lab   []int64
	match []int
	slack []int
	// slackD[x] is the slack (delta) of slack[x]'s edge to x, valid while
	// slackE[x] == epoch: the labels change only between the search passes
	// of a stage (epoch counts those changes), so each edge's slack is
	// computed once per pass instead of at every comparison.
	slackD  []int64
	slackE  []uint32
	epoch   uint32
	st      []int
	pa      []int
	s       []int
	vis     []int
	visT    int
	flower  [][]int
	q       []int
	bestBuf []int64 // addBlossom's scratch row
	rot     []int   // setMatch's scratch
	// mark[x] == markT when stage's scan has updated blossom x's slack
	// from the vertex it is scanning, since the last change of state.
	mark  []uint32
	markT uint32
}

func newWeightedMatcher(n int) *weightedMatcher {
	return newWeightedMatcherOn(n, make([]int64, (n+1)*(n+1)))
}

// newWeightedMatcherOn uses w, (n+1)² and symmetric, as its weights; the
// matcher writes them only through setWeight.
func newWeightedMatcherOn(n int, w []int64) *weightedMatcher {
	m := &weightedMatcher{}
	m.reset(n, w)
	return m
}

// reset readies m for a new graph on n vertices with weights w, keeping
// its buffers: the Swiss draw solves several matchings per round, and
// a 500-player matcher holds 2 MB of blossom rows. m is then exactly as
// newWeightedMatcherOn leaves it, except that blossom rows (be, from)
// keep old values: a blossom's rows are written in full when it is made
// (entries for slots not made yet as "no edge", until those are made), and
// rows are read only for blossoms made in this solve (slots up to nx, which
// starts at n).
func (m *weightedMatcher) reset(n int, w []int64) {
	c := n + n/2 + 2
	m.n, m.nx, m.cap, m.w = n, n, c, w
	m.be = resize(m.be, (c-n)*(c+1))
	m.from = resize(m.from, (c-n)*(n+1))
	m.lab = zeroed(m.lab, c+1)
	m.match = zeroed(m.match, c+1)
	m.slack = zeroed(m.slack, c+1)
	m.slackD = zeroed(m.slackD, c+1)
	m.slackE = zeroed(m.slackE, c+1)
	m.epoch = 1
	m.st = zeroed(m.st, c+1)
	m.pa = zeroed(m.pa, c+1)
	m.s = zeroed(m.s, c+1)
	m.vis = zeroed(m.vis, c+1)
	m.visT = 0
	m.flower = resize(m.flower, c+1) // a slot's list is rebuilt when its blossom is made
	m.q = m.q[:0]
	m.bestBuf = resize(m.bestBuf, c+1)
	m.mark = zeroed(m.mark, c+1)
	m.markT = 0
	for i := 0; i <= n; i++ {
		m.st[i] = i // blossom slots stay 0 until used
	}
}

// resize returns s with length n, reusing its array when large enough;
// the contents are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// zeroed returns s with length n, all zero, reusing its array.
func zeroed[T any](s []T, n int) []T {
	s = resize(s, n)
	clear(s)
	return s
}

func (m *weightedMatcher) setWeight(u, v int, w int64) {
	m.w[u*(m.n+1)+v] = w
	m.w[v*(m.n+1)+u] = w
}

func (m *weightedMatcher) weight(u, v int) int64 { return m.w[u*(m.n+1)+v] }

// edge is the representative original edge between (possibly blossom)
// vertices x and y; ok is false when there is none.
func (m *weightedMatcher) edge(x, y int) (u, v int, ok bool) {
	switch {
	case x <= m.n && y <= m.n:
		return x, y, m.weight(x, y) > 0
	case x > m.n:
		k := (x-m.n-1)*(m.cap+1) + y
		e := m.be[k]
		return int(e.u), int(e.v), e.u != 0
	default:
		k := (y-m.n-1)*(m.cap+1) + x
		e := m.be[k]
		return int(e.v), int(e.u), e.u != 0
	}
}

// rowDelta is the slack of the representative edge at index k of the
// blossom rows.
func (m *weightedMatcher) rowDelta(k int) int64 { return m.be[k].delta(m.lab) }

type blossomEdge struct {
	u, v int32
	w    int64
}

func (e blossomEdge) delta(lab []int64) int64 { return lab[e.u] + lab[e.v] - 2*e.w }

func (m *weightedMatcher) flowerFrom(b, x int) int {
	if b <= m.n {
		if b == x {
			return b
		}
		return 0
	}
	return int(m.from[(b-m.n-1)*(m.n+1)+x])
}

func (m *weightedMatcher) delta(u, v int) int64 { return m.lab[u] + m.lab[v] - 2*m.weight(u, v) }

// slackDelta is delta of slack[x]'s representative edge (slack[x] ≠ 0),
// cached for the current labels.
func (m *weightedMatcher) slackDelta(x int) int64 {
	if m.slackE[x] != m.epoch {
		if x <= m.n {
			m.slackD[x] = m.delta(m.slack[x], x)
		} else {
			m.slackD[x] = m.rowDelta((x-m.n-1)*(m.cap+1) + m.slack[x])
		}
		m.slackE[x] = m.epoch
	}
	return m.slackD[x]
}

// updateSlack makes u x's slack vertex when x has none or u's edge to x
// has strictly less slack (the first of equal edges stays).
func (m *weightedMatcher) updateSlack(u, x int) {
	if m.slack[x] == 0 {
		m.slack[x], m.slackE[x] = u, 0
		return
	}
	var d int64
	if x <= m.n { // both edges are original: no blossom row to read
		d = m.delta(u, x)
	} else {
		d = m.rowDelta((x-m.n-1)*(m.cap+1) + u)
	}
	if d < m.slackDelta(x) {
		m.slack[x] = u
		m.slackD[x], m.slackE[x] = d, m.epoch
	}
}

func (m *weightedMatcher) setSlack(x int) {
	m.slack[x] = 0
	if x <= m.n {
		row := m.w[x*(m.n+1) : (x+1)*(m.n+1)]
		for u := 1; u <= m.n; u++ {
			if row[u] > 0 && m.st[u] != x && m.s[m.st[u]] == 0 {
				m.updateSlack(u, x)
			}
		}
		return
	}
	k := (x - m.n - 1) * (m.cap + 1)
	be := m.be[k : k+m.n+1]
	for u := 1; u <= m.n; u++ {
		if be[u].u != 0 && m.st[u] != x && m.s[m.st[u]] == 0 {
			m.updateSlack(u, x)
		}
	}
}

func (m *weightedMatcher) push(x int) {
	if x <= m.n {
		m.q = append(m.q, x)
		return
	}
	for _, y := range m.flower[x] {
		m.push(y)
	}
}

func (m *weightedMatcher) setSt(x, b int) {
	m.st[x] = b
	if x > m.n {
		for _, y := range m.flower[x] {
			m.setSt(y, b)
		}
	}
}

func (m *weightedMatcher) getPr(b, xr int) int {
	f := m.flower[b]
	pr := 0
	for pr < len(f) && f[pr] != xr {
		pr++
	}
	if pr%2 == 1 {
		for i, j := 1, len(f)-1; i < j; i, j = i+1, j-1 {
			f[i], f[j] = f[j], f[i]
		}
		return len(f) - pr
	}
	return pr
}

func (m *weightedMatcher) setMatch(u, v int) {
	eu, ev, _ := m.edge(u, v)
	m.match[u] = ev
	if u <= m.n {
		return
	}
	xr := m.flowerFrom(u, eu)
	pr := m.getPr(u, xr)
	f := m.flower[u]
	for i := 0; i < pr; i++ {
		m.setMatch(f[i], f[i^1])
	}
	m.setMatch(xr, v)
	m.rot = append(append(m.rot[:0], f[pr:]...), f[:pr]...)
	copy(f, m.rot)
}

func (m *weightedMatcher) augment(u, v int) {
	for {
		xnv := m.st[m.match[u]]
		m.setMatch(u, v)
		if xnv == 0 {
			return
		}
		m.setMatch(xnv, m.st[m.pa[xnv]])
		u, v = m.st[m.pa[xnv]], xnv
	}
}

func (m *weightedMatcher) lca(u, v int) int {
	m.visT++
	for u != 0 || v != 0 {
		if u != 0 {
			if m.vis[u] == m.visT {
				return u
			}
			m.vis[u] = m.visT
			u = m.st[m.match[u]]
			if u != 0 {
				u = m.st[m.pa[u]]
			}
		}
		u, v = v, u
	}
	return 0
}

func (m *weightedMatcher) addBlossom(u, lca, v int) {
	b := m.n + 1
	for b <= m.nx && m.st[b] != 0 {
		b++
	}
	if b > m.nx {
		m.nx++
	}
	m.lab[b], m.s[b] = 0, 0
	m.match[b] = m.match[lca]
	f := append(m.flower[b][:0], lca)
	for x := u; x != lca; {
		y := m.st[m.match[x]]
		f = append(f, x, y)
		m.push(y)
		x = m.st[m.pa[y]]
	}
	for i, j := 1, len(f)-1; i < j; i, j = i+1, j-1 {
		f[i], f[j] = f[j], f[i]
	}
	for x := v; x != lca; {
		y := m.st[m.match[x]]
		f = append(f, x, y)
		m.push(y)
		x = m.st[m.pa[y]]
	}
	m.flower[b] = f
	m.setSt(b, b)
	// b's representative edge to every x: the least slack edge from any
	// member. Members that are vertices read their weight row directly and
	// members that are blossoms their edge row, with the slack kept beside
	// each candidate so it is computed once (this loop is most of the
	// matcher's time on a large score group). The first member writes
	// every entry up to nx, edge or none, so only the entries past nx need
	// clearing (they are read as "no edge" until their blossom is made).
	w := m.n + 1
	bRow := (b - m.n - 1) * (m.cap + 1)
	be := m.be[bRow : bRow+m.cap+1]
	be[0] = blossomEdge{}
	clear(be[m.nx+1:])
	best := m.bestBuf[:m.nx+1]
	for i, xs := range f {
		first := i == 0
		if xs <= m.n {
			row := m.w[xs*w : xs*w+w]
			lx := m.lab[xs]
			for x := 1; x <= m.n; x++ {
				if row[x] == 0 {
					if first {
						be[x] = blossomEdge{}
					}
					continue
				}
				if d := lx + m.lab[x] - 2*row[x]; first || be[x].u == 0 || d < best[x] {
					be[x], best[x] = blossomEdge{int32(xs), int32(x), row[x]}, d
				}
			}
			for x := m.n + 1; x <= m.nx; x++ {
				k := (x-m.n-1)*(m.cap+1) + xs
				e := m.be[k]
				if e.u == 0 {
					if first {
						be[x] = blossomEdge{}
					}
					continue
				}
				if d := e.delta(m.lab); first || be[x].u == 0 || d < best[x] {
					be[x], best[x] = blossomEdge{e.v, e.u, e.w}, d
				}
			}
			continue
		}
		xRow := (xs - m.n - 1) * (m.cap + 1)
		for x := 1; x <= m.nx; x++ {
			e := m.be[xRow+x]
			if e.u == 0 {
				if first {
					be[x] = blossomEdge{}
				}
				continue
			}
			if d := e.delta(m.lab); first || be[x].u == 0 || d < best[x] {
				be[x], best[x] = e, d
			}
		}
	}
	for x := m.n + 1; x <= m.nx; x++ { // the mirror entries in x's row
		if x == b {
			continue
		}
		k := (x-m.n-1)*(m.cap+1) + b
		m.be[k] = blossomEdge{be[x].v, be[x].u, be[x].w}
	}
	row := m.from[(b-m.n-1)*(m.n+1) : (b-m.n)*(m.n+1)]
	clear(row)
	for _, xs := range f {
		if xs <= m.n {
			row[xs] = int32(xs)
			continue
		}
		for x, v := range m.from[(xs-m.n-1)*(m.n+1) : (xs-m.n)*(m.n+1)] {
			if v != 0 {
				row[x] = int32(xs)
			}
		}
	}
	// setSlack(b), with each edge's slack at hand in best.
	sl, sd := 0, int64(0)
	for u := 1; u <= m.n; u++ {
		if be[u].u != 0 && m.st[u] != b && m.s[m.st[u]] == 0 && (sl == 0 || best[u] < sd) {
			sl, sd = u, best[u]
		}
	}
	m.slack[b] = sl
	m.slackD[b], m.slackE[b] = sd, m.epoch
}

func (m *weightedMatcher) expandBlossom(b int) {
	f := m.flower[b]
	for _, x := range f {
		m.setSt(x, x)
	}
	eu, _, _ := m.edge(b, m.pa[b])
	xr := m.flowerFrom(b, eu)
	pr := m.getPr(b, xr)
	f = m.flower[b]
	for i := 0; i < pr; i += 2 {
		xs, xns := f[i], f[i+1]
		pu, _, _ := m.edge(xns, xs)
		m.pa[xs] = pu
		m.s[xs], m.s[xns] = 1, 0
		m.slack[xs] = 0
		m.setSlack(xns)
		m.push(xns)
	}
	m.s[xr] = 1
	m.pa[xr] = m.pa[b]
	for i := pr + 1; i < len(f); i++ {
		m.s[f[i]] = -1
		m.setSlack(f[i])
	}
	m.st[b] = 0
}

func (m *weightedMatcher) onFoundEdge(eu, ev int) bool {
	u, v := m.st[eu], m.st[ev]
	switch m.s[v] {
	case -1:
		m.pa[v] = eu
		m.s[v] = 1
		nu := m.st[m.match[v]]
		m.slack[v], m.slack[nu] = 0, 0
		m.s[nu] = 0
		m.push(nu)
	case 0:
		l := m.lca(u, v)
		if l == 0 {
			m.augment(u, v)
			m.augment(v, u)
			return true
		}
		m.addBlossom(u, l, v)
	}
	return false
}

// stage runs one augmenting stage; false when no augmentation gains weight.
func (m *weightedMatcher) stage() bool {
	for x := 1; x <= m.nx; x++ {
		m.s[x], m.slack[x] = -1, 0
	}
	m.q = m.q[:0]
	for x := 1; x <= m.nx; x++ {
		if m.st[x] == x && m.match[x] == 0 {
			m.pa[x], m.s[x] = 0, 0
			m.push(x)
		}
	}
	if len(m.q) == 0 {
		return false
	}
	n := m.n
	for {
		for head := 0; head < len(m.q); head++ {
			u := m.q[head]
			su := m.st[u]
			if m.s[su] == 1 {
				continue
			}
			// Updating blossom x's slack from u again, for each of x's
			// vertices, changes nothing until a tight edge changes the
			// state: once per blossom is enough.
			m.markT++
			row := m.w[u*(n+1) : (u+1)*(n+1)]
			lu := m.lab[u]
			lab, st := m.lab[:n+1], m.st[:n+1]
			for v := 1; v <= n; v++ {
				wv := row[v]
				if wv <= 0 {
					continue
				}
				x := st[v]
				if x == su {
					continue
				}
				d := lu + lab[v] - 2*wv
				if d == 0 {
					if m.onFoundEdge(u, v) {
						return true
					}
					su = m.st[u] // a new blossom may hold u now
					m.markT++
					continue
				}
				if x != v { // v is inside blossom x
					if m.mark[x] != m.markT {
						m.mark[x] = m.markT
						m.updateSlack(u, x)
					}
					continue
				}
				switch {
				case m.slack[v] == 0:
					m.slack[v], m.slackE[v] = u, 0
				case d < m.slackDelta(v):
					m.slack[v] = u
					m.slackD[v], m.slackE[v] = d, m.epoch
				}
			}
		}
		d := int64(1) << 62
		for b := n + 1; b <= m.nx; b++ {
			if m.st[b] == b && m.s[b] == 1 {
				d = min(d, m.lab[b]/2)
			}
		}
		for x := 1; x <= m.nx; x++ {
			if m.st[x] == x && m.slack[x] != 0 {
				switch m.s[x] {
				case -1:
					d = min(d, m.slackDelta(x))
				case 0:
					d = min(d, m.slackDelta(x)/2)
				}
			}
		}
		for u := 1; u <= n; u++ {
			switch m.s[m.st[u]] {
			case 0:
				if m.lab[u] <= d {
					return false
				}
				m.lab[u] -= d
			case 1:
				m.lab[u] += d
			}
		}
		m.epoch++ // every cached slack is stale now
		for b := n + 1; b <= m.nx; b++ {
			if m.st[b] == b {
				switch m.s[b] {
				case 0:
					m.lab[b] += 2 * d
				case 1:
					m.lab[b] -= 2 * d
				}
			}
		}
		m.q = m.q[:0]
		for x := 1; x <= m.nx; x++ {
			if m.st[x] == x && m.slack[x] != 0 && m.st[m.slack[x]] != x && m.slackDelta(x) == 0 {
				a, c, _ := m.edge(m.slack[x], x)
				if m.onFoundEdge(a, c) {
					return true
				}
			}
		}
		for b := n + 1; b <= m.nx; b++ {
			if m.st[b] == b && m.s[b] == 1 && m.lab[b] == 0 {
				m.expandBlossom(b)
			}
		}
	}
}

// solve runs stages from the warm start (labels = top; pairs already in
// match must be edges of weight top). It returns the partner of each vertex,
// 0 when exposed.
func (m *weightedMatcher) solve(top int64) []int {
	for u := 1; u <= m.n; u++ {
		m.lab[u] = top
	}
	m.epoch++
	for m.stage() {
	}
	return m.match[:m.n+1]
}
