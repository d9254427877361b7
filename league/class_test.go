package league

import (
	"fmt"
	"math/rand/v2"
)

// classSpec describes a random class for property tests and benchmarks.
type classSpec struct {
	n              int
	masterStudents int     // players whose master is a classmate
	outsideMasters int     // masters outside the class, shared by several players
	outsideShare   float64 // fraction of players with an outside master
	relatives      int
	history        bool // two previous terms of 10 random games each
}

// randomClass builds players in 順位 order with a master forest (a master
// is always earlier in a random order, so no cycles) and, if asked, two
// previous terms in which some pairs met in both.
func randomClass(rng *rand.Rand, spec classSpec) (players []Player, relatives []Pair, prev [][]Pair, prevFinal []Pair) {
	n := spec.n
	players = make([]Player, n)
	for i := range players {
		players[i].ID = fmt.Sprintf("p%02d", i+1)
	}
	order := rng.Perm(n)
	students := 0
	for k := 1; k < n && students < spec.masterStudents; k++ {
		if rng.IntN(3) == 0 && n-k > spec.masterStudents-students {
			continue
		}
		players[order[k]].Master = players[order[rng.IntN(k)]].ID
		students++
	}
	if spec.outsideMasters > 0 {
		for i := range players {
			if players[i].Master == "" && rng.Float64() < spec.outsideShare {
				players[i].Master = fmt.Sprintf("m%d", rng.IntN(spec.outsideMasters)+1)
			}
		}
	}
	for range spec.relatives {
		a, b := rng.IntN(n), rng.IntN(n)
		if a != b {
			relatives = append(relatives, Pair{players[a].ID, players[b].ID})
		}
	}
	if spec.history {
		// Old terms as dense as a real 10-game term, thinner in small
		// classes so that some schedule stays possible.
		g := min(10, n/3)
		older := randomTerm(rng, players, g)
		last := randomTerm(rng, players, g)
		// Some pairs met in both terms, so the third-term rule (D-C1) bites.
		last = append(last, older[:len(older)/5]...)
		prev = [][]Pair{last, older}
		prevFinal = last[:min(len(last), n/2)]
	}
	return players, relatives, prev, prevFinal
}

// randomTerm is a plausible old term: g rounds of random matchings.
func randomTerm(rng *rand.Rand, players []Player, g int) []Pair {
	var out []Pair
	for range g {
		perm := rng.Perm(len(players))
		for k := 0; k+1 < len(perm); k += 2 {
			out = append(out, Pair{players[perm[k]].ID, players[perm[k+1]].ID})
		}
	}
	return out
}

// c2Draw is the benchmark class: 61 players, 11 rounds, 30 師弟 pairs,
// many fellow disciples and two previous terms.
func c2Draw(seed uint64) Draw {
	rng := rand.New(rand.NewPCG(seed, 7))
	players, rel, prev, _ := randomClass(rng, classSpec{n: 61, masterStudents: 30, outsideMasters: 6, outsideShare: 0.5, relatives: 3, history: true})
	d, _ := NewDraw(KindJunisen, ClassC2, seed, players)
	d.Relatives, d.PreviousTerms = rel, prev
	return d
}
