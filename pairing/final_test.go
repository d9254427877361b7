package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// finalOracle judges a final's placement from the request and the slot
// indexes alone: halves, quarters and round-1 games are recomputed from
// slot numbers, relations from the qualifiers' fields.
type finalOracle struct {
	req   FinalRequest
	size  int
	index map[string]int
}

func newFinalOracle(req FinalRequest) *finalOracle {
	size := 2
	for size < len(req.Qualifiers) {
		size *= 2
	}
	o := &finalOracle{req: req, size: size, index: map[string]int{}}
	for i, q := range req.Qualifiers {
		o.index[q.ID] = i
	}
	return o
}

func (o *finalOracle) levels() int {
	l := 0
	for 1<<l < o.size {
		l++
	}
	return l
}

// relations between qualifiers a and b, by kind, with the class's policy.
func (o *finalOracle) relations(a, b int) map[string]Policy {
	x, y := o.req.Qualifiers[a], o.req.Qualifiers[b]
	out := map[string]Policy{}
	put := func(kind string, ok bool) {
		if p := o.req.Relations.of(kind); ok && p != PolicyIgnore {
			out[kind] = p
		}
	}
	put(RelationClub, x.Club != "" && x.Club == y.Club)
	put(RelationFamily, x.Family != "" && x.Family == y.Family)
	put(RelationFellowDisciple, x.Master != "" && x.Master == y.Master)
	put(RelationMasterStudent, x.Master == y.ID || y.Master == x.ID)
	return out
}

// cost is [never, same half, same quarter, …, same game, avoid], each
// counted over unordered pairs.
func (o *finalOracle) cost(slots []string) []int {
	L := o.levels()
	c := make([]int, L+1)
	for s := 0; s < o.size; s += 2 {
		if slots[s] == "" || slots[s+1] == "" {
			continue
		}
		for _, p := range o.relations(o.index[slots[s]], o.index[slots[s+1]]) {
			switch p {
			case PolicyNever:
				c[0]++
			case PolicyAvoid:
				c[L]++
			}
		}
	}
	for s := range slots {
		for t := s + 1; t < o.size; t++ {
			if slots[s] == "" || slots[t] == "" {
				continue
			}
			x, y := o.req.Qualifiers[o.index[slots[s]]], o.req.Qualifiers[o.index[slots[t]]]
			if x.Block == "" || x.Block != y.Block {
				continue
			}
			// same segment of 2^(L-j) slots, j = 1 (half) … L-1 (game)
			for j := 1; j < L; j++ {
				seg := o.size >> j
				if s/seg == t/seg {
					c[j]++
				}
			}
		}
	}
	return c
}

