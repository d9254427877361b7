package pairing

import "math/bits"

// graph is a simple undirected graph on vertices 0..n-1 held as adjacency
// bitsets: the draw's compatibility graph is dense (most players may meet),
// so a bit per pair is both small and fast to scan.
type graph struct {
	n     int
	words int
	adj   []uint64
}

func newGraph(n int) *graph {
	w := (n + 63) / 64
	return &graph{n: n, words: w, adj: make([]uint64, n*w)}
}

// reset empties g and resizes it to n vertices, reusing its bitsets.
func (g *graph) reset(n int) {
	g.n, g.words = n, (n+63)/64
	g.adj = zeroed(g.adj, n*g.words)
}

func (g *graph) link(a, b int) {
	g.adj[a*g.words+b/64] |= 1 << (b % 64)
	g.adj[b*g.words+a/64] |= 1 << (a % 64)
}

func (g *graph) unlink(a, b int) {
	g.adj[a*g.words+b/64] &^= 1 << (b % 64)
	g.adj[b*g.words+a/64] &^= 1 << (a % 64)
}

func (g *graph) has(a, b int) bool { return g.adj[a*g.words+b/64]&(1<<(b%64)) != 0 }

// each calls fn for every neighbour of v in increasing order.
func (g *graph) each(v int, fn func(w int)) {
	row := g.adj[v*g.words : (v+1)*g.words]
	for i, word := range row {
		for word != 0 {
			fn(i*64 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}

// matcher finds a maximum matching in a general graph with Edmonds' blossom
// algorithm, and from it the Gallai–Edmonds decomposition that explains why
// no perfect matching exists.
type matcher struct {
	g       *graph
	match   []int
	parent  []int
	base    []int
	outer   []bool
	inBloom []bool
	mark    []bool
	queue   []int
}

func newMatcher(g *graph) *matcher {
	m := &matcher{}
	m.reset(g)
	return m
}

// reset readies m for g with no pair matched, reusing its arrays.
func (m *matcher) reset(g *graph) {
	m.g = g
	m.match = resize(m.match, g.n)
	m.parent = zeroed(m.parent, g.n)
	m.base = zeroed(m.base, g.n)
	m.outer = zeroed(m.outer, g.n)
	m.inBloom = zeroed(m.inBloom, g.n)
	m.mark = zeroed(m.mark, g.n)
	m.queue = m.queue[:0]
	for i := range m.match {
		m.match[i] = -1
	}
}

// greedy matches vertices in the given order to their first free neighbour;
// a cheap start that leaves few augmenting paths to find.
func (m *matcher) greedy(order []int) {
	for _, v := range order {
		if m.match[v] != -1 {
			continue
		}
		m.g.each(v, func(w int) {
			if m.match[v] == -1 && m.match[w] == -1 {
				m.match[v], m.match[w] = w, v
			}
		})
	}
}

// maximize augments from every exposed vertex; a vertex that fails once can
// never gain a partner later (Berge), so one pass suffices.
func (m *matcher) maximize(order []int) {
	for _, v := range order {
		if m.match[v] != -1 {
			continue
		}
		if end := m.search([]int{v}); end >= 0 {
			m.augment(end)
		}
	}
}

func (m *matcher) size() int {
	k := 0
	for _, w := range m.match {
		if w != -1 {
			k++
		}
	}
	return k / 2
}

// search grows an alternating forest from roots (exposed vertices). It
// returns an exposed non-root vertex ending an augmenting path from a single
// root, or -1. With several roots it returns -2 when two trees touch (an
// augmenting path between roots exists), which a maximum matching rules out.
func (m *matcher) search(roots []int) int {
	for i := range m.parent {
		m.parent[i] = -1
		m.base[i] = i
		m.outer[i] = false
	}
	m.queue = m.queue[:0]
	for _, r := range roots {
		m.outer[r] = true
		m.queue = append(m.queue, r)
	}
	for head := 0; head < len(m.queue); head++ {
		v := m.queue[head]
		found := -1
		m.g.each(v, func(to int) {
			if found != -1 || m.base[v] == m.base[to] || m.match[v] == to {
				return
			}
			if m.outer[to] {
				b := m.lca(v, to)
				if b < 0 {
					found = -2
					return
				}
				m.contract(v, to, b)
				return
			}
			if m.parent[to] != -1 {
				return // already an inner vertex
			}
			m.parent[to] = v
			if m.match[to] == -1 {
				found = to
				return
			}
			m.outer[m.match[to]] = true
			m.queue = append(m.queue, m.match[to])
		})
		if found != -1 {
			return found
		}
	}
	return -1
}

// lca is the base of the blossom closed by edge a–b, or -1 when a and b lie
// in different trees.
func (m *matcher) lca(a, b int) int {
	for i := range m.mark {
		m.mark[i] = false
	}
	for {
		a = m.base[a]
		m.mark[a] = true
		if m.match[a] == -1 {
			break
		}
		a = m.parent[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.mark[b] {
			return b
		}
		if m.match[b] == -1 {
			return -1
		}
		b = m.parent[m.match[b]]
	}
}

func (m *matcher) contract(v, to, b int) {
	for i := range m.inBloom {
		m.inBloom[i] = false
	}
	m.markPath(v, b, to)
	m.markPath(to, b, v)
	for i := 0; i < m.g.n; i++ {
		if m.inBloom[m.base[i]] {
			m.base[i] = b
			if !m.outer[i] {
				m.outer[i] = true
				m.queue = append(m.queue, i)
			}
		}
	}
}

func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.inBloom[m.base[v]] = true
		m.inBloom[m.base[m.match[v]]] = true
		m.parent[v] = child
		child = m.match[v]
		v = m.parent[m.match[v]]
	}
}

func (m *matcher) augment(end int) {
	for v := end; v != -1; {
		pv := m.parent[v]
		next := m.match[pv]
		m.match[v], m.match[pv] = pv, v
		v = next
	}
}

// decomposition is the Gallai–Edmonds structure of a maximum matching:
// odd holds the components of G[D] (vertices some maximum matching misses),
// barrier is A (their neighbours outside D). Every component of G−A that
// meets D is odd, so when len(odd) > len(barrier) no perfect matching exists
// — a Tutte certificate a person can check by hand.
type decomposition struct {
	barrier []int
	odd     [][]int
}

// decompose must be called on a maximum matching.
func (m *matcher) decompose() (decomposition, bool) {
	var roots []int
	for v, w := range m.match {
		if w == -1 {
			roots = append(roots, v)
		}
	}
	if len(roots) == 0 {
		return decomposition{}, true
	}
	if m.search(roots) == -2 {
		return decomposition{}, false
	}
	var d decomposition
	inD := make([]bool, m.g.n)
	for v := range inD {
		inD[v] = m.outer[v]
		if !m.outer[v] && m.parent[v] != -1 {
			d.barrier = append(d.barrier, v)
		}
	}
	seen := make([]bool, m.g.n)
	for v := range inD {
		if !inD[v] || seen[v] {
			continue
		}
		comp := []int{v}
		seen[v] = true
		for i := 0; i < len(comp); i++ {
			m.g.each(comp[i], func(w int) {
				if inD[w] && !seen[w] {
					seen[w] = true
					comp = append(comp, w)
				}
			})
		}
		d.odd = append(d.odd, comp)
	}
	return d, true
}
