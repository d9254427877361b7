package pairing

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// oracleTiebreaks recomputes weighted, captain, buchholz and sb from the raw
// rounds, in the units shown (weighted and captain count a drawn board half,
// sb a drawn match half).
func oracleTiebreaks(set TeamSettings, rounds []TeamRound) map[string]map[TeamTiebreak]float64 {
	mp, _ := oracleTotals(set, rounds)
	out := map[string]map[TeamTiebreak]float64{}
	get := func(id string) map[TeamTiebreak]float64 {
		if out[id] == nil {
			out[id] = map[TeamTiebreak]float64{}
		}
		return out[id]
	}
	n := set.Match.Boards
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			final := len(m.Boards) == n
			for _, x := range m.Boards {
				final = final && x != ""
			}
			if !final {
				continue
			}
			a, b := get(m.A), get(m.B)
			for k, x := range m.Boards {
				w := float64(n - k)
				cap := 0.0
				if k == 0 {
					cap = 1
				}
				switch x {
				case "a", "a_forfeit":
					a[TeamTiebreakWeighted] += w
					a[TeamTiebreakCaptain] += cap
				case "b", "b_forfeit":
					b[TeamTiebreakWeighted] += w
					b[TeamTiebreakCaptain] += cap
				case "draw":
					a[TeamTiebreakWeighted] += w / 2
					b[TeamTiebreakWeighted] += w / 2
					a[TeamTiebreakCaptain] += cap / 2
					b[TeamTiebreakCaptain] += cap / 2
				}
			}
			a[TeamTiebreakBuchholz] += float64(mp[m.B])
			b[TeamTiebreakBuchholz] += float64(mp[m.A])
			res := float64(oracleOutcome(set.Match, m.Boards)+1) / 2 // A's: 1, ½, 0
			a[TeamTiebreakSB] += res * float64(mp[m.B])
			b[TeamTiebreakSB] += (1 - res) * float64(mp[m.A])
		}
	}
	return out
}

// TestTeamStandings_OrderRecomputedFromBoards: on random Swiss events the
// standings are ordered by match points, board wins, then the tie-breaks
// in the event's order, every value recomputed here from the raw boards;
// equal ranks exactly for equal keys.
func TestTeamStandings_OrderRecomputedFromBoards(t *testing.T) {
	t.Parallel()
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		tbs := []TeamTiebreak{TeamTiebreakWeighted, TeamTiebreakCaptain, TeamTiebreakBuchholz, TeamTiebreakSB}
		rng.Shuffle(len(tbs), func(i, j int) { tbs[i], tbs[j] = tbs[j], tbs[i] })
		set := TeamSwissSettings{Rounds: 5, TeamSettings: TeamSettings{Match: TeamMatchRules{Boards: []int{3, 5, 7}[seed%3],
			Tie: []TeamTieRule{TieDraw, TieCaptain, TieHigherBoards}[seed%3]}, Tiebreaks: tbs}}
		if seed%2 == 1 {
			set.Points = TeamPoints{Win: 3, Draw: 1, Loss: 0, Bye: 3, ByeBoardWins: 2}
		}
		req := playTeamSwiss(t, TeamSwissRequest{Teams: randomTeams(rng, 9+int(seed%8), 3), Settings: set, Seed: seed}, 5, rng)
		st, err := TeamStandings(TeamStandingsRequest{Teams: req.Teams, Settings: set.TeamSettings, Rounds: req.Rounds})
		if err != nil {
			t.Fatal(err)
		}
		mp, bw := oracleTotals(set.TeamSettings, req.Rounds)
		tb := oracleTiebreaks(set.TeamSettings, req.Rounds)
		key := func(s TeamStanding) []float64 {
			k := []float64{float64(mp[s.ID]), float64(bw[s.ID])}
			for _, x := range tbs {
				k = append(k, tb[s.ID][x])
			}
			return k
		}
		if len(st) != len(req.Teams) {
			t.Fatalf("%d lines for %d teams", len(st), len(req.Teams))
		}
		for i, s := range st {
			if s.MatchPoints != mp[s.ID] || s.BoardWins != bw[s.ID] {
				t.Fatalf("seed %d %s: %d points %d board wins; counted %d and %d", seed, s.ID, s.MatchPoints, s.BoardWins, mp[s.ID], bw[s.ID])
			}
			for j, v := range s.Tiebreaks {
				if v.Tiebreak != tbs[j] || v.Value != tb[s.ID][tbs[j]] {
					t.Fatalf("seed %d %s: tie-break %d is %+v; counted %s %v", seed, s.ID, j, v, tbs[j], tb[s.ID][tbs[j]])
				}
			}
			if i == 0 {
				if s.Rank != 1 {
					t.Fatalf("first line ranked %d", s.Rank)
				}
				continue
			}
			c := slices.Compare(key(st[i-1]), key(s))
			switch {
			case c < 0:
				t.Fatalf("seed %d: %s %v above %s %v", seed, st[i-1].ID, key(st[i-1]), s.ID, key(s))
			case c == 0 && s.Rank != st[i-1].Rank, c > 0 && s.Rank != i+1:
				t.Fatalf("seed %d: %s ranked %d after %s ranked %d (keys compare %d)", seed, s.ID, s.Rank, st[i-1].ID, st[i-1].Rank, c)
			}
		}
	}
}

