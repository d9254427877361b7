package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// relatedOracle recomputes the 師弟 relation straight from the request, for
// checking draws without the draw's own bookkeeping.
func relatedOracle(req DrawRequest) map[[2]string]bool {
	in := map[string]bool{}
	for _, e := range req.Entrants {
		in[e.ID] = true
	}
	rel := map[[2]string]bool{}
	put := func(a, b string) {
		if in[a] && in[b] && a != b {
			rel[[2]string{a, b}] = true
			rel[[2]string{b, a}] = true
		}
	}
	for _, e := range req.Entrants {
		if e.Master != "" {
			put(e.Master, e.ID)
		}
	}
	for _, p := range req.MasterStudentPairs {
		put(p[0], p[1])
	}
	return rel
}

// checkDrawProperties is the independent oracle for a drawn bracket whose
// entrants all enter in round 1.
func checkDrawProperties(t *testing.T, req DrawRequest, b Bracket) {
	t.Helper()
	n := len(req.Entrants)
	size := 1
	for size < n || size < 2 {
		size <<= 1
	}
	if b.Size != size || len(b.Slots) != size {
		t.Fatalf("size %d with %d slots for %d entrants; want %d", b.Size, len(b.Slots), n, size)
	}
	// Every entrant exactly once.
	count := map[string]int{}
	for _, id := range b.Slots {
		if id != "" {
			count[id]++
		}
	}
	for _, e := range req.Entrants {
		if count[e.ID] != 1 {
			t.Fatalf("entrant %s appears %d times", e.ID, count[e.ID])
		}
	}
	if len(count) != n {
		t.Fatalf("slots hold %d distinct ids, want %d", len(count), n)
	}
	seedOf := map[string]int{}
	slotOfSeed := map[int]int{}
	for _, e := range req.Entrants {
		if e.Seed > 0 {
			seedOf[e.ID] = e.Seed
		}
	}
	for s, id := range b.Slots {
		if k, ok := seedOf[id]; ok {
			slotOfSeed[k] = s
		}
	}
	// Seeds 1..k in different blocks of size size/k for every power k.
	for k := 2; k <= size; k *= 2 {
		block := size / k
		used := map[int]int{}
		for sd := 1; sd <= k && sd <= len(seedOf); sd++ {
			blk := slotOfSeed[sd] / block
			if other, clash := used[blk]; clash {
				t.Fatalf("seeds %d and %d share a block of %d (slots %d, %d)", other, sd, block, slotOfSeed[other], slotOfSeed[sd])
			}
			used[blk] = sd
		}
	}
	if len(seedOf) > 0 && slotOfSeed[1] != 0 {
		t.Fatalf("seed 1 in slot %d, want the top slot 0", slotOfSeed[1])
	}
	// Byes: exactly size−n, never facing each other, facing the top seeds.
	byes := size - n
	facing := []string{}
	for s := 0; s < size; s += 2 {
		a, c := b.Slots[s], b.Slots[s+1]
		if a == "" && c == "" {
			t.Fatalf("slots %d and %d are both byes", s, s+1)
		}
		if a == "" {
			facing = append(facing, c)
		} else if c == "" {
			facing = append(facing, a)
		}
	}
	if len(facing) != byes {
		t.Fatalf("%d byes, want %d", len(facing), byes)
	}
	seededWithBye := 0
	for _, id := range facing {
		if sd, ok := seedOf[id]; ok {
			seededWithBye++
			if sd > byes {
				t.Fatalf("seed %d (%s) has a bye although only %d byes exist", sd, id, byes)
			}
		}
	}
	if want := min(byes, len(seedOf)); seededWithBye != want {
		t.Fatalf("%d seeded players have byes, want %d (the top seeds)", seededWithBye, want)
	}
	// D-A1 in a first preliminary.
	if req.Stage == FirstPreliminary {
		rel := relatedOracle(req)
		for s := 0; s < size; s += 2 {
			if rel[[2]string{b.Slots[s], b.Slots[s+1]}] {
				t.Fatalf("D-A1: %s and %s meet in round 1 (slots %d, %d)", b.Slots[s], b.Slots[s+1], s, s+1)
			}
		}
	}
}

// randomField makes n entrants, the first `seeded` of them seeded, with a
// random master forest: each player's master is an earlier player with
// probability pMaster, or an outside teacher.
func randomField(rng *rand.Rand, n, seeded int, pMaster float64) []Entrant {
	es := make([]Entrant, n)
	for i := range es {
		es[i] = Entrant{ID: fmt.Sprintf("p%04d", i)}
		if i < seeded {
			es[i].Seed = i + 1
		}
		if i > 0 && rng.Float64() < pMaster {
			es[i].Master = es[rng.IntN(i)].ID
		} else if rng.IntN(4) == 0 {
			es[i].Master = fmt.Sprintf("teacher%d", rng.IntN(10))
		}
	}
	rng.Shuffle(n, func(i, j int) { es[i], es[j] = es[j], es[i] })
	return es
}

// allValidDraws enumerates every valid assignment of the unseeded players
// to the slots a draw gives them (read from one drawn bracket), by brute
// force over permutations.
func allValidDraws(t *testing.T, req DrawRequest, sample Bracket) []string {
	t.Helper()
	rel := relatedOracle(req)
	fixed := map[string]bool{}
	for _, e := range req.Entrants {
		if e.Seed > 0 {
			fixed[e.ID] = true
		}
	}
	var free []int
	var players []string
	for s, id := range sample.Slots {
		if id != "" && !fixed[id] {
			free = append(free, s)
			players = append(players, id)
		}
	}
	slices.Sort(players)
	var out []string
	slots := slices.Clone(sample.Slots)
	var rec func(k int, used []bool)
	rec = func(k int, used []bool) {
		if k == len(free) {
			for s := 0; s < len(slots); s += 2 {
				if req.Stage == FirstPreliminary && rel[[2]string{slots[s], slots[s+1]}] {
					return
				}
			}
			out = append(out, fmt.Sprint(slots))
			return
		}
		for i, p := range players {
			if !used[i] {
				used[i] = true
				slots[free[k]] = p
				rec(k+1, used)
				used[i] = false
			}
		}
	}
	rec(0, make([]bool, len(players)))
	return out
}
