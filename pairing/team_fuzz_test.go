package pairing

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// FuzzDrawTeamSwiss draws random team events (size, history and seed from
// the fuzzer) and checks them against the raw-input oracle: bad input is a
// FieldError, an impossible round agrees with brute force, a drawn round
// keeps every hard rule and reaches the brute-force optimum, and
// CheckTeamSwiss passes it. Run with go test -fuzz FuzzDrawTeamSwiss ./pairing/
func FuzzDrawTeamSwiss(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(2))
	f.Add(uint64(2), uint8(9), uint8(4))
	f.Add(uint64(3), uint8(3), uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, n, played uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		req := randomTeamSwiss(rng, 1+int(n%10), int(played%6))
		o := newTeamSwissOracle(req)
		p, err := DrawTeamSwiss(req)
		var nr *NoTeamPairingError
		switch {
		case errors.As(err, &nr):
			if _, ok := o.brute(); ok {
				t.Fatal("no round claimed, brute force found one")
			}
			return
		case errors.Is(err, ErrInvalid):
			return
		case err != nil:
			t.Fatal(err)
		}
		if bad := o.hard(p); len(bad) > 0 {
			t.Fatal(bad)
		}
		var pairs [][2]string
		for _, m := range p.Matches {
			pairs = append(pairs, [2]string{m.A, m.B})
		}
		best, _ := o.brute()
		if got := o.cost(pairs, p.Bye); got != best {
			t.Fatalf("cost %v, brute force %v", got, best)
		}
		if v, _, err := CheckTeamSwiss(req, p); err != nil || len(v) > 0 {
			t.Fatal(v, err)
		}
	})
}

// FuzzTeamStandings reads arbitrary bytes as board results (valid and not)
// of a four-team event: bad input is a FieldError naming a field; valid
// input gives every team one line, match points and board wins as counted
// from the boards, ranks non-decreasing.
func FuzzTeamStandings(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 0, 1}, uint8(3), uint8(0))
	f.Add([]byte{1, 1, 1, 2, 2, 2, 9}, uint8(3), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, boards, rule uint8) {
		codes := []BoardOutcome{BoardA, BoardB, BoardDraw, BoardAForfeit, BoardBForfeit, BoardUnplayed, BoardPending}
		set := TeamSettings{Match: TeamMatchRules{Boards: int(boards % 9),
			Win: []TeamWinRule{WinMoreBoards, WinMajorityOfBoards}[rule%2],
			Tie: []TeamTieRule{TieDraw, TieCaptain, TieHigherBoards}[int(rule/2)%3]}}
		teams := []Team{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
		pairs := [][2]string{{"a", "b"}, {"c", "d"}, {"a", "c"}, {"b", "d"}, {"a", "d"}, {"b", "c"}}
		var rounds []TeamRound
		for m := 0; m < 6 && len(data) > 0; m++ {
			k := min(len(data), int(data[0]%10))
			data = data[1:]
			k = min(k, len(data))
			var bs []BoardOutcome
			for _, x := range data[:k] {
				if int(x) < len(codes) {
					bs = append(bs, codes[x])
				} else {
					bs = append(bs, BoardOutcome([]byte{x}))
				}
			}
			data = data[k:]
			if m%2 == 0 {
				rounds = append(rounds, TeamRound{})
			}
			rounds[len(rounds)-1].Matches = append(rounds[len(rounds)-1].Matches, TeamMatch{A: pairs[m][0], B: pairs[m][1], Boards: bs})
		}
		st, err := TeamStandings(TeamStandingsRequest{Teams: teams, Settings: set, Rounds: rounds})
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("not a FieldError: %v", err)
			}
			return
		}
		mp, bw := oracleTotals(set, rounds)
		if len(st) != 4 {
			t.Fatalf("%d lines", len(st))
		}
		for i, s := range st {
			if s.MatchPoints != mp[s.ID] || s.BoardWins != bw[s.ID] {
				t.Fatalf("%s: %d/%d, counted %d/%d", s.ID, s.MatchPoints, s.BoardWins, mp[s.ID], bw[s.ID])
			}
			if i > 0 && s.Rank < st[i-1].Rank {
				t.Fatalf("ranks %d then %d", st[i-1].Rank, s.Rank)
			}
		}
		ids := []string{st[0].ID, st[1].ID, st[2].ID, st[3].ID}
		slices.Sort(ids)
		if !slices.Equal(ids, []string{"a", "b", "c", "d"}) {
			t.Fatalf("teams %v", ids)
		}
	})
}
