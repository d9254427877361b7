package pairing

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestTeamLeague_EveryPairOnceAndBoardOneBalanced: for 2–24 teams, one and
// two cycles, checked from the schedule alone: each pair meets once per
// cycle, no team twice in a round, an odd field gives each team one bye per
// cycle, and each team is A (sente on board 1 under the fixed rule) in half
// its matches, rounded either way, and in exactly half over two cycles;
// A and B alternate round by round with the fewest breaks (n−2 for an even
// field, none for an odd one).
func TestTeamLeague_EveryPairOnceAndBoardOneBalanced(t *testing.T) {
	t.Parallel()
	for n := 2; n <= 24; n++ {
		for cycles := 1; cycles <= 2; cycles++ {
			var teams []Team
			for i := range n {
				teams = append(teams, Team{ID: fmt.Sprintf("T%02d", i)})
			}
			sch, err := DrawTeamLeague(TeamLeagueRequest{Teams: teams, Cycles: cycles, Seed: uint64(n)})
			if err != nil {
				t.Fatal(err)
			}
			perCycle := n - 1 + n%2
			if len(sch.Rounds) != cycles*perCycle {
				t.Fatalf("n=%d: %d rounds", n, len(sch.Rounds))
			}
			met := map[[2]string]int{}
			asA, games, byes := map[string]int{}, map[string]int{}, map[string]int{}
			for r, rd := range sch.Rounds {
				seen := map[string]bool{}
				place := func(id string) {
					if seen[id] {
						t.Fatalf("n=%d round %d: %s twice", n, r+1, id)
					}
					seen[id] = true
				}
				for _, m := range rd.Matches {
					place(m.A)
					place(m.B)
					k := [2]string{min(m.A, m.B), max(m.A, m.B)}
					met[k]++
					asA[m.A]++
					games[m.A]++
					games[m.B]++
				}
				if rd.Bye != "" {
					place(rd.Bye)
					byes[rd.Bye]++
				}
				if len(seen) != n {
					t.Fatalf("n=%d round %d: %d teams placed", n, r+1, len(seen))
				}
			}
			if len(met) != n*(n-1)/2 {
				t.Fatalf("n=%d: %d pairs met", n, len(met))
			}
			for k, c := range met {
				if c != cycles {
					t.Fatalf("n=%d: %v met %d times", n, k, c)
				}
			}
			// Breaks (A or B in two rounds running): the fewest a single
			// round robin allows, n−2 for an even field and none for an odd
			// one, and never three in a row.
			if cycles == 1 {
				last, run, breaks := map[string]int{}, map[string]int{}, 0
				for _, rd := range sch.Rounds {
					for _, m := range rd.Matches {
						for side, id := range []string{m.A, m.B} {
							v := 1 - 2*side
							if last[id] == v {
								run[id]++
								breaks++
							} else {
								run[id] = 1
							}
							last[id] = v
							if run[id] > 2 {
								t.Fatalf("n=%d: %s on one side three rounds running", n, id)
							}
						}
					}
				}
				if want := (n - 2) * (1 - n%2); breaks != want {
					t.Fatalf("n=%d: %d breaks, want %d", n, breaks, want)
				}
			}
			for _, tm := range teams {
				if n%2 == 1 && byes[tm.ID] != cycles {
					t.Fatalf("n=%d: %s has %d byes", n, tm.ID, byes[tm.ID])
				}
				d := 2*asA[tm.ID] - games[tm.ID]
				if (cycles == 1 && (d < -1 || d > 1)) || (cycles == 2 && d != 0) {
					t.Fatalf("n=%d cycles %d: %s is A in %d of %d", n, cycles, tm.ID, asA[tm.ID], games[tm.ID])
				}
			}
		}
	}
}

