package pairing

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func students(master string, ids ...string) []Entrant {
	out := []Entrant{{ID: master}}
	for _, id := range ids {
		out = append(out, Entrant{ID: id, Master: master})
	}
	return out
}

func TestDraw_D_A1_NoMasterStudentInFirstPrelimRound1(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		req  DrawRequest
	}{
		{"master and two students among 6", DrawRequest{Stage: FirstPreliminary, Entrants: append(students("m", "s1", "s2"), Entrant{ID: "x"}, Entrant{ID: "y"}, Entrant{ID: "z"})}},
		{"master with 5 students takes a bye", DrawRequest{Stage: FirstPreliminary, Entrants: students("m", "a", "b", "c", "d", "e")}},
		{"seeded master faces no student", DrawRequest{Stage: FirstPreliminary, Entrants: []Entrant{
			{ID: "m", Seed: 1}, {ID: "a", Master: "m"}, {ID: "b", Master: "m"}, {ID: "c", Master: "m"}, {ID: "d"}, {ID: "e"}, {ID: "f"}, {ID: "g"}}}},
		{"explicit pair only", DrawRequest{Stage: FirstPreliminary, Entrants: []Entrant{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
			MasterStudentPairs: [][2]string{{"a", "b"}, {"a", "c"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(50) {
				tc.req.Seed = seed
				b, err := Draw(tc.req)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				checkDrawProperties(t, tc.req, b)
			}
		})
	}
}

func TestDraw_D_A1_LaterStagesExempt(t *testing.T) {
	t.Parallel()
	// Every draw of a master with three students in a field of four would
	// break D-A1; the second preliminary and the main event allow it.
	for _, st := range []Stage{SecondPreliminary, MainEvent} {
		req := DrawRequest{Stage: st, Entrants: students("m", "a", "b", "c"), Seed: 7}
		b, err := Draw(req)
		if err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		checkDrawProperties(t, req, b)
		if b.Method != "shuffle" {
			t.Errorf("%s: method %q, want an unconstrained shuffle", st, b.Method)
		}
	}
}

func TestDraw_D_A1_NoValidDrawNamesThePlayers(t *testing.T) {
	t.Parallel()
	threeMasters := []Entrant{{ID: "m1"}, {ID: "m2"}, {ID: "m3"}, {ID: "s1"}, {ID: "s2"}, {ID: "s3"}, {ID: "s4"}, {ID: "s5"}}
	var shared [][2]string
	for _, m := range []string{"m1", "m2", "m3"} {
		for _, s := range []string{"s1", "s2", "s3", "s4", "s5"} {
			shared = append(shared, [2]string{m, s})
		}
	}
	cases := []struct {
		name        string
		req         DrawRequest
		wantPlayers []string
		wantPair    [2]string
	}{
		{"master with every other entrant as student", DrawRequest{Entrants: students("m", "a", "b", "c")},
			[]string{"a", "b", "c", "m"}, [2]string{"a", "m"}},
		{"eight: master and seven students", DrawRequest{Entrants: students("m", "a", "b", "c", "d", "e", "f", "g")},
			[]string{"a", "b", "c", "d", "e", "f", "g", "m"}, [2]string{"g", "m"}},
		{"seeds 1 and 2 are master and student", DrawRequest{Entrants: []Entrant{{ID: "m", Seed: 1}, {ID: "s", Seed: 2, Master: "m"}}},
			[]string{"m", "s"}, [2]string{"m", "s"}},
		{"three teachers of the same five", DrawRequest{Entrants: threeMasters, MasterStudentPairs: shared},
			[]string{"m1", "m2", "m3", "s1", "s2", "s3", "s4", "s5"}, [2]string{"m1", "s1"}},
		{"conflict inside a larger field", DrawRequest{Entrants: append(students("m", "a", "b", "c"), Entrant{ID: "x", Seed: 1}, Entrant{ID: "y", Seed: 2})},
			// Seeds 1 and 2 take the two byes; m, a, b, c fill lines 3–6, two games among themselves.
			[]string{"a", "b", "c", "m"}, [2]string{"b", "m"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Stage = FirstPreliminary
			_, err := Draw(tc.req)
			var nv *NoValidDrawError
			if !errors.As(err, &nv) {
				t.Fatalf("want NoValidDrawError, got %v", err)
			}
			if !slices.Equal(nv.Players, tc.wantPlayers) {
				t.Errorf("players %v, want %v (reason: %s)", nv.Players, tc.wantPlayers, nv.Reason)
			}
			if !slices.Contains(nv.Pairs, tc.wantPair) {
				t.Errorf("pairs %v lack %v", nv.Pairs, tc.wantPair)
			}
			if errors.Is(err, ErrInvalid) {
				t.Errorf("no valid draw is not bad input")
			}
		})
	}
}

// TestDraw_D_A1_FeasibilityMatchesBruteForce compares the draw's verdict
// with exhaustive enumeration on many small random fields, including the
// certificate: every reported pair must be a real 師弟 pair.
func TestDraw_D_A1_FeasibilityMatchesBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	infeasible := 0
	for trial := range 400 {
		n := 2 + rng.IntN(7)
		req := DrawRequest{Stage: FirstPreliminary, Entrants: randomField(rng, n, rng.IntN(3), 0.6), Seed: uint64(trial)}
		for range rng.IntN(3) {
			a, b := rng.IntN(n), rng.IntN(n)
			if a != b {
				req.MasterStudentPairs = append(req.MasterStudentPairs, [2]string{req.Entrants[a].ID, req.Entrants[b].ID})
			}
		}
		// Enumerate over an unconstrained draw's shape.
		shape, err := Draw(DrawRequest{Stage: MainEvent, Entrants: req.Entrants, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		valid := allValidDraws(t, req, shape)
		b, err := DrawWith(req, DrawOptions{Rejections: rng.IntN(3)})
		var nv *NoValidDrawError
		switch {
		case len(valid) == 0 && !errors.As(err, &nv):
			t.Fatalf("trial %d: brute force finds no valid draw, Draw says %v / %v", trial, b.Slots, err)
		case len(valid) > 0 && err != nil:
			t.Fatalf("trial %d: %d valid draws exist, Draw says %v", trial, len(valid), err)
		case err == nil:
			checkDrawProperties(t, req, b)
		default:
			infeasible++
			rel := relatedOracle(req)
			for _, p := range nv.Pairs {
				if !rel[p] {
					t.Fatalf("trial %d: certificate pair %v is not a 師弟 pair", trial, p)
				}
			}
			if len(nv.Players) < 2 {
				t.Fatalf("trial %d: certificate names %v", trial, nv.Players)
			}
		}
	}
	if infeasible == 0 {
		t.Fatal("no infeasible field generated; the test would not exercise the certificate")
	}
}

func TestDraw_SameSeedSameDraw(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	es := randomField(rng, 300, 16, 0.3)
	req := DrawRequest{Stage: FirstPreliminary, Entrants: es, Seed: 99}
	a, err := Draw(req)
	if err != nil {
		t.Fatal(err)
	}
	// Input order must not matter either.
	shuffled := slices.Clone(es)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	req.Entrants = shuffled
	b, err := Draw(req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Slots, b.Slots) {
		t.Fatal("same seed and field gave different draws")
	}
	req.Seed = 100
	c, err := Draw(req)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.Slots, c.Slots) {
		t.Fatal("seeds 99 and 100 gave the same draw of 300 entrants")
	}
}

func TestDraw_BadInputNamesField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		req   DrawRequest
		field string
	}{
		{"one entrant", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}}}, "entrants"},
		{"empty id", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}, {ID: ""}}}, "entrants[1].id"},
		{"duplicate id", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}, {ID: "a"}}}, "entrants[1].id"},
		{"seed gap", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", Seed: 1}, {ID: "b", Seed: 3}}}, "entrants[1].seed"},
		{"repeated seed", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", Seed: 1}, {ID: "b", Seed: 1}}}, "entrants[1].seed"},
		{"negative seed", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", Seed: -1}, {ID: "b"}}}, "entrants[0].seed"},
		{"own master", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", Master: "a"}, {ID: "b"}}}, "entrants[0].master"},
		{"self pair", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}, {ID: "b"}}, MasterStudentPairs: [][2]string{{"a", "a"}}}, "master_student_pairs[0]"},
		{"unknown stage", DrawRequest{Stage: "final", Entrants: []Entrant{{ID: "a"}, {ID: "b"}}}, "stage"},
		{"unseeded deep entry", DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a", EnterRound: 2}, {ID: "b"}}}, "entrants[0].enter_round"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Draw(tc.req)
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want a FieldError on %s", err, tc.field)
			}
		})
	}
}

