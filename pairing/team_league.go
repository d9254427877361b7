package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Team round robin (総当たり), divisions with promotion and relegation, the
// colours of a match, and the thin links to the knockout and pools engines
// (issue 25 item 4). See docs/team-events.md.

// TeamLeagueRequest asks for a round-robin schedule.
type TeamLeagueRequest struct {
	Teams []Team `json:"teams"`
	// Cycles is 1 (each pair meets once) or 2 (twice, A and B swapped in
	// the second cycle); 0 means 1.
	Cycles int `json:"cycles,omitempty"`
	// KeepOrder gives the teams their schedule numbers in input order
	// (e.g. last season's ranking); otherwise by a lot from Seed.
	KeepOrder bool   `json:"keep_order,omitempty"`
	Seed      uint64 `json:"seed"`
}

// TeamLeagueSchedule is every round of a round robin. In each match team A
// takes sente on board 1 when the event fixes colours (TeamColours
// fixed); with a toss, A is the team that tosses for board 1.
type TeamLeagueSchedule struct {
	Numbers []string    `json:"numbers"` // teams by schedule number (1-based position)
	Rounds  []TeamRound `json:"rounds"`
}

// MaxTeamLeague bounds a round robin's teams.
const MaxTeamLeague = 64

// DrawTeamLeague schedules a round robin by the circle method: team n
// (n even; an odd field adds a bye) stays, the others rotate one place a
// round. Team A alternates round by round for every team where the method
// allows: over one cycle each team is A in ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ of its
// matches, and across two cycles exactly half.
func DrawTeamLeague(req TeamLeagueRequest) (TeamLeagueSchedule, error) {
	n := len(req.Teams)
	if n < 2 {
		return TeamLeagueSchedule{}, codedErr(FieldTeamTooFew, map[string]any{"Count": n}, "teams", "%d teams; a league needs at least 2", n)
	}
	if n > MaxTeamLeague {
		return TeamLeagueSchedule{}, codedErr(FieldTeamTooMany, map[string]any{"Count": n, "Max": MaxTeamLeague}, "teams", "%d teams; a league holds at most %d", n, MaxTeamLeague)
	}
	cycles := req.Cycles
	if cycles == 0 {
		cycles = 1
	}
	if cycles != 1 && cycles != 2 {
		return TeamLeagueSchedule{}, codedErr(FieldTeamRule, map[string]any{"Setting": "cycles", "Value": fmt.Sprint(cycles)}, "cycles", "%d cycles; want 1 or 2", cycles)
	}
	seen := map[string]int{}
	for i, t := range req.Teams {
		if t.ID == "" {
			return TeamLeagueSchedule{}, fieldErr(fmt.Sprintf("teams[%d].id", i), "missing id")
		}
		if j, dup := seen[t.ID]; dup {
			return TeamLeagueSchedule{}, codedErr(FieldTeamDuplicate, map[string]any{"Team": t.ID}, fmt.Sprintf("teams[%d].id", i), "duplicate id %q (also teams[%d])", t.ID, j)
		}
		seen[t.ID] = i
	}
	ids := make([]string, n)
	for i, t := range req.Teams {
		ids[i] = t.ID
	}
	if !req.KeepOrder {
		slices.Sort(ids) // input order never matters, only the lot
		rng := rand.New(rand.NewPCG(req.Seed, 0x6c6561677565))
		rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	}
	out := TeamLeagueSchedule{Numbers: slices.Clone(ids)}
	m := n
	if m%2 == 1 {
		ids = append(ids, "") // the bye
		m++
	}
	for r := 0; r < m-1; r++ {
		var rd TeamRound
		add := func(a, b string) {
			switch {
			case a == "":
				rd.Bye = b
			case b == "":
				rd.Bye = a
			default:
				rd.Matches = append(rd.Matches, TeamMatch{Table: len(rd.Matches) + 1, A: a, B: b})
			}
		}
		// The fixed team meets the one at position r, A on even rounds.
		if r%2 == 0 {
			add(ids[m-1], ids[r])
		} else {
			add(ids[r], ids[m-1])
		}
		for k := 1; k < m/2; k++ {
			x, y := (r+k)%(m-1), (r-k+m-1)%(m-1)
			// Berger's orientation: the team ahead of r in the circle is A
			// on odd k, the one behind on even k; each rotating team then
			// alternates as the round moves it through k.
			if k%2 == 1 {
				add(ids[x], ids[y])
			} else {
				add(ids[y], ids[x])
			}
		}
		out.Rounds = append(out.Rounds, rd)
	}
	if cycles == 2 {
		first := len(out.Rounds)
		for r := range first {
			rd := TeamRound{Bye: out.Rounds[r].Bye}
			for _, mt := range out.Rounds[r].Matches {
				rd.Matches = append(rd.Matches, TeamMatch{Table: mt.Table, A: mt.B, B: mt.A})
			}
			out.Rounds = append(out.Rounds, rd)
		}
	}
	return out, nil
}

