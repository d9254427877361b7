package office

import (
	"context"
	"fmt"
	"strings"

	"kisen/store"
)

// Taking a publication back (issue 13). While no game of a published draw
// or schedule has a result, the director may unpublish it: the stage goes
// back to drawn (the league class to drawn), and every game publication
// created is kept and marked void (game_voids, append-only) under a
// correction that holds the reason. Nothing is deleted; publishing again
// creates fresh games (a bracket slot's next attempt). Once any game has a
// result the request is refused with a message saying so — from then on
// the results are corrected one by one. The event stays published: people
// may already have seen it, and the draft mark is for events never shown.

// Correction kinds of a publication taken back.
const (
	CorrectionUnpublishDraw     = "unpublish_draw"
	CorrectionUnpublishSchedule = "unpublish_schedule"
)

func unpublishReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	v := &ValidationError{}
	checkReason(v, "reason", unpublishReasonInput{reason})
	return reason, v.OrNil()
}

// voidUnplayed marks games void under correction c, refusing (a
// validation error on code) when any of them has a result version.
func voidUnplayed(ctx context.Context, tx *store.Store, c *store.Correction, ids []int64, code string) error {
	// Each game row locked, as a result entry locks it: a result saved
	// meanwhile is seen here, and one saved after finds the game void.
	for _, id := range ids {
		if _, err := tx.LockGame(ctx, id); err != nil {
			return err
		}
	}
	has, err := tx.GamesHaveResult(ctx, ids)
	if err != nil {
		return err
	}
	if has {
		v := &ValidationError{}
		v.Add(0, "", code, nil)
		return v
	}
	if err := tx.AddCorrection(ctx, c); err != nil {
		return err
	}
	for _, id := range ids {
		if _, void, err := tx.GameVoidOf(ctx, id); err != nil {
			return err
		} else if void {
			continue
		}
		cid := c.ID
		if err := tx.VoidGame(ctx, &store.GameVoid{GameID: id, VoidedBy: c.ActorID, VoidedAt: c.At, CorrectionID: &cid}); err != nil {
			return err
		}
	}
	return nil
}

// UnpublishStage takes a published draw back to drawn (directors, the
// people who publish it).
func (o *Office) UnpublishStage(ctx context.Context, actor Actor, stageID int64, reason string) error {
	reason, err := unpublishReason(reason)
	if err != nil {
		return err
	}
	return o.stageTx(ctx, actor, stageID, func(tx *store.Store, st store.KnockoutStage) error {
		if st.Status != StagePublished {
			return fmt.Errorf("stage %d is %s, not published: %w", st.ID, st.Status, ErrConflict)
		}
		kgs, err := tx.KnockoutGamesOfStage(ctx, st.ID)
		if err != nil {
			return err
		}
		var ids []int64
		for _, kg := range kgs {
			ids = append(ids, kg.GameID)
			redos, err := tx.AllRedoGames(ctx, kg.GameID)
			if err != nil {
				return err
			}
			for _, r := range redos {
				ids = append(ids, r.ID)
			}
		}
		now := o.now().UTC()
		sid := st.ID
		c := &store.Correction{EventID: st.EventID, Kind: CorrectionUnpublishDraw, StageID: &sid, Reason: reason, ActorID: actor.UserID, At: now}
		if err := voidUnplayed(ctx, tx, c, ids, "previews.err.unpublish_played"); err != nil {
			return err
		}
		st.Status, st.UpdatedAt = StageDrawn, now
		if err := tx.UpdateStage(ctx, &st); err != nil {
			return err
		}
		return tx.AppendDrawLog(ctx, &store.DrawLogEntry{StageID: st.ID, Action: "unpublish", Reason: reason, ActorID: actor.UserID, At: now,
			Detail: mustJSON(map[string]any{"voided": ids})})
	}, StagePublishRoles...)
}

// UnpublishSchedule takes a published league schedule back to drawn
// (directors and schedulers, the people who publish it).
func (o *Office) UnpublishSchedule(ctx context.Context, actor Actor, classID int64, reason string) error {
	reason, err := unpublishReason(reason)
	if err != nil {
		return err
	}
	c, err := o.store.LeagueClassByID(ctx, classID)
	if err != nil {
		return err
	}
	if err := o.RequireEventRole(ctx, actor, c.EventID, LeagueEditRoles...); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.LeagueClassByID(ctx, classID)
		if err != nil {
			return err
		}
		if c.Status != LeaguePublished {
			return fmt.Errorf("league class %d is %s, not published: %w", c.ID, c.Status, ErrConflict)
		}
		lgs, err := tx.LeagueGames(ctx, c.ID)
		if err != nil {
			return err
		}
		var ids []int64
		for _, lg := range lgs {
			ids = append(ids, lg.GameID)
			redos, err := tx.AllRedoGames(ctx, lg.GameID)
			if err != nil {
				return err
			}
			for _, r := range redos {
				ids = append(ids, r.ID)
			}
		}
		now := o.now().UTC()
		corr := &store.Correction{EventID: c.EventID, Kind: CorrectionUnpublishSchedule, Reason: reason, ActorID: actor.UserID, At: now}
		if err := voidUnplayed(ctx, tx, corr, ids, "previews.err.unpublish_played"); err != nil {
			return err
		}
		if err := tx.SetLeagueClassStatus(ctx, c.ID, LeaguePublished, LeagueDrawn, now); err != nil {
			return err
		}
		return tx.AppendLeagueLog(ctx, &store.LeagueLogEntry{ClassID: c.ID, Action: "unpublish", Detail: mustJSON(map[string]any{"voided": ids}),
			Violations: "[]", Reason: reason, ActorID: actor.UserID, At: now})
	})
}
