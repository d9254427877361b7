package office

import (
	"context"
	"fmt"
)

// ConfirmVersion confirms the result version a client saw by its number
// (the API names versions, not rows): the game's version `version` is
// confirmed by ConfirmResult, with its checks — role, the second person
// where the event requires one, and the version still the newest and
// unconfirmed under the game's row lock (else a *StaleError). A version
// the game does not have is stale too: the client saw another game.
func (o *Office) ConfirmVersion(ctx context.Context, actor Actor, gameID int64, version int) error {
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return err
	}
	if err := o.RequireEventRole(ctx, actor, g.EventID, RoleDirector, RoleArbiter); err != nil {
		return err
	}
	hist, err := o.store.ResultHistory(ctx, gameID)
	if err != nil {
		return err
	}
	for _, h := range hist {
		if h.Version == version {
			return o.ConfirmResult(ctx, actor, h.ID)
		}
	}
	if version <= 0 {
		v := &ValidationError{}
		v.Add(0, "version", "api.err.confirm_version", nil)
		return v
	}
	return fmt.Errorf("confirm version %d of game %d: %w", version, gameID, staleError(ctx, o.store, gameID, version))
}
