package pairing

import "fmt"

// 団体戦 (issue 25): a team match is N boards between team A and team B;
// its result follows from the boards under the organiser's rules. See
// docs/team-events.md, "Team draws and standings (engine)".

// MaxTeamBoards bounds a team's boards (3, 5 and 7 are usual).
const MaxTeamBoards = 15

// BoardOutcome is one board's result, as team A and team B see it.
type BoardOutcome string

const (
	BoardPending  BoardOutcome = ""          // not final yet (being played, a 千日手 or 持将棋 being replayed)
	BoardA        BoardOutcome = "a"         // team A's player won over the board
	BoardB        BoardOutcome = "b"         // team B's player won over the board
	BoardDraw     BoardOutcome = "draw"      // 持将棋 or 千日手 the event does not replay: no winner
	BoardAForfeit BoardOutcome = "a_forfeit" // team A wins by forfeit (不戦勝: B's player absent)
	BoardBForfeit BoardOutcome = "b_forfeit" // team B wins by forfeit
	BoardUnplayed BoardOutcome = "unplayed"  // no game and no winner (both absent, or left unplayed)
)

func (o BoardOutcome) valid() bool {
	switch o {
	case BoardPending, BoardA, BoardB, BoardDraw, BoardAForfeit, BoardBForfeit, BoardUnplayed:
		return true
	}
	return false
}

// winner: 0 team A, 1 team B, −1 none (draw, unplayed, pending).
func (o BoardOutcome) winner() int {
	switch o {
	case BoardA, BoardAForfeit:
		return 0
	case BoardB, BoardBForfeit:
		return 1
	}
	return -1
}

// TeamWinRule is what wins a match outright.
type TeamWinRule string

const (
	// WinMoreBoards: more board wins than the other team (2–1 with two
	// drawn boards of five wins). The default.
	WinMoreBoards TeamWinRule = "more_wins"
	// WinMajorityOfBoards: board wins on more than half of all boards (3 of
	// 5, 4 of 7); anything less goes to the tie rule.
	WinMajorityOfBoards TeamWinRule = "majority_of_boards"
)

// TeamTieRule is how a match neither team wins outright counts.
type TeamTieRule string

const (
	TieDraw TeamTieRule = "draw" // a drawn match (the default)
	// TieCaptain: the winner of board 1 (主将戦) takes the match; a drawn
	// or unplayed board 1 leaves it drawn.
	TieCaptain TeamTieRule = "captain"
	// TieHigherBoards: the winner of the highest board that has a winner
	// takes the match; no board with a winner leaves it drawn.
	TieHigherBoards TeamTieRule = "higher_boards"
)

// TeamMatchRules are the organiser's rules of a match.
type TeamMatchRules struct {
	Boards int         `json:"boards"`
	Win    TeamWinRule `json:"win,omitempty"` // "" means more_wins
	Tie    TeamTieRule `json:"tie,omitempty"` // "" means draw
}

func (r TeamMatchRules) validate(field string) error {
	if r.Boards < 1 || r.Boards > MaxTeamBoards {
		return codedErr(FieldTeamBoards, map[string]any{"Count": r.Boards, "Max": MaxTeamBoards},
			field+".boards", "%d boards; a team plays 1 to %d", r.Boards, MaxTeamBoards)
	}
	switch r.Win {
	case "", WinMoreBoards, WinMajorityOfBoards:
	default:
		return codedErr(FieldTeamRule, map[string]any{"Setting": "win", "Value": string(r.Win)},
			field+".win", "unknown win rule %q (want more_wins or majority_of_boards)", string(r.Win))
	}
	switch r.Tie {
	case "", TieDraw, TieCaptain, TieHigherBoards:
	default:
		return codedErr(FieldTeamRule, map[string]any{"Setting": "tie", "Value": string(r.Tie)},
			field+".tie", "unknown tie rule %q (want draw, captain or higher_boards)", string(r.Tie))
	}
	return nil
}

// TeamOutcome is a match's result.
type TeamOutcome string

const (
	TeamUndecided TeamOutcome = ""     // some board is not final
	TeamAWins     TeamOutcome = "a"    // team A wins the match
	TeamBWins     TeamOutcome = "b"    // team B wins the match
	TeamDrawn     TeamOutcome = "draw" // a drawn match
)

