package office

import (
	"context"
	"fmt"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// ChainOutcomeInput is one tap on a desk's board (the team desk, issue 25
// item 5): the chain the board stands for, the game and result version the
// row showed, and the outcome — a win, a forfeit win (Reason forfeit) or a
// redo (千日手 or 持将棋, Reason sennichite or jishogi_redo).
type ChainOutcomeInput struct {
	RootID  int64
	GameID  int64
	Version int
	Result  string `field:"result" validate:"oneof=sente_win gote_win redo" msg:"league.err,oneof=result"` // ResultSenteWin, ResultGoteWin or ResultRedo
	Reason  string // ReasonResignation, ReasonForfeit; for a redo "sennichite" or adjudication.ReasonJishogiRedo
}

// EnterChainOutcomeIn records one board outcome on a chain's current game
// inside tx through the one result-entry path: the game row locked and the
// version seen checked (a *StaleError, HTTP 409, when another entry came
// first), a board already decided refused in words, then the result
// version appended; a redo also creates the redo game at once as the
// league's quick form does (colours swapped, D-R1; allowance by D-R2 with
// each side's full allowance as time left). The caller checks the role.
func EnterChainOutcomeIn(ctx context.Context, tx *store.Store, actor Actor, in ChainOutcomeInput, now time.Time) error {
	if v := (&ValidationError{}); !checkInput(v, 0, in) {
		return v
	}
	switch {
	case in.Result == ResultRedo && in.Reason != "sennichite" && in.Reason != string(adjudication.ReasonJishogiRedo),
		in.Result != ResultRedo && in.Reason != ReasonResignation && in.Reason != ReasonForfeit:
		v := &ValidationError{}
		v.Add(0, "result", "games.err.result", nil)
		return v
	}
	last, eff, decided, err := lockChainGame(ctx, tx, in.RootID, in.GameID, in.Version)
	if err != nil {
		return err
	}
	if _, void, err := tx.GameVoidOf(ctx, in.RootID); err != nil {
		return err
	} else if void {
		return fmt.Errorf("game %d is void: %w", in.RootID, ErrConflict)
	}
	if decided || eff.Result == ResultRedo {
		// The version seen is the current one, so the page showed the
		// board as it is: a decided board (or a redo still waiting for
		// its game) takes no tap, in words.
		v := &ValidationError{}
		code := "teams.desk.err.final"
		if !decided {
			code = "teams.desk.err.redo"
		}
		v.Add(0, "result", code, nil)
		return v
	}
	rin := ResultInput{Result: in.Result, Reason: in.Reason, Version: in.Version}
	return appendQuickResult(ctx, tx, actor, last, rin, now)
}
