package office

import (
	"slices"

	"kisen/store"
)

// masterEdge is one period in which Master was Disciple's 師匠, with the
// days From..To included (To zero = open ended).
type masterEdge struct {
	Disciple, Master int64
	From, To         store.CivilDate
	Line             int // CSV line that introduced it, 0 otherwise
}

// playerEndOfTime stands in for an open end when intersecting periods.
var playerEndOfTime = store.NewCivilDate(9999, 12, 31)

func edgeEnd(e masterEdge) store.CivilDate {
	if e.To.IsZero() {
		return playerEndOfTime
	}
	return e.To
}

// masterGraph indexes periods by disciple for the cycle search.
type masterGraph map[int64][]masterEdge

func newMasterGraph(edges []masterEdge) masterGraph {
	g := masterGraph{}
	for _, e := range edges {
		g[e.Disciple] = append(g[e.Disciple], e)
	}
	return g
}

// closesCycle reports whether adding e would make someone, on some day in
// e's period, their own master's master (at any depth): for instance A
// master of B and B master of A at the same time. It walks up from e's
// master through periods that overlap the days still in play; the graph
// without e is acyclic, so reaching e's disciple is the only way to close a
// cycle through e.
func (g masterGraph) closesCycle(e masterEdge) bool {
	if e.Master == e.Disciple {
		return true
	}
	// A state already explored (same person, same days) gives the same
	// answer; remembering it keeps the walk linear in practice.
	type state struct {
		node     int64
		from, to store.CivilDate
	}
	seen := map[state]bool{}
	var walk func(node int64, from, to store.CivilDate, path []int64) bool
	walk = func(node int64, from, to store.CivilDate, path []int64) bool {
		if seen[state{node, from, to}] {
			return false
		}
		seen[state{node, from, to}] = true
		for _, up := range g[node] {
			lo, hi := from, to
			if up.From.After(lo) {
				lo = up.From
			}
			if end := edgeEnd(up); end.Before(hi) {
				hi = end
			}
			if lo.After(hi) {
				continue // no common day
			}
			if up.Master == e.Disciple {
				return true
			}
			if slices.Contains(path, up.Master) {
				continue // an older cycle not through e; reported on its own edge
			}
			if walk(up.Master, lo, hi, append(path, up.Master)) {
				return true
			}
		}
		return false
	}
	return walk(e.Master, e.From, edgeEnd(e), []int64{e.Disciple, e.Master})
}

// add puts e into the graph (after closesCycle said it is safe).
func (g masterGraph) add(e masterEdge) { g[e.Disciple] = append(g[e.Disciple], e) }

// playerEdges turns stored periods with a player master into edges.
func playerEdges(ms []store.PlayerMaster) []masterEdge {
	out := make([]masterEdge, 0, len(ms))
	for _, m := range ms {
		if m.MasterPlayerID == nil {
			continue
		}
		out = append(out, masterEdge{Disciple: m.DiscipleID, Master: *m.MasterPlayerID, From: m.FromDate, To: m.ToDate})
	}
	return out
}

// periodsOverlap reports whether two periods share a day.
func periodsOverlap(aFrom, aTo, bFrom, bTo store.CivilDate) bool {
	ae, be := aTo, bTo
	if ae.IsZero() {
		ae = playerEndOfTime
	}
	if be.IsZero() {
		be = playerEndOfTime
	}
	return !aFrom.After(be) && !bFrom.After(ae)
}