// TeamColourRule is how the boards of a match get their colours.
type TeamColourRule string

const (
	// ColoursAlternate: one 振り駒 decides board 1; the boards alternate
	// (team A sente on board 1 means gote on board 2, sente on 3, …). The
	// default.
	ColoursAlternate TeamColourRule = "alternate"
	ColoursPerBoard  TeamColourRule = "per_board" // a 振り駒 on every board
	// ColoursFixed: no toss; team A is sente on the odd boards.
	ColoursFixed TeamColourRule = "fixed"
)

// TeamColours gives, board by board, whether team A is sente: tosses are
// the 振り駒 outcomes as "team A sente" (one for alternate, one per board
// for per_board, none for fixed). Pure: the toss is made at the board.
func TeamColours(rule TeamColourRule, boards int, tosses []bool) ([]bool, error) {
	if boards < 1 || boards > MaxTeamBoards {
		return nil, codedErr(FieldTeamBoards, map[string]any{"Count": boards, "Max": MaxTeamBoards}, "boards", "%d boards; a team plays 1 to %d", boards, MaxTeamBoards)
	}
	want := 0
	switch rule {
	case "", ColoursAlternate:
		want = 1
	case ColoursPerBoard:
		want = boards
	case ColoursFixed:
	default:
		return nil, codedErr(FieldTeamRule, map[string]any{"Setting": "colours", "Value": string(rule)}, "colours", "unknown colour rule %q (want alternate, per_board or fixed)", string(rule))
	}
	if len(tosses) != want {
		return nil, codedErr(FieldTeamTosses, map[string]any{"Count": len(tosses), "Want": want}, "tosses", "%d 振り駒 outcomes; the colour rule takes %d", len(tosses), want)
	}
	out := make([]bool, boards)
	for k := range out {
		switch rule {
		case ColoursPerBoard:
			out[k] = tosses[k]
		case ColoursFixed:
			out[k] = k%2 == 0
		default:
			out[k] = tosses[0] == (k%2 == 0)
		}
	}
	return out, nil
}

// TeamDivision is one division's final ranking, first place first (from
// TeamStandings, whose lot leaves no tie).
type TeamDivision struct {
	Name    string   `json:"name"`
	Ranking []string `json:"ranking"`
}

// Moves of a team between seasons.
const (
	MoveStay      = "stay"
	MovePromoted  = "promoted"
	MoveRelegated = "relegated"
)

// TeamMove is one team of next season's division.
type TeamMove struct {
	Team string `json:"team"`
	From string `json:"from"` // this season's division
	Rank int    `json:"rank"` // this season's place there
	Move string `json:"move"`
}

// TeamDivisionNext is one division of next season.
type TeamDivisionNext struct {
	Name  string     `json:"name"`
	Teams []TeamMove `json:"teams"`
}