// How a match was decided (TeamMatchResult.DecidedBy).
const (
	DecidedByWins    = "wins"          // board wins under the win rule
	DecidedByCaptain = "captain"       // the tie rule: board 1 (主将戦)
	DecidedByHigher  = "higher_boards" // the tie rule: the highest board with a winner
	DecidedByTie     = "tie"           // the tie rule left it drawn
)

// TeamMatchResult is a match read from its boards.
type TeamMatchResult struct {
	Final   bool        `json:"final"` // every board final
	Outcome TeamOutcome `json:"outcome"`
	// Wins are the board wins of A and B, forfeit wins (不戦勝) included;
	// Forfeits the forfeit wins among them.
	Wins      [2]int `json:"wins"`
	Forfeits  [2]int `json:"forfeits"`
	Draws     int    `json:"draws"`
	Unplayed  int    `json:"unplayed"`
	Pending   int    `json:"pending"`
	DecidedBy string `json:"decided_by,omitempty"`
	Board     int    `json:"board,omitempty"` // the board that decided a tie
}

// DecideTeamMatch reads a match from its boards (boards[0] is board 1, 主将):
// nothing is decided until every board is final (D: issue 25 item 3, "final
// only when every board is"). Board wins count forfeit wins. The win rule
// decides first; a match it leaves undecided goes to the tie rule.
func DecideTeamMatch(r TeamMatchRules, boards []BoardOutcome) (TeamMatchResult, error) {
	if err := r.validate("rules"); err != nil {
		return TeamMatchResult{}, err
	}
	return decideTeamMatch(r, "boards", "", boards)
}

// decideTeamMatch assumes r valid; field and match name bad input.
func decideTeamMatch(r TeamMatchRules, field, match string, boards []BoardOutcome) (TeamMatchResult, error) {
	var res TeamMatchResult
	if len(boards) != r.Boards {
		return res, codedErr(FieldTeamBoardCount, map[string]any{"Match": match, "Count": len(boards), "Want": r.Boards},
			field, "%d board results; the event plays %d boards", len(boards), r.Boards)
	}
	for k, b := range boards {
		if !b.valid() {
			return res, codedErr(FieldTeamBoardResult, map[string]any{"Match": match, "Board": k + 1, "Result": string(b)},
				fmt.Sprintf("%s[%d]", field, k), "board %d: unknown result %q (want a, b, draw, a_forfeit, b_forfeit, unplayed or empty while not final)", k+1, string(b))
		}
		switch b {
		case BoardPending:
			res.Pending++
		case BoardDraw:
			res.Draws++
		case BoardUnplayed:
			res.Unplayed++
		case BoardAForfeit:
			res.Forfeits[0]++
		case BoardBForfeit:
			res.Forfeits[1]++
		}
		if w := b.winner(); w >= 0 {
			res.Wins[w]++
		}
	}
	if res.Pending > 0 {
		return res, nil
	}
	res.Final = true
	a, b := res.Wins[0], res.Wins[1]
	switch {
	case r.Win == WinMajorityOfBoards && 2*a > r.Boards, r.Win != WinMajorityOfBoards && a > b:
		res.Outcome, res.DecidedBy = TeamAWins, DecidedByWins
		return res, nil
	case r.Win == WinMajorityOfBoards && 2*b > r.Boards, r.Win != WinMajorityOfBoards && b > a:
		res.Outcome, res.DecidedBy = TeamBWins, DecidedByWins
		return res, nil
	}
	res.Outcome, res.DecidedBy = TeamDrawn, DecidedByTie
	switch r.Tie {
	case TieCaptain:
		if w := boards[0].winner(); w >= 0 {
			res.Outcome, res.DecidedBy, res.Board = [2]TeamOutcome{TeamAWins, TeamBWins}[w], DecidedByCaptain, 1
		}
	case TieHigherBoards:
		for k, bd := range boards {
			if w := bd.winner(); w >= 0 {
				res.Outcome, res.DecidedBy, res.Board = [2]TeamOutcome{TeamAWins, TeamBWins}[w], DecidedByHigher, k+1
				break
			}
		}
	}
	return res, nil
}
