package pairing

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Limits of a team event's input.
const (
	MaxTeams      = 1000
	MaxTeamRounds = 30
	maxTeamPoints = 100 // a match's points, win, draw, loss or bye
)

// Team is one team of the event.
type Team struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Affiliation is the school, club, 支部 or company the team belongs to;
	// teams with the same non-empty value are kept apart by the Swiss draw.
	Affiliation string `json:"affiliation,omitempty"`
	// Rating orders the teams before any match (higher first, then id):
	// the upper team of a pairing and the tables of round 1. 0 for none.
	Rating    int  `json:"rating,omitempty"`
	Withdrawn bool `json:"withdrawn,omitempty"` // not drawn; its matches still count
}

// TeamMatch is one match of a round: team A against team B, board by board
// (Boards[0] is board 1). Boards is empty in a round being drawn or checked.
type TeamMatch struct {
	Table  int            `json:"table,omitempty"`
	A      string         `json:"a"`
	B      string         `json:"b"`
	Boards []BoardOutcome `json:"boards,omitempty"`
}

// TeamRound is one round: its matches and the bye, if any.
type TeamRound struct {
	Matches []TeamMatch `json:"matches"`
	Bye     string      `json:"bye,omitempty"`
}

// TeamPoints are the organiser's match points (勝ち点). All zero means
// DefaultTeamPoints.
type TeamPoints struct {
	Win  int `json:"win"`
	Draw int `json:"draw"`
	Loss int `json:"loss"`
	Bye  int `json:"bye"`
	// ByeBoardWins are the board wins (勝数) a bye counts.
	ByeBoardWins int `json:"bye_board_wins"`
}

// DefaultTeamPoints: win 2, draw 1, loss 0, a bye as a win with no board wins.
func DefaultTeamPoints() TeamPoints { return TeamPoints{Win: 2, Draw: 1, Loss: 0, Bye: 2} }

// TeamTiebreak is one criterion after match points and board wins.
type TeamTiebreak string

const (
	TeamTiebreakDirect   TeamTiebreak = "direct"   // 直接対決
	TeamTiebreakWeighted TeamTiebreak = "weighted" // board-weighted wins
	TeamTiebreakCaptain  TeamTiebreak = "captain"  // 主将戦 results
	TeamTiebreakBuchholz TeamTiebreak = "buchholz" // ソルコフ: opponents' match points
	TeamTiebreakSB       TeamTiebreak = "sb"       // Sonneborn–Berger
	TeamTiebreakLot      TeamTiebreak = "lot"      // 抽選 (seeded)
)

// DefaultTeamTiebreaks is the order when the event sets none.
func DefaultTeamTiebreaks() []TeamTiebreak {
	return []TeamTiebreak{TeamTiebreakDirect, TeamTiebreakWeighted, TeamTiebreakCaptain,
		TeamTiebreakBuchholz, TeamTiebreakSB, TeamTiebreakLot}
}

// TeamSettings are the event's rules that the draws and standings read.
type TeamSettings struct {
	Match     TeamMatchRules `json:"match"`
	Points    TeamPoints     `json:"points"`
	Tiebreaks []TeamTiebreak `json:"tiebreaks,omitempty"` // nil means DefaultTeamTiebreaks
}

func (s TeamSettings) points() TeamPoints {
	if s.Points == (TeamPoints{}) {
		return DefaultTeamPoints()
	}
	return s.Points
}

func (s TeamSettings) tiebreaks() []TeamTiebreak {
	if s.Tiebreaks == nil {
		return DefaultTeamTiebreaks()
	}
	return s.Tiebreaks
}