// TestTeamStandings_DirectMatchAmongTiedTeams: teams level on match
// points and board wins that all met are ordered by the points among them;
// when not every two of them met, the direct match separates no one.
func TestTeamStandings_DirectMatchAmongTiedTeams(t *testing.T) {
	t.Parallel()
	teams := []Team{{ID: "x"}, {ID: "y"}, {ID: "z"}, {ID: "w"}}
	set := TeamSettings{Match: TeamMatchRules{Boards: 3}, Tiebreaks: []TeamTiebreak{TeamTiebreakDirect}}
	rounds := []TeamRound{
		{Matches: []TeamMatch{{A: "x", B: "y", Boards: boardsOf("a", "b", "a")}, {A: "z", B: "w", Boards: boardsOf("a", "a", "b")}}},
		{Matches: []TeamMatch{{A: "x", B: "z", Boards: boardsOf("a", "b", "b")}, {A: "y", B: "w", Boards: boardsOf("a", "a", "b")}}},
	}
	mp, bw := oracleTotals(set, rounds)
	if mp["x"] != mp["y"] || bw["x"] != bw["y"] {
		t.Fatalf("fixture: x and y not level: %v %v", mp, bw)
	}
	st, err := TeamStandings(TeamStandingsRequest{Teams: teams, Settings: set, Rounds: rounds})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st {
		got = append(got, s.ID)
	}
	if !slices.Equal(got, []string{"z", "x", "y", "w"}) || st[1].Rank != 2 || st[2].Rank != 3 {
		t.Fatalf("x beat y, level otherwise: %+v", st)
	}
	if d := st[1].Tiebreaks[0]; !d.Applied || d.Value != 2 {
		t.Fatalf("x's direct value %+v", d)
	}
	if d := st[0].Tiebreaks[0]; d.Applied {
		t.Fatalf("z tied with no one but direct applied: %+v", d)
	}
	// After round 1 only: x and z level, never met; y and w level, never met.
	st, err = TeamStandings(TeamStandingsRequest{Teams: teams, Settings: set, Rounds: rounds[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Rank != 1 || st[1].Rank != 1 || st[2].Rank != 3 || st[3].Rank != 3 || st[0].Tiebreaks[0].Applied {
		t.Fatalf("no direct match among the tied: %+v", st)
	}
}

// TestTeamStandings_LotSeparatesAndIsSeeded: teams level on everything are
// separated by the lot, the same for the same seed, and the lot's value is
// shown.
func TestTeamStandings_LotSeparatesAndIsSeeded(t *testing.T) {
	t.Parallel()
	teams := []Team{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	set := TeamSettings{Match: TeamMatchRules{Boards: 3}}
	orders := map[string]bool{}
	for seed := range uint64(20) {
		st, err := TeamStandings(TeamStandingsRequest{Teams: teams, Settings: set, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		rev := slices.Clone(teams)
		slices.Reverse(rev)
		again, _ := TeamStandings(TeamStandingsRequest{Teams: rev, Settings: set, Seed: seed})
		var ids, ids2 []string
		for i, s := range st {
			if s.Rank != i+1 {
				t.Fatalf("seed %d: rank %d at line %d", seed, s.Rank, i+1)
			}
			lot := s.Tiebreaks[len(s.Tiebreaks)-1]
			if lot.Tiebreak != TeamTiebreakLot || lot.Value < 1 || lot.Value > 5 {
				t.Fatalf("lot value %+v", lot)
			}
			ids = append(ids, s.ID)
			ids2 = append(ids2, again[i].ID)
		}
		if !slices.Equal(ids, ids2) {
			t.Fatalf("seed %d: input order changed the lot: %v %v", seed, ids, ids2)
		}
		orders[strings.Join(ids, ",")] = true
	}
	if len(orders) < 5 {
		t.Fatalf("20 seeds gave %d orders", len(orders))
	}
}

// TestTeamStandings_PendingMatchesCountNothing: a match with a board still
// being played adds no points, no board wins and no game played.
func TestTeamStandings_PendingMatchesCountNothing(t *testing.T) {
	t.Parallel()
	st, err := TeamStandings(TeamStandingsRequest{Teams: []Team{{ID: "a"}, {ID: "b"}},
		Settings: TeamSettings{Match: TeamMatchRules{Boards: 3}},
		Rounds:   []TeamRound{{Matches: []TeamMatch{{A: "a", B: "b", Boards: boardsOf("a", "a", "")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.MatchPoints != 0 || s.BoardWins != 0 || s.Played != 0 || s.Pending != 1 {
			t.Fatalf("%+v", s)
		}
	}
}

// TestTeamStandings_BadInput: unknown teams, a second bye, bad points and
// tie-breaks are coded FieldErrors.
func TestTeamStandings_BadInput(t *testing.T) {
	t.Parallel()
	base := func() TeamStandingsRequest {
		return TeamStandingsRequest{Teams: []Team{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Settings: TeamSettings{Match: TeamMatchRules{Boards: 3}}}
	}
	cases := []struct {
		code string
		edit func(*TeamStandingsRequest)
	}{
		{FieldTeamUnknown, func(r *TeamStandingsRequest) {
			r.Rounds = []TeamRound{{Matches: []TeamMatch{{A: "a", B: "q", Boards: boardsOf("a", "a", "a")}}}}
		}},
		{FieldTeamByeTwice, func(r *TeamStandingsRequest) { r.Rounds = []TeamRound{{Bye: "a"}, {Bye: "a"}} }},
		{FieldTeamTwice, func(r *TeamStandingsRequest) {
			r.Rounds = []TeamRound{{Matches: []TeamMatch{{A: "a", B: "b", Boards: boardsOf("a", "a", "a")}}, Bye: "b"}}
		}},
		{FieldTeamSelf, func(r *TeamStandingsRequest) {
			r.Rounds = []TeamRound{{Matches: []TeamMatch{{A: "a", B: "a", Boards: boardsOf("a", "a", "a")}}}}
		}},
		{FieldTeamPoints, func(r *TeamStandingsRequest) { r.Settings.Points = TeamPoints{Win: 1, Draw: 2} }},
		{FieldTeamTiebreak, func(r *TeamStandingsRequest) { r.Settings.Tiebreaks = []TeamTiebreak{"sb", "sb"} }},
		{FieldTeamTiebreak, func(r *TeamStandingsRequest) { r.Settings.Tiebreaks = []TeamTiebreak{"median"} }},
		{FieldTeamDuplicate, func(r *TeamStandingsRequest) { r.Teams = append(r.Teams, Team{ID: "a"}) }},
	}
	for _, c := range cases {
		r := base()
		c.edit(&r)
		_, err := TeamStandings(r)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Code != c.code {
			t.Errorf("want %s: %v", c.code, err)
		}
	}
}
