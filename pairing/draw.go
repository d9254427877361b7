package pairing

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// DrawRequest is everything a knockout draw (抽選) depends on. The same
// request always gives the same bracket.
type DrawRequest struct {
	Stage    Stage
	Entrants []Entrant
	// MasterStudentPairs adds 師弟 pairs (master, student) beyond the
	// entrants' Master fields, e.g. a former master the caller still wants
	// kept apart. Pairs naming a non-entrant cannot meet and are ignored.
	MasterStudentPairs [][2]string
	// Seed is the number the witnesses picked; it drives a PCG generator.
	Seed        uint64
	DrawDate    time.Time // recorded only: lineage is resolved by the caller as of this date
	ThirdPlace  bool      // 三位決定戦
	Consolation bool      // first-round losers' bracket, see Advance
	// Qualifiers > 1 cuts a preliminary when that many players remain: they
	// go on to the next stage (see stages.go). 0 plays to a champion.
	Qualifiers int
}

// Bracket is a drawn knockout stage: Slots in bracket order, a bye as "".
// Round-1 game k (0-based) is Slots[2k] against Slots[2k+1].
type Bracket struct {
	Stage       Stage
	Size        int
	Slots       []string
	Seed        uint64
	DrawDate    time.Time
	ThirdPlace  bool
	Consolation bool
	Qualifiers  int
	// Method says how the draw was made: "shuffle" (no constraint applied),
	// "rejection" (exactly uniform over valid draws) or "chain" (the
	// constructive fallback, uniform in the limit; see docs/knockout.md).
	Method string
}

// DrawOptions tune the sampler; DefaultDrawOptions suits every real field.
type DrawOptions struct {
	// Rejections is how many uniform shuffles to try before falling back to
	// the constructive method. 0 goes straight to the fallback.
	Rejections int
	// ChainSteps is the number of Markov-chain steps the fallback takes from
	// its first valid draw; 0 picks a size-dependent default.
	ChainSteps int
}

// DefaultDrawOptions: with 200 tries, a field where at least 1 shuffle in 50
// is valid falls back with probability below 2%.
func DefaultDrawOptions() DrawOptions { return DrawOptions{Rejections: 200} }

// NewRand is the generator every draw and toss uses: PCG seeded from the
// witnesses' number. The second PCG word is fixed so that one number names
// one stream.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6b6973656e)) // "kisen"
}

// Draw makes the draw with DefaultDrawOptions.
func Draw(req DrawRequest) (Bracket, error) { return DrawWith(req, DefaultDrawOptions()) }

// DrawWith places seeded players by the standard seeding and the unseeded
// players at random, honouring D-A1 (001 第8条A1) in a first preliminary.
// A *NoValidDrawError says which players make every draw invalid.
func DrawWith(req DrawRequest, opt DrawOptions) (Bracket, error) {
	if _, err := ParseStage(string(req.Stage)); err != nil {
		return Bracket{}, err
	}
	f, err := newField(req.Entrants, req.MasterStudentPairs)
	if err != nil {
		return Bracket{}, err
	}
	l, err := planLayout(f)
	if err != nil {
		return Bracket{}, err
	}
	if q := req.Qualifiers; q < 0 || q > 1 && (q&(q-1) != 0 || q >= l.size) {
		return Bracket{}, codedErr(FieldQualifiers, map[string]any{"Qualifiers": q, "Size": l.size}, "qualifiers", "%d is not a power of two below the bracket size %d", q, l.size)
	}
	d := newDrawer(f, l, req.Stage.barsMasterStudent())
	if err := d.seededClash(req.Stage); err != nil {
		return Bracket{}, err
	}
	rng := NewRand(req.Seed)
	place := slices.Clone(f.unseeded)
	method := "shuffle"
	switch {
	case !d.constrained:
		rng.Shuffle(len(place), func(i, j int) { place[i], place[j] = place[j], place[i] })
	default:
		ok := false
		for try := 0; try < opt.Rejections && !ok; try++ {
			rng.Shuffle(len(place), func(i, j int) { place[i], place[j] = place[j], place[i] })
			ok = d.valid(place)
		}
		method = "rejection"
		if !ok {
			place, err = d.construct(rng, req.Stage)
			if err != nil {
				return Bracket{}, err
			}
			steps := opt.ChainSteps
			if steps <= 0 {
				steps = defaultChainSteps(len(place))
			}
			d.mix(rng, place, steps)
			method = "chain"
		}
	}
	b := Bracket{
		Stage: req.Stage, Size: l.size, Slots: make([]string, l.size), Seed: req.Seed,
		DrawDate: req.DrawDate, ThirdPlace: req.ThirdPlace, Consolation: req.Consolation, Qualifiers: req.Qualifiers, Method: method,
	}
	for s, v := range l.slots {
		if v >= 0 {
			b.Slots[s] = f.entrants[v].ID
		}
	}
	for k, s := range l.free {
		b.Slots[s] = f.entrants[place[k]].ID
	}
	return b, nil
}

// defaultChainSteps is 4·m·log2(m) moves, at least 400. Random
// transpositions alone mix a shuffle of m in about ½·m·ln m ≈ 0.35·m·log2(m)
// steps (Diaconis–Shahshahani); our moves are one to two transpositions
// each, so this is over ten times that, leaving room for the rejected
// proposals of a constrained field.
func defaultChainSteps(m int) int {
	if m < 2 {
		return 0
	}
	return max(400, int(4*float64(m)*math.Log2(float64(m))))
}