func (s TeamSettings) validate() error {
	if err := s.Match.validate("settings.match"); err != nil {
		return err
	}
	p := s.points()
	if p.Loss < 0 || p.Draw < p.Loss || p.Win < p.Draw || p.Win == 0 || p.Win > maxTeamPoints ||
		p.Bye < 0 || p.Bye > maxTeamPoints || p.ByeBoardWins < 0 || p.ByeBoardWins > s.Match.Boards {
		return codedErr(FieldTeamPoints, map[string]any{"Win": p.Win, "Draw": p.Draw, "Loss": p.Loss},
			"settings.points", "match points win %d, draw %d, loss %d, bye %d, bye board wins %d: want win ≥ draw ≥ loss ≥ 0, win ≥ 1, win and bye ≤ %d, bye board wins ≤ the boards",
			p.Win, p.Draw, p.Loss, p.Bye, p.ByeBoardWins, maxTeamPoints)
	}
	seen := map[TeamTiebreak]bool{}
	for i, t := range s.Tiebreaks {
		switch t {
		case TeamTiebreakDirect, TeamTiebreakWeighted, TeamTiebreakCaptain, TeamTiebreakBuchholz, TeamTiebreakSB, TeamTiebreakLot:
		default:
			return codedErr(FieldTeamTiebreak, map[string]any{"Tiebreak": string(t)}, fmt.Sprintf("settings.tiebreaks[%d]", i),
				"unknown tie-break %q (want direct, weighted, captain, buchholz, sb or lot)", string(t))
		}
		if seen[t] {
			return codedErr(FieldTeamTiebreak, map[string]any{"Tiebreak": string(t)}, fmt.Sprintf("settings.tiebreaks[%d]", i),
				"%q listed twice", string(t))
		}
		seen[t] = true
	}
	return nil
}

// teamPlayed is one final match as the standings read it.
type teamPlayed struct {
	a, b   int
	res    TeamMatchResult
	boards []BoardOutcome
}

// teamState is an event so far, recomputed from the rounds.
type teamState struct {
	teams  []Team
	index  map[string]int
	set    TeamSettings
	pts    TeamPoints
	played []teamPlayed
	byes   [][]int // per team, the rounds (1-based) of its byes
	met    map[uint64]int
	mp     []int // match points of the final matches and byes
	order  []int // initial order position (0 = first)
	// pending counts the matches of the history not final yet.
	pending []int
}

// newTeamState validates the teams, settings and rounds. Matches not final
// are skipped (counted in pending) unless final is set, when they are bad
// input (a Swiss round is drawn only on a finished history).
func newTeamState(teams []Team, set TeamSettings, rounds []TeamRound, final bool) (*teamState, error) {
	if len(teams) > MaxTeams {
		return nil, codedErr(FieldTeamTooMany, map[string]any{"Count": len(teams), "Max": MaxTeams},
			"teams", "%d teams; at most %d", len(teams), MaxTeams)
	}
	if err := set.validate(); err != nil {
		return nil, err
	}
	s := &teamState{teams: teams, index: make(map[string]int, len(teams)), set: set, pts: set.points(), met: map[uint64]int{}}
	n := len(teams)
	for i, t := range teams {
		if t.ID == "" {
			return nil, fieldErr(fmt.Sprintf("teams[%d].id", i), "missing id")
		}
		if j, dup := s.index[t.ID]; dup {
			return nil, codedErr(FieldTeamDuplicate, map[string]any{"Team": t.ID}, fmt.Sprintf("teams[%d].id", i),
				"duplicate id %q (also teams[%d])", t.ID, j)
		}
		s.index[t.ID] = i
	}
	s.byes = make([][]int, n)
	s.mp = make([]int, n)
	s.pending = make([]int, n)
	busy := make([]int, n) // 1 + the last round a team was seen in
	for r, rd := range rounds {
		// Field names are formatted only for an error.
		use := func(field func() string, id string) (int, error) {
			i, ok := s.index[id]
			if !ok {
				return 0, codedErr(FieldTeamUnknown, map[string]any{"Team": id}, field(), "unknown team %q", id)
			}
			if busy[i] == r+1 {
				return 0, codedErr(FieldTeamTwice, map[string]any{"Team": id, "Round": r + 1}, field(),
					"%q is in two places of round %d", id, r+1)
			}
			busy[i] = r + 1
			return i, nil
		}
		for m, mt := range rd.Matches {
			at := func() string { return fmt.Sprintf("rounds[%d].matches[%d]", r, m) }
			a, err := use(func() string { return at() + ".a" }, mt.A)
			if err != nil {
				return nil, err
			}
			if mt.A == mt.B {
				return nil, codedErr(FieldTeamSelf, map[string]any{"Team": mt.A, "Round": r + 1}, at()+".b",
					"%q plays itself", mt.A)
			}
			b, err := use(func() string { return at() + ".b" }, mt.B)
			if err != nil {
				return nil, err
			}
			res, err := decideTeamMatch(set.Match, "", "", mt.Boards)
			if err != nil { // again, naming the field and the match
				_, err = decideTeamMatch(set.Match, at()+".boards", mt.A+"–"+mt.B, mt.Boards)
				return nil, err
			}
			s.met[pairKey(a, b)]++
			if !res.Final {
				if final {
					return nil, codedErr(FieldTeamRounds, map[string]any{"Round": r + 1, "Want": 0}, at()+".boards",
						"%s–%s is not final (%d boards pending); a round is drawn once the rounds before it are", mt.A, mt.B, res.Pending)
				}
				s.pending[a]++
				s.pending[b]++
				continue
			}
			s.played = append(s.played, teamPlayed{a: a, b: b, res: res, boards: mt.Boards})
			pa, pb := s.matchPoints(res.Outcome)
			s.mp[a] += pa
			s.mp[b] += pb
		}
		if rd.Bye != "" {
			at := func() string { return fmt.Sprintf("rounds[%d].bye", r) }
			i, err := use(at, rd.Bye)
			if err != nil {
				return nil, err
			}
			if len(s.byes[i]) > 0 {
				return nil, codedErr(FieldTeamByeTwice, map[string]any{"Team": rd.Bye, "Round": r + 1}, at(),
					"%q already had a bye (round %d); one bye per team", rd.Bye, s.byes[i][0])
			}
			s.byes[i] = append(s.byes[i], r+1)
			s.mp[i] += s.pts.Bye
		}
	}
	// Initial order: rating, then id (input order never matters).
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(teams[b].Rating, teams[a].Rating); c != 0 {
			return c
		}
		return strings.Compare(teams[a].ID, teams[b].ID)
	})
	s.order = make([]int, n)
	for k, i := range idx {
		s.order[i] = k
	}
	return s, nil
}