// structure checks every rule that does not depend on optimisation.
func (o *finalOracle) structure(t *testing.T, slots []string) {
	t.Helper()
	n := len(o.req.Qualifiers)
	if len(slots) != o.size {
		t.Fatalf("%d slots for %d qualifiers, want %d", len(slots), n, o.size)
	}
	seen := map[string]int{}
	for _, id := range slots {
		if id != "" {
			seen[id]++
		}
	}
	for _, q := range o.req.Qualifiers {
		if seen[q.ID] != 1 {
			t.Fatalf("%s appears %d times in %v", q.ID, seen[q.ID], slots)
		}
	}
	faceBye := map[string]bool{}
	for s := 0; s < o.size; s += 2 {
		switch {
		case slots[s] == "" && slots[s+1] == "":
			t.Fatalf("game %d is two byes: %v", s/2+1, slots)
		case slots[s] == "":
			faceBye[slots[s+1]] = true
		case slots[s+1] == "":
			faceBye[slots[s]] = true
		}
	}
	var winners []int
	blocks := false
	for _, q := range o.req.Qualifiers {
		blocks = blocks || q.Block != ""
	}
	slotOf := map[string]int{}
	for s, id := range slots {
		if id != "" {
			slotOf[id] = s
		}
	}
	if !blocks {
		// standing: the top 2^k in different 2^k-segments, and the byes to
		// the top standings.
		for k := 1; 1<<k <= o.size; k++ {
			seg := o.size >> k
			used := map[int]string{}
			for _, q := range o.req.Qualifiers {
				if q.Standing <= 1<<k {
					if other, dup := used[slotOf[q.ID]/seg]; dup {
						t.Fatalf("standings %s and %s share a 1/%d of the bracket: %v", q.ID, other, 1<<k, slots)
					}
					used[slotOf[q.ID]/seg] = q.ID
				}
			}
		}
		for _, q := range o.req.Qualifiers {
			if want := q.Standing <= o.size-n; faceBye[q.ID] != want {
				t.Fatalf("standing %d (%s) faces a bye: %v, want %v (%d byes): %v", q.Standing, q.ID, faceBye[q.ID], want, o.size-n, slots)
			}
		}
		return
	}
	for _, q := range o.req.Qualifiers {
		if q.Place == 1 {
			winners = append(winners, slotOf[q.ID])
		}
	}
	// block winners: each in a different 2^k-segment, 2^k ≥ B the smallest
	k := 0
	for 1<<k < len(winners) {
		k++
	}
	seg := o.size >> k
	used := map[int]bool{}
	for _, s := range winners {
		if used[s/seg] {
			t.Fatalf("two block winners in one 1/%d of the bracket: %v", 1<<k, slots)
		}
		used[s/seg] = true
	}
	// byes: winners first, then by place
	for _, x := range o.req.Qualifiers {
		for _, y := range o.req.Qualifiers {
			if faceBye[y.ID] && !faceBye[x.ID] && x.Place < y.Place {
				t.Fatalf("%s (place %d) has a bye but %s (place %d) has none: %v", y.ID, y.Place, x.ID, x.Place, slots)
			}
		}
	}
}

// notKept recomputes the avoided relations meeting in round 1.
func (o *finalOracle) notKept(slots []string) int {
	n := 0
	for s := 0; s < o.size; s += 2 {
		if slots[s] != "" && slots[s+1] != "" {
			n += len(o.relations(o.index[slots[s]], o.index[slots[s+1]]))
		}
	}
	return n
}

func checkFinal(t *testing.T, req FinalRequest, p FinalPlacement) {
	t.Helper()
	o := newFinalOracle(req)
	o.structure(t, p.Slots)
	c := o.cost(p.Slots)
	if c[0] != 0 {
		t.Fatalf("a never relation meets in round 1: %v", p.Slots)
	}
	if got := o.notKept(p.Slots); got != len(p.NotKept) {
		t.Fatalf("%d related round-1 pairs reported, %d in the slots: %+v", len(p.NotKept), got, p.NotKept)
	}
	together := 0
	for s := range p.Slots {
		for u := s + 1; u < o.size; u++ {
			if p.Slots[s] == "" || p.Slots[u] == "" {
				continue
			}
			x, y := req.Qualifiers[o.index[p.Slots[s]]], req.Qualifiers[o.index[p.Slots[u]]]
			if x.Block != "" && x.Block == y.Block && s/(o.size/2) == u/(o.size/2) {
				together++
			}
		}
	}
	if together != len(p.Together) {
		t.Fatalf("%d same-block pairs in one half, %d reported: %+v", together, len(p.Together), p.Together)
	}
	if v, err := CheckFinal(req, p.Slots); err != nil || len(v) > 0 {
		t.Fatalf("CheckFinal on the placement: %v %+v", err, v)
	}
}

