package pairing

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// FuzzDrawSwiss draws random classes (size, history, relations and seed
// from the fuzzer) and checks the invariants: bad input is a FieldError,
// an impossible round agrees with brute force, and a drawn round keeps
// every hard rule, matches the brute-force objective (colour rules broken
// first, only when no round keeps them) and names exactly the players whose
// colour rule its seats break. Run with
// go test -fuzz FuzzDrawSwiss ./pairing/
func FuzzDrawSwiss(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(2))
	f.Add(uint64(2), uint8(9), uint8(4))
	f.Add(uint64(3), uint8(3), uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, n, played uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		req := randomSwiss(rng, 1+int(n%11), int(played%6))
		o := newSwissOracle(req)
		p, err := DrawSwiss(req)
		var nv *NoSwissPairingError
		switch {
		case errors.As(err, &nv):
			if _, _, ok := o.brute(); ok {
				t.Fatalf("no round claimed, brute force found one")
			}
			return
		case errors.Is(err, ErrInvalid):
			return
		case err != nil:
			t.Fatal(err)
		}
		got, bad := o.judge(p)
		if len(bad) > 0 {
			t.Fatal(bad)
		}
		// The colour rules the round breaks, recomputed from the history
		// and the round's seats, are the ones its report names.
		var broke, named []string
		if req.Settings.BalanceColours {
			for _, g := range p.Games {
				if o.breaksRule(g.Sente, 1) {
					broke = append(broke, g.Sente)
				}
				if o.breaksRule(g.Gote, -1) {
					broke = append(broke, g.Gote)
				}
			}
		}
		for _, b := range p.Report.ColourRulesBroken {
			named = append(named, b.ID)
		}
		slices.Sort(broke)
		slices.Sort(named)
		if !slices.Equal(broke, named) {
			t.Fatalf("colour rules broken by %v, the report names %v", broke, named)
		}
		if want, _, ok := o.brute(); !ok || got != want {
			t.Fatalf("objective %v, brute force %v (ok %v)", got, want, ok)
		}
		if _, err := SwissStandings(req); err != nil {
			t.Fatal(err)
		}
		if v, _, err := CheckSwiss(req, p); err != nil || len(v) > 0 {
			t.Fatalf("CheckSwiss on the draw: %v %v", v, err)
		}
	})
}
