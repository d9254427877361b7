package pairing

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// The class's 決勝トーナメント drawn from the qualifiers of its preliminary
// (issue 14, part 4; docs/final-knockout.md):
//
//   - after a preliminary by blocks, the block winners take seed lines
//     1..B by lot, so they are spread over the bracket like seeds (each in a
//     different half, quarter, eighth … as far as their number allows) and
//     the byes, which face the top lines, go to them first;
//   - after a preliminary without blocks (Swiss, or N勝通過M敗失格 by
//     records), qualifier k of the preliminary's order takes seed line k,
//     with a lot inside each seed tier (1 | 2 | 3–4 | 5–8 | …) among the
//     lines that share the same bye;
//   - the rest is placed to keep, in this order: relations a class never
//     pairs out of round 1; players of the same block in different halves,
//     then quarters, … then round-1 games; relations a class avoids out of
//     round 1. What could not be kept is reported by name.

// FinalQualifier is one player who qualified from the class's preliminary.
type FinalQualifier struct {
	ID   string
	Name string
	// Block is the preliminary block ("" when the preliminary had none);
	// Place the player's place in it (1 = the block winner).
	Block string
	Place int
	// Standing is the player's place in the preliminary's order (1-based),
	// read only when no qualifier has a block.
	Standing int
	Club     string
	Master   string // the 師匠's ID (a qualifier or not)
	Family   string // a family key shared by relatives
}

// FinalRequest is everything the placement depends on: the same request
// always gives the same bracket.
type FinalRequest struct {
	Qualifiers []FinalQualifier
	Relations  RelationPolicy
	Seed       uint64
}

// FinalPlacement is the drawn first round of the final: Slots in bracket
// order, a bye as "", round-1 game k is Slots[2k] against Slots[2k+1].
type FinalPlacement struct {
	Size  int
	Slots []string
	Seed  uint64
	// NotKept are the avoided relations that meet in round 1.
	NotKept []FinalNotKept
	// Together are players of the same block who can meet before the
	// final, because the field left no way to put them in different halves.
	Together []FinalTogether
}

// FinalNotKept is a related pair that meets in round 1.
type FinalNotKept struct {
	Relation string
	Players  [2]string
	Names    [2]string
	Game     int // round-1 game, 1-based
}

// FinalTogether is a pair of the same block who can meet in Round, on
// Slots.
type FinalTogether struct {
	Block   string
	Players [2]string
	Names   [2]string
	Round   int
	Slots   [2]int
}

// NoFinalPlacementError: no placement found keeps every "never" relation
// out of round 1 (CLI exit 1).
type NoFinalPlacementError struct {
	Players []string
	Reason  string
}

func (e *NoFinalPlacementError) Error() string { return "no final placement: " + e.Reason }

// Rules a final's placement can break, as reported by CheckFinal.
const (
	RuleFinalWinners    = "final-block-winners" // a block winner off seed lines 1..B
	RuleFinalStanding   = "final-standing"      // a qualifier outside their seed tier
	RuleFinalByeOrder   = "final-bye-order"     // a bye to a lower place before a higher one
	RuleFinalSeparation = "final-block-separation"
	RuleFinalNever      = "final-relation-never"
	RuleFinalAvoid      = "final-relation-avoid"
)

// Slot kinds of the placement: which qualifiers may sit on a slot.
const (
	kindWinner  = 0 // blocks: seed lines 1..B
	kindByeLine = 1 // blocks: other lines facing a bye
	kindOpen    = 2 // blocks: other lines facing a player
	kindBye     = 63
)

// final is a validated request with the bracket's shape.
type final struct {
	req    FinalRequest
	n      int
	size   int
	levels int   // log2(size): rounds of the bracket
	lines  []int // slot → seed line
	kind   []int // slot → kind (kindBye for a bye)
	mask   []uint64
	blocks bool
	member [][]int // per qualifier, the other qualifiers of its block
	rel    []map[int][]string
	never  map[uint64]bool
	index  map[string]int
}

// finalCost orders placements: [0] "never" pairs in round 1; [1..levels-1]
// same-block pairs sharing a half, a quarter, … a round-1 game; [levels]
// avoided relations in round 1. Lower is better, compared in order.
type finalCost [maxFinalLevels + 2]int

const maxFinalLevels = 13 // log2(MaxBracketSize)

func (c finalCost) less(d finalCost) bool { return slices.Compare(c[:], d[:]) < 0 }