// TeamDivisionMoves applies promotion and relegation to divisions given top
// first: the top up teams of every division but the first go up one, the
// bottom down teams of every division but the last go down one. A
// division's next order is the teams relegated into it, then its stayers,
// then the teams promoted into it, each in this season's order.
func TeamDivisionMoves(divs []TeamDivision, up, down int) ([]TeamDivisionNext, error) {
	seen := map[string]string{}
	for d, dv := range divs {
		for _, id := range dv.Ranking {
			if id == "" {
				return nil, fieldErr(fmt.Sprintf("divisions[%d].ranking", d), "an empty team id")
			}
			if prev, dup := seen[id]; dup {
				return nil, codedErr(FieldTeamDuplicate, map[string]any{"Team": id}, fmt.Sprintf("divisions[%d].ranking", d), "%q is in %s and %s", id, prev, dv.Name)
			}
			seen[id] = dv.Name
		}
	}
	for d, dv := range divs {
		u, dn := up, down
		if d == 0 {
			u = 0
		}
		if d == len(divs)-1 {
			dn = 0
		}
		if up < 0 || down < 0 || u+dn > len(dv.Ranking) {
			return nil, codedErr(FieldTeamDivisions, map[string]any{"Division": dv.Name, "Up": up, "Down": down, "Size": len(dv.Ranking)},
				fmt.Sprintf("divisions[%d]", d), "%s has %d teams; %d up and %d down do not fit", dv.Name, len(dv.Ranking), u, dn)
		}
	}
	out := make([]TeamDivisionNext, len(divs))
	for d, dv := range divs {
		out[d].Name = dv.Name
		out[d].Teams = []TeamMove{}
	}
	for d, dv := range divs {
		k := len(dv.Ranking)
		for i, id := range dv.Ranking {
			mv := TeamMove{Team: id, From: dv.Name, Rank: i + 1, Move: MoveStay}
			to := d
			switch {
			case d > 0 && i < up:
				mv.Move, to = MovePromoted, d-1
			case d < len(divs)-1 && i >= k-down:
				mv.Move, to = MoveRelegated, d+1
			}
			out[to].Teams = append(out[to].Teams, mv)
		}
	}
	rank := map[string]int{MoveRelegated: 0, MoveStay: 1, MovePromoted: 2}
	for d := range out {
		slices.SortStableFunc(out[d].Teams, func(a, b TeamMove) int { return rank[a.Move] - rank[b.Move] })
	}
	return out, nil
}

// TeamKnockoutResult is a decided team match as a knockout result: the
// bracket engine (Draw, Advance) takes team ids as entrants unchanged. A
// match won only by forfeits is a forfeit (不戦). A drawn or unfinished
// match is refused: a knockout needs a tie rule that decides (captain,
// higher_boards) or the organiser's playoff.
func TeamKnockoutResult(game, a, b string, res TeamMatchResult) (Result, error) {
	w, fw := "", 0
	switch {
	case res.Final && res.Outcome == TeamAWins:
		w, fw = a, 0
	case res.Final && res.Outcome == TeamBWins:
		w, fw = b, 1
	default:
		return Result{}, codedErr(FieldTeamUndecided, map[string]any{"Match": game}, "match",
			"%s: %s–%s has no winner yet (a knockout match needs one)", game, a, b)
	}
	kind := Played
	if res.Wins[fw] > 0 && res.Forfeits[fw] == res.Wins[fw] && res.Wins[1-fw] == 0 && res.Draws == 0 {
		kind = Forfeit
	}
	return Result{Game: game, Winner: w, Kind: kind}, nil
}

// TeamPoolGame is a decided team match as a game of a pools preliminary
// (N勝通過M敗失格 on match results): the pools engine takes team ids as
// players unchanged. A drawn or unfinished match is refused as in
// TeamKnockoutResult.
func TeamPoolGame(round, table int, a, b string, res TeamMatchResult) (PoolGame, error) {
	r, err := TeamKnockoutResult(fmt.Sprintf("round %d table %d", round, table), a, b, res)
	if err != nil {
		return PoolGame{}, err
	}
	return PoolGame{Round: round, Board: table, Players: [2]string{a, b}, Winner: r.Winner}, nil
}

