package pairing

import (
	"fmt"
	"slices"
	"strings"
)

// NoValidDrawError says that no draw satisfies D-A1 and which players make it
// so. It is a valid-input-but-no-answer outcome (CLI exit 1), not ErrInvalid.
type NoValidDrawError struct {
	Stage Stage
	// Players is every player in the certificate: the groups, the few
	// opponents they could still meet, and the 師弟 partners that block the
	// rest. Sorted by ID.
	Players []string
	// Pairs are the 師弟 pairs that block the groups from other opponents,
	// each as [smaller ID, larger ID].
	Pairs [][2]string
	// Groups are sets of players (or fixed places: "bye", "opposite seed 3")
	// that each have an odd number of members, so each must send one member
	// out to Barrier; there are more groups than Barrier members.
	Groups  [][]string
	Barrier []string
	// Code says why in a word a caller translates (NoDraw… codes), with
	// Players and Pairs; Reason is the English sentence of the command line.
	Code   string
	Reason string
}

// Codes of NoValidDrawError.
const (
	// NoDrawMasterStudent: the 師弟 pairs leave some players no possible
	// round-1 opponent (D-A1, 001 第8条A1).
	NoDrawMasterStudent = "master_student"
	// NoDrawSeedsMeet: two seeds who are master and student meet in round 1
	// by the standard seeding.
	NoDrawSeedsMeet = "seeds_meet"
)

func (e *NoValidDrawError) Error() string {
	return "no valid draw: " + e.Reason
}

func sortedIDs(ids ...string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

func orderedPair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// explain turns a Gallai–Edmonds decomposition into a small certificate: the
// barrier A and the |A|+1 smallest odd components of G−A. Each odd component
// must match one of its members outside itself, only into A, so |A|+1 of them
// cannot all be served. The blocking pairs are the missing edges from those
// components to everyone outside them and A: exactly the 師弟 pairs of
// D-A1 (001 第8条A1) that remove the other options.
func (d *drawer) explain(st Stage, g *graph, dec decomposition, players, tokens []int) *NoValidDrawError {
	u := len(players)
	entrantOf := func(v int) int { // the entrant a vertex stands for, -1 for a bye
		if v < u {
			return players[v]
		}
		return d.oppEntrant[tokens[v-u]]
	}
	name := func(v int) string {
		if v < u {
			return d.f.entrants[players[v]].ID
		}
		if e := entrantOf(v); e >= 0 {
			return fmt.Sprintf("opposite seed %d (%s)", d.f.entrants[e].Seed, d.f.entrants[e].ID)
		}
		return "bye"
	}
	odd := slices.Clone(dec.odd)
	for _, c := range odd {
		slices.Sort(c)
	}
	slices.SortStableFunc(odd, func(a, b []int) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return a[0] - b[0]
	})
	odd = odd[:min(len(odd), len(dec.barrier)+1)]

	group := make([]int, g.n)
	for v := range group {
		group[v] = -1
	}
	for gi, c := range odd {
		for _, v := range c {
			group[v] = gi
		}
	}
	inBarrier := make([]bool, g.n)
	for _, v := range dec.barrier {
		inBarrier[v] = true
	}
	involved := map[string]bool{}
	add := func(v int) {
		if e := entrantOf(v); e >= 0 {
			involved[d.f.entrants[e].ID] = true
		}
	}
	pairSet := map[[2]string]bool{}
	out := &NoValidDrawError{Stage: st}
	for gi, c := range odd {
		var names []string
		for _, v := range c {
			names = append(names, name(v))
			add(v)
			for w := 0; w < g.n; w++ {
				if group[w] == gi || inBarrier[w] || (v >= u && w >= u) || g.has(v, w) {
					continue
				}
				a, b := entrantOf(v), entrantOf(w)
				if a < 0 || b < 0 || !d.f.isRelated(a, b) {
					continue
				}
				pairSet[orderedPair(d.f.entrants[a].ID, d.f.entrants[b].ID)] = true
				add(w)
			}
		}
		slices.Sort(names)
		out.Groups = append(out.Groups, names)
	}
	for _, v := range dec.barrier {
		out.Barrier = append(out.Barrier, name(v))
		add(v)
	}
	slices.Sort(out.Barrier)
	for id := range involved {
		out.Players = append(out.Players, id)
	}
	slices.Sort(out.Players)
	for p := range pairSet {
		out.Pairs = append(out.Pairs, p)
	}
	slices.SortFunc(out.Pairs, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	out.Code, out.Reason = NoDrawMasterStudent, certificateText(out)
	return out
}

func certificateText(e *NoValidDrawError) string {
	var b strings.Builder
	b.WriteString("no draw keeps every 師弟 pair out of round 1 of the first preliminary (D-A1, 001 第8条A1). ")
	groups := make([]string, len(e.Groups))
	for i, g := range e.Groups {
		groups[i] = "{" + strings.Join(g, ", ") + "}"
	}
	fmt.Fprintf(&b, "Each of these groups has an odd number of members, so one member of each must meet someone outside it: %s. ",
		strings.Join(groups, "; "))
	if len(e.Barrier) == 0 {
		b.WriteString("But nobody outside may meet them")
	} else {
		fmt.Fprintf(&b, "Outside the groups they may meet only %s (%d for %d groups)", strings.Join(e.Barrier, ", "), len(e.Barrier), len(e.Groups))
	}
	const shown = 20
	pairs := make([]string, 0, min(len(e.Pairs), shown))
	for _, p := range e.Pairs[:min(len(e.Pairs), shown)] {
		pairs = append(pairs, p[0]+"–"+p[1])
	}
	if len(e.Pairs) > 0 {
		fmt.Fprintf(&b, "; every other opponent is a 師弟 partner: %s", strings.Join(pairs, ", "))
		if len(e.Pairs) > shown {
			fmt.Fprintf(&b, " and %d more", len(e.Pairs)-shown)
		}
	}
	b.WriteString(".")
	return b.String()
}
