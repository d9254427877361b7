package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// pairableBrute reports whether ids can all be paired with no rematch and
// no "never" relation, by trying every partner of the first (fields of up
// to a dozen players).
func pairableBrute(o *poolsOracle, ids []string) bool {
	if len(ids) == 0 {
		return true
	}
	a := ids[0]
	for k := 1; k < len(ids); k++ {
		b := ids[k]
		if o.met[orderedPair(a, b)] > 0 || o.never(a, b) {
			continue
		}
		rest := append(slices.Clone(ids[1:k]), ids[k+1:]...)
		if pairableBrute(o, rest) {
			return true
		}
	}
	return false
}

// byeKey is the documented bye order: fewest byes, most losses, fewest
// wins (the lot breaks what is left).
func byeKey(o *poolsOracle, id string) [3]int {
	r := o.rec[id]
	return [3]int{o.byes[id], -r.Losses, r.Wins}
}

func keyLess(a, b [3]int) bool { return slices.Compare(a[:], b[:]) < 0 }

// checkPoolsByeOrder checks a records-mode round's bye against the order
// recomputed from the request: no player still in comes before the bye
// (fewer byes, or as many and more losses, or as many and fewer wins)
// whose own bye leaves the others pairable (brute force).
func checkPoolsByeOrder(t *testing.T, req PoolsRequest, rd PoolsRound) {
	t.Helper()
	o := newPoolsOracle(req)
	var playing []string
	for _, pl := range req.Players {
		if o.playing(pl.ID) {
			playing = append(playing, pl.ID)
		}
	}
	if len(playing)%2 == 0 {
		return
	}
	if len(rd.Byes) != 1 {
		t.Fatalf("round %d: %d playing, byes %v", rd.Round, len(playing), rd.Byes)
	}
	bye := rd.Byes[0]
	for _, x := range playing {
		if x == bye || !keyLess(byeKey(o, x), byeKey(o, bye)) {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(playing), func(id string) bool { return id == x })
		if pairableBrute(o, rest) {
			t.Fatalf("round %d: bye to %s %v, but %s %v comes first and the rest can be paired",
				rd.Round, bye, byeKey(o, bye), x, byeKey(o, x))
		}
	}
}

// TestPools_RecordsByeFollowsItsOrder plays records-mode preliminaries of
// odd and even fields with relations and checks every bye against the
// order recomputed from the request: no player still in comes before the
// bye (fewer byes, or as many and more losses, or as many and fewer wins)
// whose own bye leaves the others pairable (brute force). So nobody has a
// second bye while a player who could take it has none. CheckPools of the
// whole preliminary agrees.
func TestPools_RecordsByeFollowsItsOrder(t *testing.T) {
	t.Parallel()
	odd := 0
	for seed := uint64(0); seed < 120; seed++ {
		rng := rand.New(rand.NewPCG(seed, 23))
		n := 5 + rng.IntN(8)
		wins, losses := 2+rng.IntN(2), 2+rng.IntN(2)
		req := PoolsRequest{Players: poolsField(rng, n, 2, 2), Wins: wins, Losses: losses, Mode: PoolRecords, Seed: seed,
			Relations: RelationPolicy{Club: PolicyNever, Family: PolicyNever}}
		for range 2 * (wins + losses) {
			rd, err := DrawPools(req)
			if err != nil {
				break // a field that runs out of allowed pairs
			}
			if rd.Finished {
				break
			}
			o := newPoolsOracle(req)
			var playing []string
			for _, pl := range req.Players {
				if o.playing(pl.ID) {
					playing = append(playing, pl.ID)
				}
			}
			if len(playing)%2 == 1 {
				odd++
				checkPoolsByeOrder(t, req, rd) // checkPoolsRound does so only up to 14 players
			}
			for _, g := range rd.Pairings {
				req.Games = append(req.Games, PoolGame{Round: rd.Round, Board: g.Board, Players: g.Players, Winner: g.Players[rng.IntN(2)]})
			}
			for _, id := range rd.Byes {
				req.Byes = append(req.Byes, PoolBye{Round: rd.Round, Player: id})
			}
			if v, _, err := CheckPools(req); err != nil || len(v) > 0 {
				t.Fatalf("seed %d: --check of the preliminary so far: %v %v", seed, err, v)
			}
		}
	}
	if odd < 150 {
		t.Fatalf("only %d odd rounds played", odd)
	}
}

// TestPools_CheckFindsAByeOutOfOrder: a five-player records round whose
// bye goes to a player who already had one, or to a 1-0 player while a
// 0-1 player has none, is pools-bye-order, naming both; the drawn bye is not.
func TestPools_CheckFindsAByeOutOfOrder(t *testing.T) {
	t.Parallel()
	pl := make([]PoolPlayer, 5)
	for i := range pl {
		pl[i] = PoolPlayer{ID: fmt.Sprintf("p%d", i+1)}
	}
	// Round 1: p1>p2, p3>p4, p5 bye. Playing: p1 1-0, p3 1-0, p5 1-0 (bye), p2 0-1, p4 0-1.
	base := PoolsRequest{Players: pl, Wins: 3, Losses: 3, Mode: PoolRecords, Seed: 1,
		Games: []PoolGame{{Round: 1, Board: 1, Players: [2]string{"p1", "p2"}, Winner: "p1"},
			{Round: 1, Board: 2, Players: [2]string{"p3", "p4"}, Winner: "p3"}},
		Byes: []PoolBye{{Round: 1, Player: "p5"}}}
	for _, c := range []struct {
		games [][2]string
		bye   string
		want  []string // the rule's players, or nil for none
	}{
		{[][2]string{{"p1", "p3"}, {"p2", "p4"}}, "p5", []string{"p5", "p2"}}, // a second bye
		{[][2]string{{"p5", "p3"}, {"p2", "p4"}}, "p1", []string{"p1", "p2"}}, // 1-0 before 0-1
		{[][2]string{{"p1", "p3"}, {"p5", "p4"}}, "p2", nil},                  // 0-1, no bye yet: in order
	} {
		req := base
		req.Proposed = &PoolProposal{Games: c.games, Byes: []string{c.bye}}
		v, _, err := CheckPools(req)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range v {
			if x.Rule == RulePoolByeOrder {
				got = x.Players
			} else {
				t.Fatalf("bye %s: unexpected %v", c.bye, x)
			}
		}
		if !slices.Equal(got, c.want) && !(c.want != nil && got != nil && got[0] == c.want[0]) {
			t.Fatalf("bye %s: %v, want %v", c.bye, got, c.want)
		}
	}
	rd, err := DrawPools(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Byes) != 1 || (rd.Byes[0] != "p2" && rd.Byes[0] != "p4") {
		t.Fatalf("drawn bye %v; want p2 or p4 (0-1, no bye yet)", rd.Byes)
	}
}
