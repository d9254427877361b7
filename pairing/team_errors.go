package pairing

import (
	"fmt"
	"strings"
)

// Codes of the FieldErrors the team engine returns (issue 25), for a caller
// that says them in its reader's language (names.err.team.<code>). Params in
// brackets; teams by id.
const (
	FieldTeamBoards      = "team_boards"       // the board count is out of range [Count, Max]
	FieldTeamBoardCount  = "team_board_count"  // a match gives the wrong number of boards [Match, Count, Want]
	FieldTeamBoardResult = "team_board_result" // a board result the engine does not know [Match, Board, Result]
	FieldTeamUnknown     = "team_unknown"      // a match or bye names a team not entered [Team]
	FieldTeamDuplicate   = "team_duplicate"    // two teams with one id [Team]
	FieldTeamTwice       = "team_twice"        // a team in two places of one round [Team, Round]
	FieldTeamSelf        = "team_self"         // a team drawn against itself [Team, Round]
	FieldTeamByeTwice    = "team_bye_twice"    // a second bye in the history [Team, Round]
	FieldTeamPoints      = "team_points"       // match points not win ≥ draw ≥ loss ≥ 0, or too large [Win, Draw, Loss]
	FieldTeamRule        = "team_rule"         // an unknown organiser rule [Setting, Value]
	FieldTeamTiebreak    = "team_tiebreak"     // an unknown or repeated tie-break [Tiebreak]
	FieldTeamRounds      = "team_rounds"       // rounds out of range or not following the history [Round, Want]
	FieldTeamTooFew      = "team_too_few"      // fewer than two teams to draw [Count]
	FieldTeamTooMany     = "team_too_many"     // more teams than a draw takes [Count, Max]
	FieldTeamDivisions   = "team_divisions"    // promotion/relegation numbers the divisions cannot hold [Division, Up, Down, Size]
	FieldTeamTosses      = "team_tosses"       // the wrong number of 振り駒 outcomes for the colour rule [Count, Want]
	FieldTeamUndecided   = "team_undecided"    // a knockout or pools match without a winner [Match]
)

// NoTeamPairingError says why no team Swiss round keeps the hard rules (no
// rematch, a "never" affiliation kept apart, at most one bye per team).
// Groups and Barrier are a Tutte certificate by team id, as in
// NoSwissPairingError. Code is NoTeamRound for a translating caller
// (names.err.team.team_no_round, with Groups and Barrier).
type NoTeamPairingError struct {
	Code    string // NoTeamRound
	Round   int
	Reason  string
	Groups  [][]string
	Barrier []string
}

// NoTeamRound is the code of NoTeamPairingError.
const NoTeamRound = "team_no_round"

func (e *NoTeamPairingError) Error() string {
	return fmt.Sprintf("no team pairing for round %d: %s", e.Round, e.Reason)
}

func teamNoRound(round int, groups [][]string, barrier []string) *NoTeamPairingError {
	var parts []string
	for _, g := range groups {
		parts = append(parts, "{"+strings.Join(g, ", ")+"}")
	}
	return &NoTeamPairingError{Code: NoTeamRound, Round: round, Groups: groups, Barrier: barrier,
		Reason: fmt.Sprintf("every round would repeat a match, pair a 'never' affiliation or give a second bye: "+
			"%d groups with an odd number of teams (%s) may meet only each other or the %d teams of the barrier [%s]",
			len(groups), strings.Join(parts, " "), len(barrier), strings.Join(barrier, ", "))}
}
