package league

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestExactRoundRobin_ModelsObeyTheRules: on random small round robins the
// SAT model's rounds, once sides are fixed, pass the oracle (D-A3, D-A4,
// D-A5 and the practice windows), or the model is proven impossible.
// About 20 s in `make test` (8 tests at once on 2 cores, -race): each random
// round robin is solved by the SAT model and then checked by the oracle.
func TestExactRoundRobin_ModelsObeyTheRules(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(77, 1))
	solved := 0
	for i := 0; i < 120; i++ {
		d := randomDraw(rng, uint64(i))
		if !d.Settings.RoundRobin {
			continue
		}
		p := compile(d)
		if _, conflicts := p.feasibility(); len(conflicts) > 0 {
			continue
		}
		rounds, impossible := p.exactRoundRobin(rand.New(rand.NewPCG(uint64(i), 0)))
		if impossible || rounds == nil {
			continue
		}
		s, ok := p.orient(newPlan(p), rounds, rng)
		if !ok {
			continue
		}
		solved++
		if bad := oracle(d, s); len(bad) > 0 {
			t.Fatalf("%s %d players: %v", d.Class, len(d.Players), bad)
		}
	}
	if solved < 10 {
		t.Errorf("only %d round robins solved exactly", solved)
	}
}

// TestDraw_D_A3_ExhaustiveSearchProvesImpossible: six players, 師弟 pairs
// a–b and c–d may only meet in everyone's game 2 (not the first, not the
// last three of five), so round 2 is a–b, c–d, e–f; but relatives e and f
// may not meet before their game 3. Every player's own count is fine; only
// the exhaustive search sees the clash.
func TestDraw_D_A3_ExhaustiveSearchProvesImpossible(t *testing.T) {
	t.Parallel()
	players := []Player{{ID: "a"}, {ID: "b", Master: "a"}, {ID: "c"}, {ID: "d", Master: "c"}, {ID: "e"}, {ID: "f"}}
	d, err := NewDraw(KindJunisen, ClassA, 1, players)
	if err != nil {
		t.Fatal(err)
	}
	d.Relatives = []Pair{{"e", "f"}}
	d.Settings.Relatives = PairRule{NotFirst: 2}
	_, _, err = Generate(d)
	var none *NoScheduleError
	if !errors.As(err, &none) || !none.Proven || !strings.Contains(none.Reason, "exhaustive") {
		t.Fatalf("want a proven NoScheduleError from the exhaustive search, got %v", err)
	}
	names := map[string]bool{}
	for _, c := range none.Conflicts {
		names[c.Rule] = true
	}
	if !names[RuleMasterStudentMid] || !names[RuleRelatives] {
		t.Errorf("conflicts %+v should name D-A3 and the relatives rule", none.Conflicts)
	}
	// Relax the relatives' window and a schedule exists.
	d.Settings.Relatives = PairRule{NotFirst: 1}
	if _, _, err := Generate(d); err != nil {
		t.Errorf("with e–f allowed in game 2: %v", err)
	}
}