// blocksField is nb blocks with per[k] qualifiers each (place 1..per[k]),
// some sharing clubs.
func blocksField(rng *rand.Rand, per []int, clubs int) []FinalQualifier {
	var out []FinalQualifier
	for b, m := range per {
		for p := 1; p <= m; p++ {
			q := FinalQualifier{ID: fmt.Sprintf("q%02d%d", b, p), Name: fmt.Sprintf("選手%c%d", 'A'+b, p), Block: fmt.Sprintf("%c", 'A'+b), Place: p}
			if clubs > 0 && rng.IntN(2) == 0 {
				q.Club = fmt.Sprintf("c%d", rng.IntN(clubs))
			}
			out = append(out, q)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func standingField(rng *rand.Rand, n, clubs int) []FinalQualifier {
	out := make([]FinalQualifier, n)
	for i, s := range rng.Perm(n) {
		out[i] = FinalQualifier{ID: fmt.Sprintf("s%03d", i), Standing: s + 1}
		if clubs > 0 && rng.IntN(2) == 0 {
			out[i].Club = fmt.Sprintf("c%d", rng.IntN(clubs))
		}
	}
	return out
}

func TestFinal_ThreeBlocksOfFourSixQualifiers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for seed := range uint64(50) {
		req := FinalRequest{Qualifiers: blocksField(rng, []int{2, 2, 2}, 0), Seed: seed}
		p, err := PlaceFinal(req)
		if err != nil {
			t.Fatal(err)
		}
		checkFinal(t, req, p)
		if len(p.Together) != 0 {
			t.Fatalf("seed %d: a block shares a half: %v", seed, p.Slots)
		}
		// 8 slots, 2 byes: both to block winners
		byes := 0
		for s := 0; s < 8; s += 2 {
			for k, id := range []string{p.Slots[s], p.Slots[s+1]} {
				if id == "" {
					byes++
					other := req.Qualifiers[newFinalOracle(req).index[p.Slots[s+1-k]]]
					if other.Place != 1 {
						t.Fatalf("seed %d: bye to %s, not a block winner: %v", seed, other.ID, p.Slots)
					}
				}
			}
		}
		if byes != 2 {
			t.Fatalf("seed %d: %d byes, want 2", seed, byes)
		}
	}
}

func TestFinal_NineBlocksEighteenQualifiersInto32(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	per := []int{2, 2, 2, 2, 2, 2, 2, 2, 2}
	for seed := range uint64(30) {
		req := FinalRequest{Qualifiers: blocksField(rng, per, 4), Seed: seed}
		p, err := PlaceFinal(req)
		if err != nil {
			t.Fatal(err)
		}
		if p.Size != 32 {
			t.Fatalf("size %d, want 32", p.Size)
		}
		checkFinal(t, req, p)
		if len(p.Together) != 0 {
			t.Fatalf("seed %d: a block shares a half: %+v", seed, p.Together)
		}
	}
}

func TestFinal_SwissStandingsOnSeedLines(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 3, 5, 8, 12, 16, 17, 31, 64} {
		req := FinalRequest{Qualifiers: standingField(rng, n, 3), Seed: uint64(n)}
		p, err := PlaceFinal(req)
		if err != nil {
			t.Fatal(err)
		}
		checkFinal(t, req, p)
	}
}

// A block of four qualifiers cannot be split in two halves pairwise; they
// go two and two, and each two in different quarters.
func TestFinal_BlockLargerThanTwoAsFarApartAsPossible(t *testing.T) {
	t.Parallel()
	req := FinalRequest{Qualifiers: []FinalQualifier{
		{ID: "a1", Block: "A", Place: 1}, {ID: "a2", Block: "A", Place: 2}, {ID: "a3", Block: "A", Place: 3}, {ID: "a4", Block: "A", Place: 4},
		{ID: "b1", Block: "B", Place: 1}, {ID: "b2", Block: "B", Place: 2}, {ID: "b3", Block: "B", Place: 3}, {ID: "b4", Block: "B", Place: 4},
	}}
	for seed := range uint64(20) {
		req.Seed = seed
		p, err := PlaceFinal(req)
		if err != nil {
			t.Fatal(err)
		}
		checkFinal(t, req, p)
		for q := 0; q < 4; q++ {
			if p.Slots[2*q][0] == p.Slots[2*q+1][0] {
				t.Fatalf("seed %d: block %c shares quarter %d: %v", seed, p.Slots[2*q][0], q, p.Slots)
			}
		}
	}
}

// bruteFinal is the best cost over every placement that keeps the
// structural rules, by enumeration.
func bruteFinal(t *testing.T, req FinalRequest) []int {
	o := newFinalOracle(req)
	n := len(req.Qualifiers)
	lines, err := SeedLines(o.size)
	if err != nil {
		t.Fatal(err)
	}
	byes := o.size - n
	blocks := false
	winners := 0
	for _, q := range req.Qualifiers {
		blocks = blocks || q.Block != ""
		if q.Place == 1 {
			winners++
		}
	}
	tier := func(x int) int {
		k := 0
		for 1<<k < x {
			k++
		}
		return k
	}
	allowed := func(i, s int) bool {
		q, ln := req.Qualifiers[i], lines[s]
		if ln > n {
			return false
		}
		if !blocks {
			return tier(ln) == tier(q.Standing) && (ln <= byes) == (q.Standing <= byes)
		}
		return (q.Place == 1) == (ln <= winners)
	}
	slots := make([]string, o.size)
	var best []int
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if blocks { // byes by place among the non-winners
				for s, a := range slots {
					for u, b := range slots {
						if a == "" || b == "" {
							continue
						}
						x, y := req.Qualifiers[o.index[a]], req.Qualifiers[o.index[b]]
						if lines[s] <= byes && lines[u] > byes && x.Place > y.Place && x.Place > 1 {
							return
						}
					}
				}
			}
			if c := o.cost(slots); best == nil || slices.Compare(c, best) < 0 {
				best = c
			}
			return
		}
		for s := range slots {
			if slots[s] == "" && allowed(i, s) {
				slots[s] = req.Qualifiers[i].ID
				rec(i + 1)
				slots[s] = ""
			}
		}
	}
	rec(0)
	return best
}

