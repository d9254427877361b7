package day

import (
	"context"
	"fmt"
	"time"

	"kisen/office"
	"kisen/store"
)

// Withdraw records that an entrant left the day (棄権), at any point
// (directors). Under the class's forfeit policy each of their games not
// yet decided is recorded at once as a forfeit loss (不戦敗) through the
// result-entry path, attributed to the director; all in one transaction.
// It returns how many games were forfeited.
func (d *Day) Withdraw(ctx context.Context, actor office.Actor, eventID, playerID int64) (int, error) {
	n := 0
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := entrantIn(ctx, tx, actor, eventID, playerID)
		if err != nil {
			return err
		}
		if e.Withdrawn() {
			return invalid("player", "day.err.withdrawn", nil)
		}
		now := d.now()
		if err := tx.SetDayWithdrawn(ctx, e.ID, actor.UserID, now); err != nil {
			return err
		}
		if err := tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: eventID, ClassID: &e.ClassID, PlayerID: &playerID, Action: LogWithdraw, ActorID: actor.UserID, At: now}); err != nil {
			return err
		}
		c, err := tx.DayClassByID(ctx, e.ClassID)
		if err != nil {
			return err
		}
		if ParseSettings(c.Settings).Withdrawal != WithdrawalForfeit {
			return nil
		}
		n, err = forfeitOpen(ctx, tx, actor, c, map[int64]bool{playerID: true}, now)
		return err
	})
	return n, err
}

// forfeitOpen records a forfeit loss for every undecided board of class c
// where a player of gone sits (the opponent wins, reason forfeit), through
// office.EnterChainResultIn at the version stored now. A board where both
// players are gone is left to the desk.
func forfeitOpen(ctx context.Context, tx *store.Store, actor office.Actor, c store.DayClass, gone map[int64]bool, now time.Time) (int, error) {
	ps, err := tx.DayPairingsOfClass(ctx, c.ID)
	if err != nil {
		return 0, err
	}
	gs, err := tx.GameSetOfEvent(ctx, c.EventID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range ps {
		if p.GameID == nil {
			continue
		}
		last, eff, decided, err := office.DecidingIn(gs, *p.GameID)
		if err != nil {
			return n, err
		}
		if decided || eff.Result == office.ResultRedo || last.SentePlayerID == nil || last.GotePlayerID == nil {
			continue
		}
		s, g := *last.SentePlayerID, *last.GotePlayerID
		var result string
		switch {
		case gone[s] && gone[g]:
			continue
		case gone[s]:
			result = office.ResultGoteWin
		case gone[g]:
			result = office.ResultSenteWin
		default:
			continue
		}
		seen := 0
		if v, ok := gs.Latest(last.ID); ok {
			seen = v.Version
		}
		if _, err := office.EnterChainResultIn(ctx, tx, actor, office.ChainResultInput{RootID: *p.GameID, GameID: last.ID, Version: seen, Result: result, Reason: office.ReasonForfeit}, now); err != nil {
			return n, fmt.Errorf("forfeit board %v of class %d: %w", p.Board, c.ID, err)
		}
		if err := tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: c.EventID, ClassID: &c.ID, Action: LogForfeited,
			Detail: mustJSON(map[string]any{"game": last.ID, "round": p.Round, "board": p.Board, "result": result}), ActorID: actor.UserID, At: now}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
