package pairing

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// SwissStanding is one line of the standings. Points are in wins (a draw
// counts half, a bye a whole win).
type SwissStanding struct {
	Rank      int     `json:"rank"` // equal when no tie-break separates
	ID        string  `json:"id"`
	Name      string  `json:"name,omitempty"`
	Wins      float64 `json:"wins"`
	Solkoff   float64 `json:"solkoff"` // ソルコフ: opponents' wins
	SB        float64 `json:"sb"`      // Sonneborn–Berger
	Games     int     `json:"games"`
	Byes      int     `json:"byes"`
	Withdrawn bool    `json:"withdrawn,omitempty"`
}

// SwissStandings orders the class by wins, then the class's tie-breaks in
// their order (req.Settings.Tiebreaks; nil means DefaultTiebreaks). The
// lot is drawn from req.Seed; Round is not read.
//
//   - ソルコフ: the sum of the opponents' wins (a bye has no opponent).
//   - SB: the wins of the opponents beaten plus half of those drawn with.
//   - 直接対決: points among the tied players, only when every two of them
//     have met (otherwise it separates no one).
//   - 抽選: a seeded lot.
func SwissStandings(req SwissRequest) ([]SwissStanding, error) {
	s, err := newSwissState(req, false)
	if err != nil {
		return nil, err
	}
	n := len(s.players)
	solkoff := make([]int, n) // half-points
	sb := make([]int, n)      // quarter-points
	games := make([]int, n)
	byes := make([]int, n)
	won := map[[2]int]int{} // half-points a scored against b
	for _, rd := range req.History {
		for _, g := range rd.Games {
			a, b := s.index[g.Sente], s.index[g.Gote]
			games[a]++
			games[b]++
			pa := map[GameResult]int{SenteWins: 2, GoteWins: 0, DrawnGame: 1}[g.Result]
			won[[2]int{a, b}] += pa
			won[[2]int{b, a}] += 2 - pa
		}
		if rd.Bye != "" {
			byes[s.index[rd.Bye]]++
		}
	}
	for k, pts := range won {
		a, b := k[0], k[1]
		solkoff[a] += s.score[b]
		sb[a] += pts * s.score[b] // pts/2 × score/2 in quarter-points
	}
	tbs := req.Settings.Tiebreaks
	if tbs == nil {
		tbs = DefaultTiebreaks()
	}
	lot := rand.New(rand.NewPCG(req.Seed, 0x6c6f74)).Perm(n)

	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(s.score[b], s.score[a]); c != 0 {
			return c
		}
		return cmp.Compare(s.order[a], s.order[b])
	})
	// groups[i] is the id of the tie group of order[i]; refined per tie-break.
	groups := make([]int, n)
	for i := 1; i < n; i++ {
		groups[i] = groups[i-1]
		if s.score[order[i]] != s.score[order[i-1]] {
			groups[i] = i
		}
	}
	for _, tb := range tbs {
		for start := 0; start < n; {
			end := start + 1
			for end < n && groups[end] == groups[start] {
				end++
			}
			if end-start > 1 {
				g := order[start:end]
				key := make(map[int]int, len(g))
				switch tb {
				case TiebreakSolkoff:
					for _, p := range g {
						key[p] = solkoff[p]
					}
				case TiebreakSB:
					for _, p := range g {
						key[p] = sb[p]
					}
				case TiebreakLot:
					for _, p := range g {
						key[p] = -lot[p]
					}
				case TiebreakDirect:
					all := true
					for i, p := range g {
						for _, q := range g[i+1:] {
							if !s.met[pairKey(p, q)] {
								all = false
							}
						}
					}
					for _, p := range g {
						if all {
							for _, q := range g {
								key[p] += won[[2]int{p, q}]
							}
						}
					}
				}
				slices.SortStableFunc(g, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
				for i := start + 1; i < end; i++ {
					if key[order[i]] != key[order[i-1]] {
						groups[i] = i
					} else {
						groups[i] = groups[i-1]
					}
				}
			}
			start = end
		}
	}
	out := make([]SwissStanding, n)
	for i, p := range order {
		out[i] = SwissStanding{Rank: groups[i] + 1, ID: s.players[p].ID, Name: s.players[p].Name,
			Wins: float64(s.score[p]) / 2, Solkoff: float64(solkoff[p]) / 2, SB: float64(sb[p]) / 4,
			Games: games[p], Byes: byes[p], Withdrawn: s.players[p].Withdrawn}
	}
	return out, nil
}
