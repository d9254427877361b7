package league

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// D-C1 rematch minimisation benchmarks (figures in docs/league-draw-limits.md):
//
//	go test -run '^$' -bench 'Rematch' -benchtime 20x ./league/

// BenchmarkRematch_D_C1_B2_15UnderPressure: 15 players who each met six
// classmates last term; 15 rematches needed and found (proven).
func BenchmarkRematch_D_C1_B2_15UnderPressure(b *testing.B) {
	benchRematch(b, func(seed uint64) Draw { return pressureB2(seed) })
}

// BenchmarkRematch_D_C1_61Roomy: the 61-player C2 benchmark class drawn
// under C1 rules (last term's opponents avoided): none needed.
func BenchmarkRematch_D_C1_61Roomy(b *testing.B) {
	benchRematch(b, func(seed uint64) Draw {
		d := c2Draw(seed)
		d.Class = ClassC1
		d.Settings, _ = DefaultSettings(KindJunisen, ClassC1)
		return d
	})
}

// BenchmarkRematch_D_C1_61UnderPressure: 61 players, each met the 52
// classmates nearest them (circularly) last term, so each has 8 fresh
// classmates for 10 games: at least 61 rematches.
func BenchmarkRematch_D_C1_61UnderPressure(b *testing.B) {
	benchRematch(b, pressure61)
}

func pressure61(seed uint64) Draw {
	const n = 61
	players := make([]Player, n)
	for i := range players {
		players[i].ID = fmt.Sprintf("p%02d", i+1)
	}
	d, _ := NewDraw(KindJunisen, ClassC1, seed, players)
	var last []Pair
	for i := 0; i < n; i++ {
		for k := 1; k <= 26; k++ {
			last = append(last, Pair{players[i].ID, players[(i+k)%n].ID})
		}
	}
	d.PreviousTerms = [][]Pair{last}
	return d
}

func benchRematch(b *testing.B, draw func(uint64) Draw) {
	draws := make([]Draw, 16)
	for i := range draws {
		draws[i] = draw(uint64(i))
	}
	i, total, proven := 0, 0, 0
	for b.Loop() {
		_, rep, err := Generate(draws[i%len(draws)])
		if err != nil {
			b.Fatal(err)
		}
		total += rep.PreviousTermRematches
		if rep.RematchMinimality == MinimalityProven {
			proven++
		}
		i++
	}
	b.ReportMetric(float64(total)/float64(i), "rematches/op")
	b.ReportMetric(float64(proven)/float64(i), "proven/op")
}

// BenchmarkRematch_D_C1_15RandomDense: 15 players, last term's pairs drawn
// at random with density 0.30–0.65 and three 師弟 pairs: the hard cases,
// where the bound is not always met (proven/op < 1).
func BenchmarkRematch_D_C1_15RandomDense(b *testing.B) {
	benchRematch(b, denseB2)
}

func denseB2(class uint64) Draw {
	rng := rand.New(rand.NewPCG(class, 1))
	d := pressureB2(class)
	var last []Pair
	dens := 0.3 + rng.Float64()*0.35
	for i := 0; i < 15; i++ {
		for j := i + 1; j < 15; j++ {
			if rng.Float64() < dens {
				last = append(last, Pair{d.Players[i].ID, d.Players[j].ID})
			}
		}
	}
	for range 3 {
		i := rng.IntN(15)
		d.Players[i].Master = fmt.Sprintf("p%02d", (i+1+rng.IntN(14))%15+1)
	}
	d.PreviousTerms = [][]Pair{last}
	return d
}
