package pairing

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func boardsOf(s ...string) []BoardOutcome {
	out := make([]BoardOutcome, len(s))
	for i, x := range s {
		out[i] = BoardOutcome(x)
	}
	return out
}

// TestTeamMatch_MajorityAndTieRules: the match follows from the boards
// (issue 25 item 3): more board wins, forfeit wins counted; a tie goes to
// the organiser's tie rule (draw, 主将戦, higher boards); majority_of_boards
// needs wins on more than half the boards.
func TestTeamMatch_MajorityAndTieRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		rules  TeamMatchRules
		boards []BoardOutcome
		want   TeamOutcome
		by     string
		board  int
	}{
		{"3-2 win", TeamMatchRules{Boards: 5}, boardsOf("a", "b", "a", "b", "a"), TeamAWins, DecidedByWins, 0},
		{"forfeit wins count", TeamMatchRules{Boards: 3}, boardsOf("b", "a_forfeit", "a_forfeit"), TeamAWins, DecidedByWins, 0},
		{"2-2 with a drawn board is drawn", TeamMatchRules{Boards: 5}, boardsOf("b", "a", "draw", "a", "b"), TeamDrawn, DecidedByTie, 0},
		{"2-2 captain decides", TeamMatchRules{Boards: 5, Tie: TieCaptain}, boardsOf("b", "a", "unplayed", "a", "b"), TeamBWins, DecidedByCaptain, 1},
		{"2-2 captain drawn stays drawn", TeamMatchRules{Boards: 5, Tie: TieCaptain}, boardsOf("draw", "a", "a", "b", "b"), TeamDrawn, DecidedByTie, 0},
		{"2-2 higher boards skip a drawn board 1", TeamMatchRules{Boards: 5, Tie: TieHigherBoards}, boardsOf("draw", "a", "b", "b", "a"), TeamAWins, DecidedByHigher, 2},
		{"2-1 of five wins by more wins", TeamMatchRules{Boards: 5}, boardsOf("a", "draw", "b", "unplayed", "a"), TeamAWins, DecidedByWins, 0},
		{"2-1 of five is no majority of boards", TeamMatchRules{Boards: 5, Win: WinMajorityOfBoards}, boardsOf("a", "draw", "b", "unplayed", "a"), TeamDrawn, DecidedByTie, 0},
		{"2-1 of five, majority rule, captain", TeamMatchRules{Boards: 5, Win: WinMajorityOfBoards, Tie: TieCaptain}, boardsOf("b", "draw", "a", "unplayed", "a"), TeamBWins, DecidedByCaptain, 1},
		{"4-3 of seven", TeamMatchRules{Boards: 7, Win: WinMajorityOfBoards}, boardsOf("a", "a", "b", "b", "b", "a", "a"), TeamAWins, DecidedByWins, 0},
		{"all unplayed", TeamMatchRules{Boards: 3, Tie: TieHigherBoards}, boardsOf("unplayed", "unplayed", "unplayed"), TeamDrawn, DecidedByTie, 0},
	}
	for _, c := range cases {
		res, err := DecideTeamMatch(c.rules, c.boards)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !res.Final || res.Outcome != c.want || res.DecidedBy != c.by || res.Board != c.board {
			t.Errorf("%s: %+v; want %s by %s (board %d)", c.name, res, c.want, c.by, c.board)
		}
	}
}

// TestTeamMatch_FinalOnlyWhenEveryBoardIs: a match with a board pending
// (a 千日手 being replayed) has no outcome, even when the other boards
// already give a majority.
func TestTeamMatch_FinalOnlyWhenEveryBoardIs(t *testing.T) {
	t.Parallel()
	res, err := DecideTeamMatch(TeamMatchRules{Boards: 5}, boardsOf("a", "a", "a", "", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Final || res.Outcome != TeamUndecided || res.Pending != 1 || res.Wins != [2]int{3, 1} {
		t.Fatalf("pending board: %+v", res)
	}
}

// TestTeamMatch_BadInputNamesTheBoard: wrong board count, an unknown result
// and an unknown rule are FieldErrors with codes.
func TestTeamMatch_BadInputNamesTheBoard(t *testing.T) {
	t.Parallel()
	var fe *FieldError
	_, err := DecideTeamMatch(TeamMatchRules{Boards: 5}, boardsOf("a", "b"))
	if !errors.As(err, &fe) || fe.Code != FieldTeamBoardCount || fe.Params["Want"] != 5 {
		t.Fatalf("two of five boards: %v", err)
	}
	_, err = DecideTeamMatch(TeamMatchRules{Boards: 3}, boardsOf("a", "sente", "b"))
	if !errors.As(err, &fe) || fe.Code != FieldTeamBoardResult || fe.Params["Board"] != 2 || fe.Field != "boards[1]" {
		t.Fatalf("unknown result: %v", err)
	}
	_, err = DecideTeamMatch(TeamMatchRules{Boards: 3, Tie: "coin"}, boardsOf("a", "b", "a"))
	if !errors.As(err, &fe) || fe.Code != FieldTeamRule || !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown tie rule: %v", err)
	}
	_, err = DecideTeamMatch(TeamMatchRules{Boards: 0}, nil)
	if !errors.As(err, &fe) || fe.Code != FieldTeamBoards {
		t.Fatalf("no boards: %v", err)
	}
}

// TestTeamMatch_AgreesWithBoardCount: on random boards under every rule
// pair, the outcome is the one counted straight from the boards.
func TestTeamMatch_AgreesWithBoardCount(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(25, 3))
	for range 3000 {
		r := TeamMatchRules{Boards: 1 + rng.IntN(7),
			Win: []TeamWinRule{"", WinMoreBoards, WinMajorityOfBoards}[rng.IntN(3)],
			Tie: []TeamTieRule{"", TieDraw, TieCaptain, TieHigherBoards}[rng.IntN(4)]}
		b := randomBoards(rng, r.Boards)
		res, err := DecideTeamMatch(r, b)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]TeamOutcome{1: TeamAWins, -1: TeamBWins, 0: TeamDrawn}[oracleOutcome(r, b)]
		if res.Outcome != want {
			t.Fatalf("%+v %v: %s, want %s", r, b, res.Outcome, want)
		}
	}
}