// Rules a round-robin schedule can break (CheckTeamLeague).
const (
	RuleLeagueUnknown = "team-league-unknown"       // a team not entered
	RuleLeagueTwice   = "team-league-twice"         // a team twice in one round
	RuleLeagueMissing = "team-league-missing"       // a team neither plays nor has the bye in a round
	RuleLeaguePairs   = "team-league-pairs"         // a pair meeting other than once per cycle
	RuleLeagueRounds  = "team-league-rounds"        // not the number of rounds the field needs
	RuleLeagueBalance = "team-league-board1-colour" // a team A in more or fewer matches than the balance allows
)

// CheckTeamLeague judges a schedule from the request and the schedule
// alone: the rounds the field needs, every team once per round, each pair
// once per cycle, and team A (board 1) within the balance DrawTeamLeague
// keeps (half its matches rounded either way; exactly half over two
// cycles). Numbers are not judged.
func CheckTeamLeague(req TeamLeagueRequest, rounds []TeamRound) ([]Violation, error) {
	n := len(req.Teams)
	cycles := req.Cycles
	if cycles == 0 {
		cycles = 1
	}
	if cycles != 1 && cycles != 2 {
		return nil, codedErr(FieldTeamRule, map[string]any{"Setting": "cycles", "Value": fmt.Sprint(cycles)}, "cycles", "%d cycles; want 1 or 2", cycles)
	}
	in := map[string]bool{}
	for i, t := range req.Teams {
		if t.ID == "" || in[t.ID] {
			return nil, codedErr(FieldTeamDuplicate, map[string]any{"Team": t.ID}, fmt.Sprintf("teams[%d].id", i), "missing or duplicate id %q", t.ID)
		}
		in[t.ID] = true
	}
	v := []Violation{}
	want := cycles * (n - 1 + n%2)
	if len(rounds) != want {
		v = append(v, Violation{Rule: RuleLeagueRounds, Message: fmt.Sprintf("%d rounds; %d teams over %d cycles need %d", len(rounds), n, cycles, want)})
	}
	met := map[[2]string]int{}
	asA, games := map[string]int{}, map[string]int{}
	for r, rd := range rounds {
		seen := map[string]bool{}
		place := func(id string) bool {
			switch {
			case !in[id]:
				v = append(v, Violation{Rule: RuleLeagueUnknown, Players: []string{id}, Message: fmt.Sprintf("round %d: %q is not a team of the league", r+1, id)})
				return false
			case seen[id]:
				v = append(v, Violation{Rule: RuleLeagueTwice, Players: []string{id}, Message: fmt.Sprintf("round %d: %s twice", r+1, id)})
				return false
			}
			seen[id] = true
			return true
		}
		for _, m := range rd.Matches {
			okA, okB := place(m.A), place(m.B)
			if okA && okB {
				met[[2]string{min(m.A, m.B), max(m.A, m.B)}]++
				asA[m.A]++
				games[m.A]++
				games[m.B]++
			}
		}
		if rd.Bye != "" {
			place(rd.Bye)
		}
		for _, t := range req.Teams {
			if !seen[t.ID] {
				v = append(v, Violation{Rule: RuleLeagueMissing, Players: []string{t.ID}, Message: fmt.Sprintf("round %d: %s neither plays nor has the bye", r+1, t.ID)})
			}
		}
	}
	for i, a := range req.Teams {
		for _, b := range req.Teams[i+1:] {
			k := [2]string{min(a.ID, b.ID), max(a.ID, b.ID)}
			if met[k] != cycles {
				v = append(v, Violation{Rule: RuleLeaguePairs, Players: []string{k[0], k[1]}, Message: fmt.Sprintf("%s and %s meet %d times; want %d", k[0], k[1], met[k], cycles)})
			}
		}
	}
	for _, t := range req.Teams {
		d := 2*asA[t.ID] - games[t.ID]
		if d > cycles%2 || d < -(cycles%2) {
			v = append(v, Violation{Rule: RuleLeagueBalance, Players: []string{t.ID},
				Message: fmt.Sprintf("%s is team A (board 1 sente under the fixed rule) in %d of %d matches", t.ID, asA[t.ID], games[t.ID])})
		}
	}
	return v, nil
}
