package league

import (
	"math/rand/v2"
	"testing"
)

// FuzzStandings plays a random schedule with random results (some games
// unplayed, some 千日手 then a redo) and checks the table's invariants:
// every game is a win, a loss or unplayed exactly once; wins and losses
// balance; the order is record, then 順位; the class rules hand out as
// many places as they say.
func FuzzStandings(f *testing.F) {
	f.Add(uint64(1), uint8(20))
	f.Add(uint64(9), uint8(61))
	f.Fuzz(func(t *testing.T, seed uint64, size uint8) {
		n := 12 + int(size)%60
		rng := rand.New(rand.NewPCG(seed, 3))
		players, _, _, _ := randomClass(rng, classSpec{n: n})
		d, _ := NewDraw(KindJunisen, ClassC1, seed, players)
		if n%2 == 1 {
			d.Settings.GamesPerPlayer = 8
		}
		s, _, err := Generate(d)
		if err != nil {
			t.Fatalf("no schedule for a class without lineage: %v", err)
		}
		var results []Result
		scheduled := 0
		for r, rd := range s.Rounds {
			for _, g := range rd.Games {
				scheduled++
				switch rng.IntN(6) {
				case 0: // not played yet
				case 1: // 千日手, then the redo with sides swapped decides
					results = append(results, Result{Round: r + 1, Sente: g.Sente, Gote: g.Gote})
					results = append(results, Result{Round: r + 1, Sente: g.Gote, Gote: g.Sente, Winner: g.Gote})
				default:
					w := g.Sente
					if rng.IntN(2) == 0 {
						w = g.Gote
					}
					results = append(results, Result{Round: r + 1, Sente: g.Sente, Gote: g.Gote, Winner: w})
				}
			}
		}
		ids := make([]string, n)
		for i, p := range players {
			ids[i] = p.ID
		}
		rules, _ := DefaultClassRules(ClassC1)
		tab, err := Standings(Term{Class: ClassC1, Players: ids, Schedule: s, Results: results, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		wins, losses, unplayed, promoted, points := 0, 0, 0, 0, 0
		for i, r := range tab.Rows {
			if r.Wins+r.Losses+r.Unplayed != d.GamesEach() {
				t.Errorf("%s: %d+%d+%d games, scheduled %d", r.ID, r.Wins, r.Losses, r.Unplayed, d.GamesEach())
			}
			if r.Rests != len(s.Rounds)-d.GamesEach() {
				t.Errorf("%s: %d rests", r.ID, r.Rests)
			}
			wins += r.Wins
			losses += r.Losses
			unplayed += r.Unplayed
			if i > 0 {
				p := tab.Rows[i-1]
				if p.Wins < r.Wins || (p.Wins == r.Wins && (p.Losses > r.Losses || (p.Losses == r.Losses && p.Junni > r.Junni))) {
					t.Errorf("place %d (%s) is above place %d (%s) wrongly", i, p.ID, i+1, r.ID)
				}
			}
			if r.Outcome == OutcomePromoted {
				promoted++
			}
			if r.NewPoint {
				points++
			}
		}
		if wins != losses || wins+unplayed/2 != scheduled {
			t.Errorf("%d wins, %d losses, %d unplayed halves for %d games", wins, losses, unplayed, scheduled)
		}
		if promoted < rules.Promote {
			t.Errorf("%d promoted, the class promotes %d", promoted, rules.Promote)
		}
		if points != n/5 {
			t.Errorf("%d new 降級点, want %d (n/5)", points, n/5)
		}
		if tab.Final != (unplayed == 0) {
			t.Errorf("final %v with %d unplayed", tab.Final, unplayed)
		}
	})
}
