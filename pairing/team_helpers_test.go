package pairing

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The team tests' oracle: every number recomputed from the raw boards, never
// read from the engine's bookkeeping.

// oracleOutcome decides a final match by counting its boards: +1 A wins,
// −1 B wins, 0 drawn.
func oracleOutcome(r TeamMatchRules, boards []BoardOutcome) int {
	a, b := 0, 0
	first := 0 // the highest board with a winner: +1 A, −1 B
	for _, x := range boards {
		w := 0
		switch x {
		case "a", "a_forfeit":
			a, w = a+1, 1
		case "b", "b_forfeit":
			b, w = b+1, -1
		}
		if first == 0 && w != 0 {
			first = w
		}
	}
	if r.Win == "majority_of_boards" {
		if 2*a > len(boards) {
			return 1
		}
		if 2*b > len(boards) {
			return -1
		}
	} else if a != b {
		if a > b {
			return 1
		}
		return -1
	}
	switch r.Tie {
	case "captain":
		switch boards[0] {
		case "a", "a_forfeit":
			return 1
		case "b", "b_forfeit":
			return -1
		}
	case "higher_boards":
		return first
	}
	return 0
}

// oracleTotals is each team's match points and board wins from the raw
// rounds (final matches only).
func oracleTotals(set TeamSettings, rounds []TeamRound) (mp, bw map[string]int) {
	p := set.Points
	if p == (TeamPoints{}) {
		p = TeamPoints{Win: 2, Draw: 1, Bye: 2}
	}
	mp, bw = map[string]int{}, map[string]int{}
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			final := len(m.Boards) > 0
			for _, x := range m.Boards {
				if x == "" {
					final = false
				}
			}
			if !final {
				continue
			}
			for _, x := range m.Boards {
				switch x {
				case "a", "a_forfeit":
					bw[m.A]++
				case "b", "b_forfeit":
					bw[m.B]++
				}
			}
			switch oracleOutcome(set.Match, m.Boards) {
			case 1:
				mp[m.A] += p.Win
				mp[m.B] += p.Loss
			case -1:
				mp[m.A] += p.Loss
				mp[m.B] += p.Win
			default:
				mp[m.A] += p.Draw
				mp[m.B] += p.Draw
			}
		}
		if rd.Bye != "" {
			mp[rd.Bye] += p.Bye
			bw[rd.Bye] += p.ByeBoardWins
		}
	}
	return mp, bw
}

// randomBoards plays a match: wins mostly, some draws, forfeits and an
// unplayed board now and then.
func randomBoards(rng *rand.Rand, n int) []BoardOutcome {
	out := make([]BoardOutcome, n)
	for k := range out {
		switch x := rng.IntN(40); {
		case x < 18:
			out[k] = BoardA
		case x < 36:
			out[k] = BoardB
		case x < 37:
			out[k] = BoardDraw
		case x < 38:
			out[k] = BoardAForfeit
		case x < 39:
			out[k] = BoardBForfeit
		default:
			out[k] = BoardUnplayed
		}
	}
	return out
}

// randomTeams are n teams in affiliations of about aff teams each (0: none).
func randomTeams(rng *rand.Rand, n, aff int) []Team {
	out := make([]Team, n)
	for i := range out {
		out[i] = Team{ID: fmt.Sprintf("t%03d", i), Name: fmt.Sprintf("Team %d", i), Rating: rng.IntN(3000)}
		if aff > 0 {
			out[i].Affiliation = fmt.Sprintf("school%d", rng.IntN(max(1, n/aff)))
		}
	}
	return out
}

// playTeamSwiss draws and plays rounds more rounds of req (t nil: a draw
// that fails stops early and the rounds so far are returned).
func playTeamSwiss(t testing.TB, req TeamSwissRequest, rounds int, rng *rand.Rand) TeamSwissRequest {
	for range rounds {
		if len(req.Rounds) >= req.Settings.Rounds {
			break
		}
		req.Round = 0
		p, err := DrawTeamSwiss(req)
		if err != nil {
			if t != nil {
				t.Fatalf("round %d: %v", len(req.Rounds)+1, err)
			}
			return req
		}
		rd := TeamRound{Bye: p.Bye}
		for _, m := range p.Matches {
			m.Boards = randomBoards(rng, req.Settings.Match.Boards)
			rd.Matches = append(rd.Matches, m)
		}
		req.Rounds = append(req.Rounds, rd)
	}
	req.Round = 0
	return req
}