func (s *teamState) matchPoints(o TeamOutcome) (a, b int) {
	switch o {
	case TeamAWins:
		return s.pts.Win, s.pts.Loss
	case TeamBWins:
		return s.pts.Loss, s.pts.Win
	}
	return s.pts.Draw, s.pts.Draw
}

// TeamTiebreakValue is one tie-break's value for a team, for display.
type TeamTiebreakValue struct {
	Tiebreak TeamTiebreak `json:"tiebreak"`
	Value    float64      `json:"value"`
	// Applied is false for a direct-match value not used: the team tied
	// with no one at that step, or not every two of the tied teams met.
	Applied bool `json:"applied"`
}

// TeamStanding is one line of the standings.
type TeamStanding struct {
	Rank        int                 `json:"rank"` // equal when nothing separates
	ID          string              `json:"id"`
	Name        string              `json:"name,omitempty"`
	Played      int                 `json:"played"` // final matches
	Won         int                 `json:"won"`
	Drawn       int                 `json:"drawn"`
	Lost        int                 `json:"lost"`
	Byes        int                 `json:"byes"`
	Pending     int                 `json:"pending,omitempty"` // matches not final yet (not counted)
	MatchPoints int                 `json:"match_points"`      // 勝ち点
	BoardWins   int                 `json:"board_wins"`        // 勝数, forfeit wins and bye board wins included
	BoardDraws  int                 `json:"board_draws"`
	Tiebreaks   []TeamTiebreakValue `json:"tiebreaks"` // in the event's order
	Withdrawn   bool                `json:"withdrawn,omitempty"`
}

// TeamStandingsRequest is an event so far.
type TeamStandingsRequest struct {
	Teams    []Team       `json:"teams"`
	Settings TeamSettings `json:"settings"`
	Rounds   []TeamRound  `json:"rounds"`
	Seed     uint64       `json:"seed"` // the lot's
}

// TeamStandings orders the teams by match points, then board wins, then the
// event's tie-breaks in order (docs/team-events.md gives the formulas):
//
//   - direct: match points among the tied teams, only when every two of
//     them have met;
//   - weighted: Σ over boards won of (boards − board + 1), a drawn board
//     half that (board 1 of 7 weighs 7, board 7 weighs 1);
//   - captain: board-1 wins, a drawn board 1 half;
//   - buchholz: the sum of the opponents' match points (a bye has none);
//   - sb: Σ over matches of the opponent's match points × the match
//     result (win 1, draw ½, loss 0);
//   - lot: a seeded lot.
//
// Matches not final count for nothing (Pending says how many).
func TeamStandings(req TeamStandingsRequest) ([]TeamStanding, error) {
	s, err := newTeamState(req.Teams, req.Settings, req.Rounds, false)
	if err != nil {
		return nil, err
	}
	return s.standings(req.Seed), nil
}