// Whenever some placement separates the blocks (or keeps a relation out of
// round 1), PlaceFinal does as well: its cost equals the enumerated best.
// Over 20 s (22 s in `make test`, 8 tests at once on 2 cores, -race): the
// brute force enumerates every placement of each small field.
func TestFinal_MatchesBruteForceOnSmallFields(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	cases := 0
	for cases < 120 {
		var req FinalRequest
		if rng.IntN(4) == 0 {
			req.Qualifiers = standingField(rng, 2+rng.IntN(7), 2)
		} else {
			var per []int
			total := 0
			for total < 3 || (rng.IntN(3) > 0 && total < 7) {
				m := 1 + rng.IntN(3)
				if total+m > 8 {
					break
				}
				per = append(per, m)
				total += m
			}
			req.Qualifiers = blocksField(rng, per, 2)
		}
		if rng.IntN(3) == 0 {
			req.Relations.Club = PolicyNever
		}
		req.Seed = rng.Uint64()
		want := bruteFinal(t, req)
		p, err := PlaceFinal(req)
		if want[0] > 0 {
			var np *NoFinalPlacementError
			if !errors.As(err, &np) {
				t.Fatalf("every placement pairs a never relation in round 1, but PlaceFinal gave %v %v", p.Slots, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: %v", req.Qualifiers, err)
		}
		checkFinal(t, req, p)
		if got := newFinalOracle(req).cost(p.Slots); slices.Compare(got, want) != 0 {
			t.Fatalf("cost %v, the best placement has %v\nslots %v\nqualifiers %+v", got, want, p.Slots, req.Qualifiers)
		}
		cases++
	}
}

func TestFinal_SameRequestSameBracketWhateverTheOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	req := FinalRequest{Qualifiers: blocksField(rng, []int{2, 2, 2, 2, 2, 2, 2}, 3), Seed: 42}
	a, err := PlaceFinal(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := PlaceFinal(req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Slots, b.Slots) {
		t.Fatalf("same request, different brackets:\n%v\n%v", a.Slots, b.Slots)
	}
	req.Seed = 43
	c, err := PlaceFinal(req)
	if err != nil {
		t.Fatal(err)
	}
	checkFinal(t, req, c)
}

func TestFinal_AvoidedRelationsNotKeptAreReportedByName(t *testing.T) {
	t.Parallel()
	// Everyone in one club: every round-1 game is a club pair.
	req := FinalRequest{Seed: 1}
	for b := 0; b < 4; b++ {
		for p := 1; p <= 2; p++ {
			req.Qualifiers = append(req.Qualifiers, FinalQualifier{ID: fmt.Sprintf("%c%d", 'a'+b, p), Name: fmt.Sprintf("名前%c%d", 'A'+b, p), Block: string(rune('A' + b)), Place: p, Club: "同じ支部"})
		}
	}
	p, err := PlaceFinal(req)
	if err != nil {
		t.Fatal(err)
	}
	checkFinal(t, req, p)
	if len(p.NotKept) != 4 {
		t.Fatalf("%d not kept, want 4 (every game): %+v", len(p.NotKept), p.NotKept)
	}
	for _, x := range p.NotKept {
		if x.Relation != RelationClub || x.Names[0] == x.Players[0] || x.Game < 1 || x.Game > 4 {
			t.Fatalf("report %+v lacks the relation, the names or the game", x)
		}
	}
}

func TestFinal_NeverRelationImpossibleIsNamed(t *testing.T) {
	t.Parallel()
	req := FinalRequest{Relations: RelationPolicy{Club: PolicyNever}, Qualifiers: []FinalQualifier{
		{ID: "x", Name: "甲", Standing: 1, Club: "c"}, {ID: "y", Name: "乙", Standing: 2, Club: "c"},
	}}
	_, err := PlaceFinal(req)
	var np *NoFinalPlacementError
	if !errors.As(err, &np) || !slices.Equal(np.Players, []string{"x", "y"}) {
		t.Fatalf("want NoFinalPlacementError naming x and y, got %v", err)
	}
}

func TestFinal_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		qs    []FinalQualifier
		pol   RelationPolicy
		field string
	}{
		{"one", []FinalQualifier{{ID: "a", Standing: 1}}, RelationPolicy{}, "qualifiers"},
		{"no id", []FinalQualifier{{ID: "a", Standing: 1}, {Standing: 2}}, RelationPolicy{}, "qualifiers[1].id"},
		{"dup", []FinalQualifier{{ID: "a", Standing: 1}, {ID: "a", Standing: 2}}, RelationPolicy{}, "qualifiers[1].id"},
		{"standing", []FinalQualifier{{ID: "a", Standing: 1}, {ID: "b", Standing: 1}}, RelationPolicy{}, "qualifiers[1].standing"},
		{"standing 0", []FinalQualifier{{ID: "a"}, {ID: "b", Standing: 1}}, RelationPolicy{}, "qualifiers[0].standing"},
		{"block missing", []FinalQualifier{{ID: "a", Block: "A", Place: 1}, {ID: "b", Place: 1}}, RelationPolicy{}, "qualifiers[1].block"},
		{"place", []FinalQualifier{{ID: "a", Block: "A", Place: 1}, {ID: "b", Block: "A", Place: 0}}, RelationPolicy{}, "qualifiers[1].place"},
		{"place twice", []FinalQualifier{{ID: "a", Block: "A", Place: 1}, {ID: "b", Block: "A", Place: 1}}, RelationPolicy{}, "qualifiers[1].place"},
		{"self master", []FinalQualifier{{ID: "a", Standing: 1, Master: "a"}, {ID: "b", Standing: 2}}, RelationPolicy{}, "qualifiers[0].master"},
		{"policy", []FinalQualifier{{ID: "a", Standing: 1}, {ID: "b", Standing: 2}}, RelationPolicy{Family: "sometimes"}, "relations.family"},
	} {
		_, err := PlaceFinal(FinalRequest{Qualifiers: tc.qs, Relations: tc.pol})
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: want a field error on %s, got %v", tc.name, tc.field, err)
		}
	}
}