// TestTeamLeague_SixteenTeamsSevenBoards: the university league size:
// fifteen rounds of eight matches; the lot decides the numbers, the same
// for the same seed whatever the input order.
func TestTeamLeague_SixteenTeamsSevenBoards(t *testing.T) {
	t.Parallel()
	var teams []Team
	for i := range 16 {
		teams = append(teams, Team{ID: fmt.Sprintf("U%02d", i)})
	}
	a, err := DrawTeamLeague(TeamLeagueRequest{Teams: teams, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	rev := slices.Clone(teams)
	slices.Reverse(rev)
	b, _ := DrawTeamLeague(TeamLeagueRequest{Teams: rev, Seed: 7})
	if !slices.Equal(a.Numbers, b.Numbers) || len(a.Rounds) != 15 || len(a.Rounds[0].Matches) != 8 {
		t.Fatalf("numbers %v / %v, %d rounds", a.Numbers, b.Numbers, len(a.Rounds))
	}
	kept, _ := DrawTeamLeague(TeamLeagueRequest{Teams: teams, KeepOrder: true})
	for i, id := range kept.Numbers {
		if id != teams[i].ID {
			t.Fatalf("keep_order: number %d is %s", i+1, id)
		}
	}
}

// TestTeamColours_OneTossAlternatesBoards: one 振り駒 decides board 1 and
// the boards alternate; per-board tosses are taken as given; the fixed rule
// gives team A the odd boards; a wrong toss count is refused.
func TestTeamColours_OneTossAlternatesBoards(t *testing.T) {
	t.Parallel()
	got, err := TeamColours(ColoursAlternate, 5, []bool{true})
	if err != nil || !slices.Equal(got, []bool{true, false, true, false, true}) {
		t.Fatalf("A sente on board 1: %v %v", got, err)
	}
	got, _ = TeamColours("", 4, []bool{false})
	if !slices.Equal(got, []bool{false, true, false, true}) {
		t.Fatalf("A gote on board 1: %v", got)
	}
	got, _ = TeamColours(ColoursPerBoard, 3, []bool{true, true, false})
	if !slices.Equal(got, []bool{true, true, false}) {
		t.Fatalf("per board: %v", got)
	}
	got, _ = TeamColours(ColoursFixed, 3, nil)
	if !slices.Equal(got, []bool{true, false, true}) {
		t.Fatalf("fixed: %v", got)
	}
	var fe *FieldError
	if _, err := TeamColours(ColoursPerBoard, 3, []bool{true}); !errors.As(err, &fe) || fe.Code != FieldTeamTosses {
		t.Fatalf("one toss for three boards: %v", err)
	}
}

// TestTeamDivisions_PromotionRelegation: N up and M down between adjacent
// divisions, checked team by team; sizes are kept; impossible numbers are
// refused.
func TestTeamDivisions_PromotionRelegation(t *testing.T) {
	t.Parallel()
	divs := []TeamDivision{
		{Name: "1部", Ranking: []string{"a1", "a2", "a3", "a4", "a5", "a6"}},
		{Name: "2部", Ranking: []string{"b1", "b2", "b3", "b4", "b5", "b6"}},
		{Name: "3部", Ranking: []string{"c1", "c2", "c3", "c4"}},
	}
	next, err := TeamDivisionMoves(divs, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(d TeamDivisionNext) []string {
		var out []string
		for _, m := range d.Teams {
			out = append(out, m.Team)
		}
		return out
	}
	want := [][]string{
		{"a1", "a2", "a3", "a4", "b1"},
		{"a5", "a6", "b2", "b3", "b4", "c1"},
		{"b5", "b6", "c2", "c3", "c4"},
	}
	for d := range next {
		if !slices.Equal(ids(next[d]), want[d]) {
			t.Fatalf("%s: %v, want %v", next[d].Name, ids(next[d]), want[d])
		}
	}
	if m := next[1].Teams[0]; m.Move != MoveRelegated || m.From != "1部" || m.Rank != 5 {
		t.Fatalf("a5: %+v", m)
	}
	if m := next[0].Teams[4]; m.Move != MovePromoted || m.From != "2部" || m.Rank != 1 {
		t.Fatalf("b1: %+v", m)
	}
	var fe *FieldError
	if _, err := TeamDivisionMoves(divs, 4, 3); !errors.As(err, &fe) || fe.Code != FieldTeamDivisions {
		t.Fatalf("4 up and 3 down from 6 teams: %v", err)
	}
	if _, err := TeamDivisionMoves([]TeamDivision{{Name: "x", Ranking: []string{"a"}}, {Name: "y", Ranking: []string{"a"}}}, 0, 0); !errors.As(err, &fe) || fe.Code != FieldTeamDuplicate {
		t.Fatalf("a team in two divisions: %v", err)
	}
}

// TestTeamKnockout_BracketEngineTakesTeams: the knockout engine draws and
// advances teams by id; each match's winner comes from its boards, a
// forfeited match is a forfeit, and a drawn match is refused.
func TestTeamKnockout_BracketEngineTakesTeams(t *testing.T) {
	t.Parallel()
	var ents []Entrant
	for i := range 8 {
		ents = append(ents, Entrant{ID: fmt.Sprintf("team%d", i+1), Seed: i + 1})
	}
	b, err := Draw(DrawRequest{Stage: MainEvent, Entrants: ents, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rules := TeamMatchRules{Boards: 5, Tie: TieCaptain}
	var results []Result
	for round := 0; ; round++ {
		pr, err := Advance(b, results, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Champion != "" {
			if pr.Champion != "team1" {
				t.Fatalf("team A wins every match by its boards, champion %s", pr.Champion)
			}
			break
		}
		for _, g := range pr.Next {
			// The better seed is A and wins 3–2; one match by forfeits.
			a, bb := g.Players[0], g.Players[1]
			if a > bb {
				a, bb = bb, a
			}
			boards := boardsOf("a", "b", "a", "b", "a")
			if round == 0 && g.Index == 1 {
				boards = boardsOf("a_forfeit", "a_forfeit", "a_forfeit", "a_forfeit", "a_forfeit")
			}
			res, err := DecideTeamMatch(rules, boards)
			if err != nil {
				t.Fatal(err)
			}
			r, err := TeamKnockoutResult(g.ID, a, bb, res)
			if err != nil {
				t.Fatal(err)
			}
			if (round == 0 && g.Index == 1) != (r.Kind == Forfeit) {
				t.Fatalf("%s: kind %s", g.ID, r.Kind)
			}
			results = append(results, r)
		}
		if round > 4 {
			t.Fatal("no champion after 5 rounds of 8 teams")
		}
	}
	drawn, _ := DecideTeamMatch(TeamMatchRules{Boards: 4}, boardsOf("a", "b", "a", "b"))
	var fe *FieldError
	if _, err := TeamKnockoutResult("R1-G1", "x", "y", drawn); !errors.As(err, &fe) || fe.Code != FieldTeamUndecided {
		t.Fatalf("drawn match: %v", err)
	}
}

// TestTeamPools_PoolsEngineTakesTeams: the N勝通過M敗失格 engine pairs teams
// by id on match results: two wins qualify, two losses eliminate.
func TestTeamPools_PoolsEngineTakesTeams(t *testing.T) {
	t.Parallel()
	req := PoolsRequest{Wins: 2, Losses: 2, Mode: "records", Seed: 1}
	for i := range 8 {
		req.Players = append(req.Players, PoolPlayer{ID: fmt.Sprintf("team%d", i+1)})
	}
	rules := TeamMatchRules{Boards: 3}
	for round := 1; round <= 3; round++ {
		rd, err := DrawPools(req)
		if err != nil {
			t.Fatal(err)
		}
		if rd.Finished {
			break
		}
		for _, p := range rd.Pairings {
			res, _ := DecideTeamMatch(rules, boardsOf("a", "b", "a")) // the first listed team wins 2–1
			g, err := TeamPoolGame(round, p.Board, p.Players[0], p.Players[1], res)
			if err != nil {
				t.Fatal(err)
			}
			req.Games = append(req.Games, g)
		}
		for _, id := range rd.Byes {
			req.Byes = append(req.Byes, PoolBye{Round: round, Player: id})
		}
	}
	_, st, err := CheckPools(req)
	if err != nil {
		t.Fatal(err)
	}
	q := 0
	for _, s := range st {
		if s.Record.Wins >= 2 {
			q++
		}
		if s.Record.Wins > 2 || s.Record.Losses > 2 {
			t.Fatalf("%s played on past its result: %v", s.ID, s.Record)
		}
	}
	if q == 0 {
		t.Fatalf("no team qualified: %+v", st)
	}
}

// TestTeamLeague_CheckFindsBrokenSchedule: the draw's own schedule passes;
// a swapped match breaks the pairs, a dropped team is missing, and every
// match of one team as A breaks the board-1 balance.
func TestTeamLeague_CheckFindsBrokenSchedule(t *testing.T) {
	t.Parallel()
	req := TeamLeagueRequest{Teams: []Team{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}, {ID: "f"}}, Seed: 4}
	sch, err := DrawTeamLeague(req)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := CheckTeamLeague(req, sch.Rounds); err != nil || len(v) != 0 {
		t.Fatalf("own schedule: %v %v", v, err)
	}
	rules := func(rounds []TeamRound) []string {
		v, err := CheckTeamLeague(req, rounds)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range v {
			out = append(out, x.Rule)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	bad := slices.Clone(sch.Rounds)
	bad[0] = TeamRound{Matches: slices.Clone(bad[0].Matches)}
	bad[0].Matches[0] = TeamMatch{A: bad[0].Matches[0].A, B: bad[0].Matches[0].A}
	if got := rules(bad); !slices.Contains(got, RuleLeagueTwice) || !slices.Contains(got, RuleLeagueMissing) || !slices.Contains(got, RuleLeaguePairs) {
		t.Fatalf("a team against itself: %v", got)
	}
	flip := make([]TeamRound, len(sch.Rounds))
	for r, rd := range sch.Rounds {
		for _, m := range rd.Matches {
			if m.B == "a" {
				m.A, m.B = m.B, m.A
			}
			flip[r].Matches = append(flip[r].Matches, m)
		}
	}
	if got := rules(flip); !slices.Equal(got, []string{RuleLeagueBalance}) {
		t.Fatalf("a always A: %v", got)
	}
}