func (s *teamState) standings(seed uint64) []TeamStanding {
	n := len(s.teams)
	N := s.set.Match.Boards
	bw, bd := make([]int, n), make([]int, n)
	weighted, captain := make([]int, n), make([]int, n) // half-units
	buchholz, sb := make([]int, n), make([]int, n)      // sb in half-units
	won, drawn, lost := make([]int, n), make([]int, n), make([]int, n)
	between := map[[2]int]int{} // match points a took from b
	for _, p := range s.played {
		t := [2]int{p.a, p.b}
		pa, pb := s.matchPoints(p.res.Outcome)
		between[[2]int{p.a, p.b}] += pa
		between[[2]int{p.b, p.a}] += pb
		for side := range 2 {
			me, opp := t[side], t[1-side]
			buchholz[me] += s.mp[opp]
			switch {
			case p.res.Outcome == TeamDrawn:
				drawn[me]++
				sb[me] += s.mp[opp]
			case (p.res.Outcome == TeamAWins) == (side == 0):
				won[me]++
				sb[me] += 2 * s.mp[opp]
			default:
				lost[me]++
			}
		}
		for k, b := range p.boards {
			w := N - k
			if b == BoardDraw {
				bd[p.a]++
				bd[p.b]++
				weighted[p.a] += w
				weighted[p.b] += w
				if k == 0 {
					captain[p.a]++
					captain[p.b]++
				}
				continue
			}
			if x := b.winner(); x >= 0 {
				bw[t[x]]++
				weighted[t[x]] += 2 * w
				if k == 0 {
					captain[t[x]] += 2
				}
			}
		}
	}
	for i := range n {
		bw[i] += len(s.byes[i]) * s.pts.ByeBoardWins
	}
	tbs := s.set.tiebreaks()
	// The lot is drawn over the initial order, so input order never matters.
	lot := rand.New(rand.NewPCG(seed, 0x7465616d6c6f74)).Perm(n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(s.mp[b], s.mp[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(bw[b], bw[a]); c != 0 {
			return c
		}
		return cmp.Compare(s.order[a], s.order[b])
	})
	groups := make([]int, n)
	for i := 1; i < n; i++ {
		groups[i] = groups[i-1]
		if s.mp[order[i]] != s.mp[order[i-1]] || bw[order[i]] != bw[order[i-1]] {
			groups[i] = i
		}
	}
	direct := make([]int, n)
	directUsed := make([]bool, n)
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
				case TeamTiebreakWeighted:
					for _, p := range g {
						key[p] = weighted[p]
					}
				case TeamTiebreakCaptain:
					for _, p := range g {
						key[p] = captain[p]
					}
				case TeamTiebreakBuchholz:
					for _, p := range g {
						key[p] = buchholz[p]
					}
				case TeamTiebreakSB:
					for _, p := range g {
						key[p] = sb[p]
					}
				case TeamTiebreakLot:
					for _, p := range g {
						key[p] = -lot[s.order[p]]
					}
				case TeamTiebreakDirect:
					all := true
					for i, p := range g {
						for _, q := range g[i+1:] {
							if s.met[pairKey(p, q)] == 0 {
								all = false
							}
						}
					}
					for _, p := range g {
						if all {
							for _, q := range g {
								key[p] += between[[2]int{p, q}]
							}
							direct[p], directUsed[p] = key[p], true
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
	out := make([]TeamStanding, n)
	for i, p := range order {
		t := s.teams[p]
		st := TeamStanding{Rank: groups[i] + 1, ID: t.ID, Name: t.Name, Played: won[p] + drawn[p] + lost[p],
			Won: won[p], Drawn: drawn[p], Lost: lost[p], Byes: len(s.byes[p]), Pending: s.pending[p],
			MatchPoints: s.mp[p], BoardWins: bw[p], BoardDraws: bd[p], Withdrawn: t.Withdrawn,
			Tiebreaks: make([]TeamTiebreakValue, 0, len(tbs))}
		for _, tb := range tbs {
			v := TeamTiebreakValue{Tiebreak: tb, Applied: true}
			switch tb {
			case TeamTiebreakDirect:
				v.Value, v.Applied = float64(direct[p]), directUsed[p]
			case TeamTiebreakWeighted:
				v.Value = float64(weighted[p]) / 2
			case TeamTiebreakCaptain:
				v.Value = float64(captain[p]) / 2
			case TeamTiebreakBuchholz:
				v.Value = float64(buchholz[p])
			case TeamTiebreakSB:
				v.Value = float64(sb[p]) / 2
			case TeamTiebreakLot:
				v.Value = float64(lot[s.order[p]] + 1)
			}
			st.Tiebreaks = append(st.Tiebreaks, v)
		}
		out[i] = st
	}
	return out
}