func TestFinal_CheckFindsBrokenPlacements(t *testing.T) {
	t.Parallel()
	req := FinalRequest{Seed: 5, Qualifiers: []FinalQualifier{
		{ID: "a1", Block: "A", Place: 1}, {ID: "a2", Block: "A", Place: 2},
		{ID: "b1", Block: "B", Place: 1}, {ID: "b2", Block: "B", Place: 2},
		{ID: "c1", Block: "C", Place: 1}, {ID: "c2", Block: "C", Place: 2},
	}}
	rules := func(slots []string) []string {
		v, err := CheckFinal(req, slots)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range v {
			out = append(out, x.Rule)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	// 8 slots; seed lines by slot are 1 8 4 5 2 7 3 6: winners on slots 0,
	// 4, 6 (lines 1 2 3), byes on slots 1 and 5 (lines 8 and 7).
	good := []string{"a1", "", "b2", "c2", "b1", "", "c1", "a2"}
	if r := rules(good); len(r) != 0 {
		t.Fatalf("good placement judged %v", r)
	}
	for _, tc := range []struct {
		slots []string
		want  string
	}{
		{[]string{"a1", "", "b2", "c2", "b1", ""}, RuleSize},
		{[]string{"a1", "", "b2", "c2", "b1", "", "c1", "a1"}, RuleDuplicate},
		{[]string{"a2", "", "b2", "c2", "b1", "", "c1", "a1"}, RuleFinalWinners},
		{[]string{"a1", "b2", "", "c2", "b1", "", "c1", "a2"}, RuleByePlacement},
		{[]string{"a1", "", "a2", "c2", "b1", "", "c1", "b2"}, RuleFinalSeparation},
	} {
		if r := rules(tc.slots); !slices.Contains(r, tc.want) {
			t.Errorf("%v: rules %v, want %s", tc.slots, r, tc.want)
		}
	}
	if _, err := CheckFinal(req, []string{"zz", "", "", "", "", "", "", ""}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown id: want ErrInvalid, got %v", err)
	}
}

func FuzzPlaceFinal(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(3), uint8(2), uint8(0))
	f.Add(uint64(2), uint8(18), uint8(9), uint8(4), uint8(1))
	f.Add(uint64(3), uint8(7), uint8(0), uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, n, nblocks, clubs, never uint8) {
		rng := rand.New(rand.NewPCG(seed, 11))
		size := 2 + int(n)%62
		var req FinalRequest
		if nb := int(nblocks) % 20; nb == 0 {
			req.Qualifiers = standingField(rng, size, int(clubs)%5)
		} else {
			per := make([]int, min(nb, size))
			for i := 0; i < size; i++ {
				per[i%len(per)]++
			}
			req.Qualifiers = blocksField(rng, per, int(clubs)%5)
		}
		if never%3 == 1 {
			req.Relations.Club = PolicyNever
		}
		req.Seed = seed
		p, err := PlaceFinal(req)
		var np *NoFinalPlacementError
		switch {
		case errors.As(err, &np):
			if len(np.Players) < 2 {
				t.Fatalf("no placement names %v", np.Players)
			}
			return
		case err != nil:
			t.Fatal(err)
		}
		checkFinal(t, req, p)
	})
}

func benchFinal(n int) FinalRequest {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	per := make([]int, n/2)
	for i := range per {
		per[i] = 2
	}
	return FinalRequest{Qualifiers: blocksField(rng, per, n/6), Seed: 1}
}

func BenchmarkPlaceFinal64(b *testing.B)  { benchPlaceFinal(b, 64) }
func BenchmarkPlaceFinal256(b *testing.B) { benchPlaceFinal(b, 256) }

func benchPlaceFinal(b *testing.B, n int) {
	req := benchFinal(n)
	for b.Loop() {
		if _, err := PlaceFinal(req); err != nil {
			b.Fatal(err)
		}
	}
}