// drawer holds, for each free slot (by index into layout.free), who sits
// opposite it in round 1, so validity is a local check.
type drawer struct {
	f           *field
	l           *layout
	constrained bool  // D-A1 applies to this round 1
	oppEntrant  []int // seeded entrant opposite free slot k, or -1
	oppFree     []int // free index opposite free slot k, or -1 (a bye or a seed)
}

func newDrawer(f *field, l *layout, bars bool) *drawer {
	d := &drawer{f: f, l: l, oppEntrant: make([]int, len(l.free)), oppFree: make([]int, len(l.free))}
	freeIdx := make(map[int]int, len(l.free))
	for k, s := range l.free {
		freeIdx[s] = k
	}
	for k, s := range l.free {
		d.oppEntrant[k], d.oppFree[k] = -1, -1
		switch v := l.slots[s^1]; {
		case v >= 0:
			d.oppEntrant[k] = v
		case v == slotFree:
			d.oppFree[k] = freeIdx[s^1]
		}
	}
	if bars {
		for _, ps := range f.partners {
			if len(ps) > 0 {
				d.constrained = true
				break
			}
		}
	}
	return d
}

// seededClash rejects a field whose seeding alone puts a 師弟 pair in a
// barred round-1 game: no draw can move seeded players.
func (d *drawer) seededClash(st Stage) error {
	if !d.constrained {
		return nil
	}
	for s := 0; s < d.l.size; s += 2 {
		a, b := d.l.slots[s], d.l.slots[s+1]
		if a >= 0 && b >= 0 && d.f.isRelated(a, b) {
			ea, eb := d.f.entrants[a], d.f.entrants[b]
			return &NoValidDrawError{
				Stage:   st,
				Players: sortedIDs(ea.ID, eb.ID),
				Pairs:   [][2]string{orderedPair(ea.ID, eb.ID)},
				Code:    NoDrawSeedsMeet,
				Reason: fmt.Sprintf("seeds %d (%s) and %d (%s) are master and student and the standard seeding puts them together in round 1; change the seeding",
					ea.Seed, ea.ID, eb.Seed, eb.ID),
			}
		}
	}
	return nil
}

// okAt checks the round-1 game of free slot k under assignment place.
func (d *drawer) okAt(place []int, k int) bool {
	if e := d.oppEntrant[k]; e >= 0 {
		return !d.f.isRelated(place[k], e)
	}
	if o := d.oppFree[k]; o >= 0 {
		return !d.f.isRelated(place[k], place[o])
	}
	return true
}

func (d *drawer) valid(place []int) bool {
	for k := range place {
		if o := d.oppFree[k]; o >= 0 && o < k {
			continue // checked from the other side
		}
		if !d.okAt(place, k) {
			return false
		}
	}
	return true
}

// mix runs a Metropolis chain whose target is the uniform distribution on
// valid draws: each step proposes a random transposition, 3-cycle or pair of
// disjoint transpositions of free slots and keeps it when the draw stays
// valid. Every move is proposed exactly as often as the move that undoes it,
// so the chain is symmetric and its stationary distribution is uniform on
// the valid draws it can reach; the tests find the three kinds together
// reach every valid draw of the small fields they enumerate.
func (d *drawer) mix(rng *rand.Rand, place []int, steps int) {
	m := len(place)
	if m < 2 {
		return
	}
	var touched [4]int
	for range steps {
		kind := rng.IntN(3)
		if m < 3 {
			kind = 0
		}
		if m < 4 && kind == 2 {
			kind = 1
		}
		n := 0
		switch kind {
		case 0: // transposition
			i, j := distinct2(rng, m)
			place[i], place[j] = place[j], place[i]
			touched[0], touched[1], n = i, j, 2
		case 1: // 3-cycle
			i, j, k := distinct3(rng, m)
			place[i], place[j], place[k] = place[k], place[i], place[j]
			touched[0], touched[1], touched[2], n = i, j, k, 3
		case 2: // two disjoint transpositions
			i, j := distinct2(rng, m)
			a, b := distinct2(rng, m)
			if a == i || a == j || b == i || b == j {
				continue // not disjoint: count it as a rejected proposal
			}
			place[i], place[j] = place[j], place[i]
			place[a], place[b] = place[b], place[a]
			touched[0], touched[1], touched[2], touched[3], n = i, j, a, b, 4
		}
		ok := true
		for _, k := range touched[:n] {
			if !d.okAt(place, k) {
				ok = false
				break
			}
		}
		if ok {
			continue
		}
		switch kind { // undo
		case 0:
			place[touched[0]], place[touched[1]] = place[touched[1]], place[touched[0]]
		case 1:
			i, j, k := touched[0], touched[1], touched[2]
			place[i], place[j], place[k] = place[j], place[k], place[i]
		case 2:
			place[touched[0]], place[touched[1]] = place[touched[1]], place[touched[0]]
			place[touched[2]], place[touched[3]] = place[touched[3]], place[touched[2]]
		}
	}
}

func distinct2(rng *rand.Rand, m int) (int, int) {
	i := rng.IntN(m)
	j := rng.IntN(m - 1)
	if j >= i {
		j++
	}
	return i, j
}

func distinct3(rng *rand.Rand, m int) (int, int, int) {
	i, j := distinct2(rng, m)
	k := rng.IntN(m - 2)
	for _, x := range []int{min(i, j), max(i, j)} {
		if k >= x {
			k++
		}
	}
	return i, j, k
}