func TestDraw_DeepEntryTakesByes(t *testing.T) {
	t.Parallel()
	// 本戦 of 16 places: seeds 1–2 enter at round 3 (4 places each), seeds
	// 3–4 at round 2 (2 places each), 4 qualifiers in round 1.
	es := []Entrant{{ID: "s1", Seed: 1, EnterRound: 3}, {ID: "s2", Seed: 2, EnterRound: 3}, {ID: "s3", Seed: 3, EnterRound: 2},
		{ID: "s4", Seed: 4, EnterRound: 2}, {ID: "q1"}, {ID: "q2"}, {ID: "q3"}, {ID: "q4"}}
	b, err := Draw(DrawRequest{Stage: MainEvent, Entrants: es, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if b.Size != 16 {
		t.Fatalf("size %d, want 16", b.Size)
	}
	at := map[string]int{}
	for s, id := range b.Slots {
		at[id] = s
	}
	for _, c := range []struct {
		id    string
		block int
	}{{"s1", 4}, {"s2", 4}, {"s3", 2}, {"s4", 2}} {
		first := at[c.id] / c.block * c.block
		for s := first; s < first+c.block; s++ {
			if s != at[c.id] && b.Slots[s] != "" {
				t.Errorf("%s enters at block %d but slot %d holds %s", c.id, c.block, s, b.Slots[s])
			}
		}
	}
	if at["s1"]/8 == at["s2"]/8 {
		t.Errorf("seeds 1 and 2 in the same half: slots %d, %d", at["s1"], at["s2"])
	}
}

// TestDraw_FairnessChiSquare checks that both samplers are uniform over the
// valid draws of small fields, enumerated exactly. The seeds are fixed, so
// the test is deterministic; the threshold is the chi-square quantile at
// p = 1e-4, so a correct sampler fails it only for an unlucky seed set,
// which fixed seeds rule out once the test has passed.
func TestDraw_FairnessChiSquare(t *testing.T) {
	t.Parallel()
	fieldA := append(students("m", "a", "b"), students("n", "c")...) // 5 entrants, 3 byes
	fieldA = append(fieldA, Entrant{ID: "x"})
	fieldB := []Entrant{{ID: "m", Seed: 1}, {ID: "a", Master: "m"}, {ID: "b", Master: "m"}, {ID: "n"}, {ID: "c", Master: "n"}, {ID: "x"}}
	cases := []struct {
		name string
		req  DrawRequest
		opt  DrawOptions
	}{
		{"rejection", DrawRequest{Stage: FirstPreliminary, Entrants: fieldA}, DefaultDrawOptions()},
		{"chain", DrawRequest{Stage: FirstPreliminary, Entrants: fieldA}, DrawOptions{Rejections: 0}},
		{"chain with a seed", DrawRequest{Stage: FirstPreliminary, Entrants: fieldB}, DrawOptions{Rejections: 0}},
		{"rejection with a seed", DrawRequest{Stage: FirstPreliminary, Entrants: fieldB}, DefaultDrawOptions()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			shape, err := Draw(DrawRequest{Stage: MainEvent, Entrants: tc.req.Entrants, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			valid := allValidDraws(t, tc.req, shape)
			if len(valid) < 10 {
				t.Fatalf("only %d valid draws; pick a richer field", len(valid))
			}
			const perCell = 30
			samples := perCell * len(valid)
			counts := map[string]int{}
			for _, v := range valid {
				counts[v] = 0
			}
			for s := range samples {
				req := tc.req
				req.Seed = uint64(s)
				b, err := DrawWith(req, tc.opt)
				if err != nil {
					t.Fatal(err)
				}
				key := fmt.Sprint(b.Slots)
				if _, ok := counts[key]; !ok {
					t.Fatalf("draw %v is not among the enumerated valid draws", b.Slots)
				}
				counts[key]++
			}
			chi := 0.0
			for _, c := range counts {
				d := float64(c) - perCell
				chi += d * d / perCell
			}
			df := float64(len(valid) - 1)
			crit := chiSquareQuantile(df, 3.719) // z for upper tail 1e-4
			t.Logf("%d valid draws, %d samples, chi² = %.1f (df %.0f, critical %.1f)", len(valid), samples, chi, df, crit)
			if chi > crit {
				t.Fatalf("chi² %.1f exceeds %.1f: the draw is not uniform over valid draws", chi, crit)
			}
		})
	}
}

// chiSquareQuantile is the Wilson–Hilferty approximation of the chi-square
// quantile with df degrees of freedom at standard-normal z.
func chiSquareQuantile(df, z float64) float64 {
	h := 2 / (9 * df)
	return df * math.Pow(1-h+z*math.Sqrt(h), 3)
}

// TestDraw_ChainReachesEveryValidDraw: the fallback's moves connect all
// valid draws (needed for it to converge to uniform), checked by exhaustive
// search over the move graph on small random constrained fields.
// Over 20 s (27 s in `make test`, 8 tests at once on 2 cores, -race): the
// exhaustive search of each field's move graph is the check itself.
func TestDraw_ChainReachesEveryValidDraw(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for trial := 0; trial < 200; trial++ {
		n := 4 + rng.IntN(4)
		req := DrawRequest{Stage: FirstPreliminary, Entrants: randomField(rng, n, rng.IntN(2), 0.5)}
		f, err := newField(req.Entrants, nil)
		if err != nil {
			t.Fatal(err)
		}
		l, err := planLayout(f)
		if err != nil {
			t.Fatal(err)
		}
		d := newDrawer(f, l, true)
		if d.seededClash(FirstPreliminary) != nil {
			continue
		}
		start, err := d.construct(rand.New(rand.NewPCG(uint64(trial), 0)), FirstPreliminary)
		if err != nil {
			continue
		}
		shape, _ := Draw(DrawRequest{Stage: MainEvent, Entrants: req.Entrants, Seed: 1})
		want := len(allValidDraws(t, req, shape))
		got := reachable(d, start)
		if got != want {
			t.Fatalf("trial %d: chain reaches %d of %d valid draws", trial, got, want)
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d feasible fields checked", checked)
	}
}

// reachable counts the draws the chain's moves reach from start: every
// transposition, 3-cycle (both directions) and pair of disjoint
// transpositions that keeps the draw valid.
func reachable(d *drawer, start []int) int {
	m := len(start)
	encode := func(p []int) string {
		b := make([]byte, m)
		for i, v := range p {
			b[i] = byte(v)
		}
		return string(b)
	}
	seen := map[string]bool{encode(start): true}
	queue := []string{encode(start)}
	p := make([]int, m)
	visit := func(touched ...int) {
		for _, k := range touched {
			if !d.okAt(p, k) {
				return
			}
		}
		if k := encode(p); !seen[k] {
			seen[k] = true
			queue = append(queue, k)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		reset := func() {
			for i := range p {
				p[i] = int(cur[i])
			}
		}
		for i := 0; i < m; i++ {
			for j := i + 1; j < m; j++ {
				reset()
				p[i], p[j] = p[j], p[i]
				visit(i, j)
				for k := j + 1; k < m; k++ {
					reset()
					p[i], p[j], p[k] = p[k], p[i], p[j]
					visit(i, j, k)
					reset()
					p[i], p[j], p[k] = p[j], p[k], p[i]
					visit(i, j, k)
					for a := k + 1; a < m; a++ {
						for _, pr := range [3][4]int{{i, j, k, a}, {i, k, j, a}, {i, a, j, k}} {
							reset()
							p[pr[0]], p[pr[1]] = p[pr[1]], p[pr[0]]
							p[pr[2]], p[pr[3]] = p[pr[3]], p[pr[2]]
							visit(pr[:]...)
						}
					}
				}
			}
		}
	}
	return len(seen)
}

// FuzzDraw draws random fields of up to 1,024 entrants with random master
// forests and checks every property with the independent oracle.
func FuzzDraw(f *testing.F) {
	f.Add(uint64(1), uint16(9), uint8(2), uint8(40), uint64(7))
	f.Add(uint64(2), uint16(1024), uint8(32), uint8(30), uint64(8))
	f.Add(uint64(3), uint16(513), uint8(0), uint8(90), uint64(9))
	f.Add(uint64(4), uint16(3), uint8(1), uint8(100), uint64(10))
	f.Fuzz(func(t *testing.T, fieldSeed uint64, n16 uint16, seeded8, pct uint8, drawSeed uint64) {
		n := 2 + int(n16)%1023
		rng := rand.New(rand.NewPCG(fieldSeed, 0))
		es := randomField(rng, n, min(int(seeded8), n), float64(pct%101)/100)
		for _, st := range []Stage{FirstPreliminary, MainEvent} {
			req := DrawRequest{Stage: st, Entrants: es, Seed: drawSeed}
			b, err := Draw(req)
			var nv *NoValidDrawError
			if errors.As(err, &nv) && st == FirstPreliminary {
				rel := relatedOracle(req)
				for _, p := range nv.Pairs {
					if !rel[p] {
						t.Fatalf("certificate pair %v is not a 師弟 pair", p)
					}
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			checkDrawProperties(t, req, b)
			again, err := Draw(req)
			if err != nil || !slices.Equal(again.Slots, b.Slots) {
				t.Fatalf("same seed, different draw (%v)", err)
			}
			if n <= 256 && st == FirstPreliminary { // the constructive fallback on the same field
				c, err := DrawWith(req, DrawOptions{Rejections: 0})
				if err != nil {
					t.Fatalf("rejection found a draw, the fallback says %v", err)
				}
				checkDrawProperties(t, req, c)
			}
		}
	})
}

// benchField is 1,024 entrants with 200 師弟 pairs.
func benchField() DrawRequest {
	rng := rand.New(rand.NewPCG(11, 12))
	es := make([]Entrant, 1024)
	for i := range es {
		es[i] = Entrant{ID: fmt.Sprintf("p%04d", i)}
	}
	for _, s := range rng.Perm(1024)[:200] {
		m := rng.IntN(1024)
		if m != s {
			es[s].Master = es[m].ID
		}
	}
	return DrawRequest{Stage: FirstPreliminary, Entrants: es}
}

func BenchmarkDraw1024With200Pairs(b *testing.B) {
	req := benchField()
	for i := 0; b.Loop(); i++ {
		req.Seed = uint64(i)
		if _, err := Draw(req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDraw1024With200PairsFallback(b *testing.B) {
	req := benchField()
	for i := 0; b.Loop(); i++ {
		req.Seed = uint64(i)
		if _, err := DrawWith(req, DrawOptions{Rejections: 0}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDraw_ChainMatchesRejectionOnMediumField compares, on a field too big
// to enumerate (14 unseeded players, 2 seeds, 3 masters), where the chain
// and exact rejection sampling put chosen players: a two-sample chi-square
// per player over the slots, with fixed seeds and a 1e-4 threshold.
func TestDraw_ChainMatchesRejectionOnMediumField(t *testing.T) {
	t.Parallel()
	es := []Entrant{{ID: "s1", Seed: 1}, {ID: "s2", Seed: 2, Master: "m1"}}
	es = append(es, students("m1", "a1", "a2", "a3", "a4")...)
	es = append(es, students("m2", "b1", "b2", "b3")...)
	es = append(es, students("m3", "c1")...)
	es = append(es, Entrant{ID: "x1"}, Entrant{ID: "x2"}, Entrant{ID: "x3"})
	req := DrawRequest{Stage: FirstPreliminary, Entrants: es}
	const n = 3000
	watch := []string{"m1", "a1", "m2", "c1", "x1"}
	count := func(opt DrawOptions, offset uint64) map[string][]int {
		out := map[string][]int{}
		for _, id := range watch {
			out[id] = make([]int, 16)
		}
		for s := range uint64(n) {
			r := req
			r.Seed = offset + s
			b, err := DrawWith(r, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkDrawProperties(t, r, b)
			for slot, id := range b.Slots {
				if c, ok := out[id]; ok {
					c[slot]++
				}
			}
		}
		return out
	}
	exact := count(DefaultDrawOptions(), 0)
	chain := count(DrawOptions{Rejections: 0}, 1_000_000)
	for _, id := range watch {
		chi, cells := 0.0, 0
		for slot := range 16 {
			a, b := float64(exact[id][slot]), float64(chain[id][slot])
			if a+b == 0 {
				continue
			}
			cells++
			chi += (a - b) * (a - b) / (a + b) // equal sample sizes
		}
		crit := chiSquareQuantile(float64(cells-1), 3.719)
		if chi > crit {
			t.Errorf("%s: slot distributions differ, chi² %.1f > %.1f (%v vs %v)", id, chi, crit, exact[id], chain[id])
		}
	}
}
