package league

// D-C1 (001 第8条C1): last term's opponents only when no schedule exists
// without them, and then as few as possible.
//
// The search (Generate) restarts until a schedule meets the counting
// bound of feasibility() or its restarts run out. When it stops above
// that bound, exactRematchFloor tries to close the gap from below: every
// schedule's games form a graph in which each player meets p.games
// distinct allowed classmates, so the fewest last-term pairs of any such
// graph is a lower bound for every schedule. A branch and bound over the
// allowed pairs, with a node budget, either proves that no such graph has
// fewer last-term pairs than the schedule found (then the count is
// proven minimal) or gives up (the count is reported as best_found with
// the counting bound beside it).

// gophersat's pseudo-boolean Minimize was tried for this bound and did not
// finish on a 15-player class in minutes (counting arguments are hard for
// its resolution), and it cannot be interrupted; hence the budgeted search.

// rematchNodes bounds the branch and bound (nodes visited).
const rematchNodes = 20_000_000

// exactRematchFloor returns the fewest last-term pairs in any game graph
// if that is below upper, or upper itself when none has fewer; done is
// false when the node budget (or the caller's Stop) ran out first. allow
// marks (n*n) the last-term pairs of the best graph found below upper,
// nil if none was.
func (p *problem) exactRematchFloor(upper int) (floor int, done bool, allow []bool) {
	n, g := p.n, p.games
	type edge struct {
		u, v int
		soft bool
	}
	var es []edge
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			l := p.limit(u, v)
			if l.never || p.windowEmpty(l) {
				continue
			}
			es = append(es, edge{u, v, l.soft})
		}
	}
	deg := make([]int, n)
	cleanLeft := make([]int, n) // undecided clean pairs per player
	left := make([]int, n)      // undecided pairs per player
	for _, e := range es {
		left[e.u]++
		left[e.v]++
		if !e.soft {
			cleanLeft[e.u]++
			cleanLeft[e.v]++
		}
	}
	best := upper
	chosen := make([]bool, len(es))
	nodes := 0
	aborted := false
	var rec func(i, soft int)
	rec = func(i, soft int) {
		if aborted {
			return
		}
		nodes++
		if nodes > rematchNodes || (nodes%4096 == 0 && p.stopped()) {
			aborted = true
			return
		}
		// Every player still short of games needs what clean pairs cannot
		// give from last term's; each such pair serves two players.
		need := 0
		for u := 0; u < n; u++ {
			if deg[u] > g || deg[u]+left[u] < g {
				return
			}
			need += max(0, g-deg[u]-cleanLeft[u])
		}
		if soft+(need+1)/2 >= best {
			return
		}
		if i == len(es) {
			best = soft
			allow = make([]bool, n*n)
			for k, e := range es {
				if chosen[k] && e.soft {
					allow[e.u*n+e.v], allow[e.v*n+e.u] = true, true
				}
			}
			return
		}
		e := es[i]
		left[e.u]--
		left[e.v]--
		if !e.soft {
			cleanLeft[e.u]--
			cleanLeft[e.v]--
		}
		take := func() {
			deg[e.u]++
			deg[e.v]++
			chosen[i] = true
			s := soft
			if e.soft {
				s++
			}
			rec(i+1, s)
			deg[e.u]--
			deg[e.v]--
			chosen[i] = false
		}
		// Clean pairs are tried in, last term's out, first: good graphs
		// come early and prune the rest.
		if e.soft {
			rec(i+1, soft)
			take()
		} else {
			take()
			rec(i+1, soft)
		}
		left[e.u]++
		left[e.v]++
		if !e.soft {
			cleanLeft[e.u]++
			cleanLeft[e.v]++
		}
	}
	rec(0, 0)
	return best, !aborted, allow
}