func (c *finalCost) add(d finalCost, sign int) {
	for i := range c {
		c[i] += sign * d[i]
	}
}

func newFinal(req FinalRequest) (*final, error) {
	n := len(req.Qualifiers)
	if n < 2 {
		return nil, fieldErr("qualifiers", "need at least 2 qualifiers, got %d", n)
	}
	size, err := BracketSize(n)
	if err != nil {
		return nil, fieldErr("qualifiers", "%v", err)
	}
	if err := req.Relations.validate(); err != nil {
		return nil, err
	}
	lines, err := SeedLines(size)
	if err != nil {
		return nil, err
	}
	f := &final{req: req, n: n, size: size, levels: bits.Len(uint(size)) - 1, lines: lines,
		kind: make([]int, size), mask: make([]uint64, n), member: make([][]int, n), index: make(map[string]int, n)}
	players := make([]PoolPlayer, n)
	for i, q := range req.Qualifiers {
		at := fmt.Sprintf("qualifiers[%d]", i)
		if q.ID == "" {
			return nil, fieldErr(at+".id", "missing id")
		}
		if j, dup := f.index[q.ID]; dup {
			return nil, fieldErr(at+".id", "duplicate id %q (also qualifiers[%d])", q.ID, j)
		}
		if q.Master == q.ID {
			return nil, fieldErr(at+".master", "%q is named as their own master", q.ID)
		}
		f.index[q.ID] = i
		players[i] = PoolPlayer{ID: q.ID, Name: q.Name, Club: q.Club, Master: q.Master, Family: q.Family}
		if q.Block != "" {
			f.blocks = true
		}
	}
	f.rel, f.never = relate(players, f.index, req.Relations)
	byes := size - n // lines size-byes+1..size are byes; they face lines 1..byes
	for s, ln := range lines {
		if ln > n {
			f.kind[s] = kindBye
		}
	}
	if f.blocks {
		err = f.blockKinds(byes)
	} else {
		err = f.standingKinds(byes)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// blockKinds: winners on lines 1..B; the remaining byes to the lower places
// in place order (2nd before 3rd), by lot inside the place they run out in.
func (f *final) blockKinds(byes int) error {
	byBlock := map[string][]int{}
	places := map[int]int{} // place → qualifiers with it, places > 1
	winners := 0
	for i, q := range f.req.Qualifiers {
		at := fmt.Sprintf("qualifiers[%d]", i)
		if q.Block == "" {
			return fieldErr(at+".block", "missing block (the other qualifiers have one)")
		}
		if q.Place < 1 || q.Place > f.n {
			return fieldErr(at+".place", "place %d out of range [1, %d]", q.Place, f.n)
		}
		for _, j := range byBlock[q.Block] {
			if f.req.Qualifiers[j].Place == q.Place {
				return fieldErr(at+".place", "block %s has two players in place %d (also qualifiers[%d])", q.Block, q.Place, j)
			}
		}
		byBlock[q.Block] = append(byBlock[q.Block], i)
		if q.Place == 1 {
			winners++
		} else {
			places[q.Place]++
		}
	}
	for _, g := range byBlock {
		for _, i := range g {
			for _, j := range g {
				if i != j {
					f.member[i] = append(f.member[i], j)
				}
			}
		}
	}
	for s, ln := range f.lines {
		switch {
		case f.kind[s] == kindBye:
		case ln <= winners:
			f.kind[s] = kindWinner
		case ln <= byes:
			f.kind[s] = kindByeLine
		default:
			f.kind[s] = kindOpen
		}
	}
	left := max(0, byes-winners) // bye lines for places 2, 3, …
	order := make([]int, 0, len(places))
	for p := range places {
		order = append(order, p)
	}
	slices.Sort(order)
	allowed := map[int]uint64{1: 1 << kindWinner}
	for _, p := range order {
		switch c := places[p]; {
		case left >= c:
			allowed[p] = 1 << kindByeLine
			left -= c
		case left > 0:
			allowed[p] = 1<<kindByeLine | 1<<kindOpen
			left = 0
		default:
			allowed[p] = 1 << kindOpen
		}
	}
	for i, q := range f.req.Qualifiers {
		f.mask[i] = allowed[q.Place]
	}
	return nil
}

// seedTier is 0 for line 1, 1 for line 2, 2 for lines 3–4, 3 for 5–8, …
func seedTier(line int) int { return bits.Len(uint(line - 1)) }

// standingKinds: standing k belongs on line k; the lot moves it only inside
// its seed tier and among lines with the same bye.
func (f *final) standingKinds(byes int) error {
	seen := make([]int, f.n+1)
	for i, q := range f.req.Qualifiers {
		at := fmt.Sprintf("qualifiers[%d].standing", i)
		if q.Standing < 1 || q.Standing > f.n {
			return fieldErr(at, "standing %d out of range [1, %d] (without blocks every qualifier needs their place in the preliminary's order)", q.Standing, f.n)
		}
		if j := seen[q.Standing]; j > 0 {
			return fieldErr(at, "standing %d given twice (also qualifiers[%d])", q.Standing, j-1)
		}
		seen[q.Standing] = i + 1
	}
	kindOf := func(line int) int {
		k := 2 * seedTier(line)
		if line <= byes {
			k++
		}
		return k
	}
	for s, ln := range f.lines {
		if f.kind[s] != kindBye {
			f.kind[s] = kindOf(ln)
		}
	}
	for i, q := range f.req.Qualifiers {
		f.mask[i] = 1 << kindOf(q.Standing)
	}
	return nil
}

// meetRound is the round in which slots a and b can meet (1 = round 1).
func meetRound(a, b int) int { return bits.Len(uint(a ^ b)) }

// cost of qualifier i on slot at[i]: the block pairs and round-1 relations
// it takes part in.
func (f *final) cost(i int, at []int, occ []int) finalCost {
	var c finalCost
	for _, j := range f.member[i] {
		r := meetRound(at[i], at[j])
		for k := 1; k < f.levels; k++ {
			if r <= f.levels-k {
				c[k]++
			}
		}
	}
	if o := occ[at[i]^1]; o >= 0 {
		never, avoid := f.weight(i, o)
		if never {
			c[0]++
		}
		c[f.levels] += avoid
	}
	return c
}

func (f *final) weight(a, b int) (never bool, avoid int) {
	for _, k := range f.rel[a][b] {
		if f.req.Relations.of(k) == PolicyAvoid {
			avoid++
		}
	}
	return f.never[pairKey(a, b)], avoid
}

func (f *final) total(at, occ []int) finalCost {
	var c finalCost
	for i := range at {
		c.add(f.cost(i, at, occ), 1)
	}
	// every pair was counted from both sides
	for k := range c {
		c[k] /= 2
	}
	return c
}

// start fills the slots at random, the most constrained qualifiers first
// (only the place where the byes run out allows two kinds; it goes last and
// takes exactly the slots left).
func (f *final) start(rng *rand.Rand, byKind *[64][]int) (at, occ []int) {
	at = make([]int, f.n)
	occ = make([]int, f.size)
	for s := range occ {
		occ[s] = -1
	}
	var free [64][]int
	for k, ss := range byKind {
		free[k] = slices.Clone(ss)
		rng.Shuffle(len(free[k]), func(a, b int) { free[k][a], free[k][b] = free[k][b], free[k][a] })
	}
	qs := rng.Perm(f.n)
	slices.SortStableFunc(qs, func(a, b int) int { return bits.OnesCount64(f.mask[a]) - bits.OnesCount64(f.mask[b]) })
	for _, i := range qs {
		for k := range free {
			if f.mask[i]&(1<<k) != 0 && len(free[k]) > 0 {
				s := free[k][len(free[k])-1]
				free[k] = free[k][:len(free[k])-1]
				at[i], occ[s] = s, i
				break
			}
		}
	}
	return at, occ
}

// search improves a random start by swaps that keep every qualifier on a
// slot of its kind, accepting equal costs so it walks across plateaus, and
// keeps the best of a few restarts.
func (f *final) search(rng *rand.Rand) (at, occ []int, best finalCost) {
	var byKind [64][]int
	for s, k := range f.kind {
		if k != kindBye {
			byKind[k] = append(byKind[k], s)
		}
	}
	var zero finalCost
	patience := max(2000, 60*f.n)
	for restart := 0; restart < 6; restart++ {
		a, o := f.start(rng, &byKind)
		c := f.total(a, o)
		idle := 0
		for idle < patience && c != zero {
			idle++
			i := rng.IntN(f.n)
			var cand []int
			for k, ss := range byKind {
				if f.mask[i]&(1<<k) != 0 && len(ss) > 0 && (cand == nil || rng.IntN(2) == 0) {
					cand = ss
				}
			}
			j := o[cand[rng.IntN(len(cand))]]
			if j == i || f.mask[j]&(1<<f.kind[a[i]]) == 0 {
				continue
			}
			before := f.cost(i, a, o)
			before.add(f.cost(j, a, o), 1)
			f.swap(i, j, a, o)
			after := f.cost(i, a, o)
			after.add(f.cost(j, a, o), 1)
			if before.less(after) {
				f.swap(i, j, a, o)
				continue
			}
			if after.less(before) {
				c.add(before, -1)
				c.add(after, 1)
				idle = 0
			}
		}
		if at == nil || c.less(best) {
			at, occ, best = a, o, c
		}
		if best == zero {
			break
		}
	}
	return at, occ, best
}

func (f *final) swap(i, j int, at, occ []int) {
	at[i], at[j] = at[j], at[i]
	occ[at[i]], occ[at[j]] = i, j
}

// PlaceFinal places the qualifiers into the class's final knockout.
func PlaceFinal(req FinalRequest) (FinalPlacement, error) {
	f, err := newFinal(req)
	if err != nil {
		return FinalPlacement{}, err
	}
	_, occ, c := f.search(NewRand(req.Seed))
	if c[0] > 0 {
		return FinalPlacement{}, f.noPlacement(occ)
	}
	out := FinalPlacement{Size: f.size, Slots: make([]string, f.size), Seed: req.Seed}
	for s, i := range occ {
		if i >= 0 {
			out.Slots[s] = req.Qualifiers[i].ID
		}
	}
	out.NotKept, out.Together = f.report(occ)
	return out, nil
}

func (f *final) name(i int) string {
	if q := f.req.Qualifiers[i]; q.Name != "" {
		return q.Name
	}
	return f.req.Qualifiers[i].ID
}

// report lists the relations meeting in round 1 and the block pairs that
// can meet before the final, from the slots alone.
func (f *final) report(occ []int) ([]FinalNotKept, []FinalTogether) {
	var nk []FinalNotKept
	var tg []FinalTogether
	for s := 0; s < f.size; s += 2 {
		a, b := occ[s], occ[s+1]
		if a < 0 || b < 0 {
			continue
		}
		for _, k := range f.rel[a][b] {
			nk = append(nk, FinalNotKept{Relation: k, Players: [2]string{f.req.Qualifiers[a].ID, f.req.Qualifiers[b].ID},
				Names: [2]string{f.name(a), f.name(b)}, Game: s/2 + 1})
		}
	}
	for s, a := range occ {
		if a < 0 {
			continue
		}
		for t := s + 1; t < f.size; t++ {
			b := occ[t]
			if b < 0 || !slices.Contains(f.member[a], b) {
				continue
			}
			if r := meetRound(s, t); r < f.levels {
				tg = append(tg, FinalTogether{Block: f.req.Qualifiers[a].Block, Players: [2]string{f.req.Qualifiers[a].ID, f.req.Qualifiers[b].ID},
					Names: [2]string{f.name(a), f.name(b)}, Round: r, Slots: [2]int{s, t}})
			}
		}
	}
	return nk, tg
}

func (f *final) noPlacement(occ []int) error {
	var ids, pairs []string
	for s := 0; s < f.size; s += 2 {
		a, b := occ[s], occ[s+1]
		if a >= 0 && b >= 0 && f.never[pairKey(a, b)] {
			x, y := f.req.Qualifiers[a], f.req.Qualifiers[b]
			ids = append(ids, x.ID, y.ID)
			pairs = append(pairs, f.name(a)+" – "+f.name(b))
		}
	}
	return &NoFinalPlacementError{Players: sortedIDs(ids...),
		Reason: fmt.Sprintf("no placement found that keeps these pairs out of round 1 under a \"never\" relation: %s; set the relation to avoid, or place by hand", strings.Join(pairs, ", "))}
}

// CheckFinal reports every rule a given placement breaks: the shape (size,
// each qualifier once, byes on the right lines), block winners on lines
// 1..B or standings in their tiers, byes in place order, "never" relations
// in round 1, and block separation or avoided relations worse than what
// PlaceFinal reaches for the same request.
func CheckFinal(req FinalRequest, slots []string) ([]Violation, error) {
	f, err := newFinal(req)
	if err != nil {
		return nil, err
	}
	occ := make([]int, len(slots))
	at := make([]int, f.n)
	for i := range at {
		at[i] = -1
	}
	var out []Violation
	for s, id := range slots {
		occ[s] = -1
		if id == "" {
			continue
		}
		i, ok := f.index[id]
		if !ok {
			return nil, fieldErr(fmt.Sprintf("slots[%d]", s), "unknown qualifier %q", id)
		}
		if at[i] >= 0 {
			out = append(out, Violation{Rule: RuleDuplicate, Slots: []int{at[i], s}, Players: []string{id},
				Message: fmt.Sprintf("%s appears in slots %d and %d", id, at[i], s)})
			continue
		}
		at[i], occ[s] = s, i
	}
	for i, q := range req.Qualifiers {
		if at[i] < 0 {
			out = append(out, Violation{Rule: RuleMissing, Players: []string{q.ID}, Message: fmt.Sprintf("%s is in no slot", q.ID)})
		}
	}
	if len(slots) != f.size {
		out = append(out, Violation{Rule: RuleSize, Message: fmt.Sprintf("%d slots, but %d qualifiers need a bracket of %d", len(slots), f.n, f.size)})
		return out, nil
	}
	if len(out) > 0 {
		return out, nil // placement rules need each qualifier once
	}
	for s, i := range occ {
		k := f.kind[s]
		switch {
		case k == kindBye && i >= 0:
			out = append(out, Violation{Rule: RuleByePlacement, Slots: []int{s}, Players: []string{slots[s]},
				Message: fmt.Sprintf("slot %d (seed line %d) should be a bye; byes face the top lines, but it holds %s", s, f.lines[s], slots[s])})
		case k != kindBye && i < 0:
			out = append(out, Violation{Rule: RuleByePlacement, Slots: []int{s},
				Message: fmt.Sprintf("slot %d (seed line %d) should hold a qualifier, but it is a bye", s, f.lines[s])})
		case i >= 0 && f.mask[i]&(1<<k) == 0:
			out = append(out, f.misplaced(i, s))
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	got := f.total(at, occ)
	for s := 0; s < f.size; s += 2 {
		a, b := occ[s], occ[s+1]
		if a >= 0 && b >= 0 && f.never[pairKey(a, b)] {
			out = append(out, Violation{Rule: RuleFinalNever, Slots: []int{s, s + 1}, Players: []string{slots[s], slots[s+1]},
				Message: fmt.Sprintf("%s and %s meet in round 1 though the class never pairs them", f.name(a), f.name(b))})
		}
	}
	_, _, best := f.search(NewRand(req.Seed))
	if got[0] > 0 || !best.less(got) {
		return out, nil
	}
	sep, bestSep := got, best
	sep[f.levels], bestSep[f.levels] = 0, 0
	if bestSep.less(sep) {
		_, tg := f.report(occ)
		for _, t := range tg {
			out = append(out, Violation{Rule: RuleFinalSeparation, Slots: t.Slots[:], Players: t.Players[:],
				Message: fmt.Sprintf("%s and %s of block %s can meet in round %d; a placement exists that keeps the block further apart", t.Names[0], t.Names[1], t.Block, t.Round)})
		}
		return out, nil
	}
	nk, _ := f.report(occ)
	for _, x := range nk {
		out = append(out, Violation{Rule: RuleFinalAvoid, Slots: []int{2 * (x.Game - 1), 2*x.Game - 1}, Players: x.Players[:],
			Message: fmt.Sprintf("%s and %s (%s) meet in round 1; a placement exists with fewer such games (%d, not %d)", x.Names[0], x.Names[1], x.Relation, best[f.levels], got[f.levels])})
	}
	return out, nil
}

func (f *final) misplaced(i, s int) Violation {
	q := f.req.Qualifiers[i]
	v := Violation{Slots: []int{s}, Players: []string{q.ID}}
	switch {
	case !f.blocks:
		v.Rule = RuleFinalStanding
		v.Message = fmt.Sprintf("%s (standing %d) is on seed line %d; standing %d belongs on a line of the same seed tier with the same bye", q.ID, q.Standing, f.lines[s], q.Standing)
	case q.Place == 1 || f.kind[s] == kindWinner:
		v.Rule = RuleFinalWinners
		v.Message = fmt.Sprintf("seed line %d holds %s (block %s, place %d); lines 1–%d are for the block winners", f.lines[s], q.ID, q.Block, q.Place, f.winners())
	default:
		v.Rule = RuleFinalByeOrder
		v.Message = fmt.Sprintf("%s (block %s, place %d) is on seed line %d; byes go to block winners first, then by place", q.ID, q.Block, q.Place, f.lines[s])
	}
	return v
}

func (f *final) winners() int {
	w := 0
	for _, k := range f.kind {
		if k == kindWinner {
			w++
		}
	}
	return w
}
