package office

import (
	"context"
	"fmt"

	"kisen/store"
)

// Reads of the public API that page by a keyset cursor instead of the
// pages' fixed page sizes (docs/api.md). The visibility is that of the
// pages they mirror: players and ratings are public (the ratings' read is
// RatingsAfter in office/ratings).

// PlayersAfter lists up to limit+1 players matching query by reading,
// after the player at after (nil: from the first); the extra one tells
// that more follow. Public, like SearchPlayers.
func (o *Office) PlayersAfter(ctx context.Context, query string, after *store.PlayerKey, limit int) ([]store.Player, error) {
	return o.store.PlayersAfter(ctx, query, after, limit)
}

// GameWrittenByToken is the game an API token has just written to, for
// the write's answer: the game of the token's own event that a write
// token acts on as its role, draft events included (a write token reads a
// draft event as the public does, but the game it wrote is its own work).
// Anything else is ErrNotFound, as a game the actor may not see.
func (o *Office) GameWrittenByToken(ctx context.Context, actor Actor, gameID int64) (store.Game, error) {
	if actor.Token == nil || actor.Token.role() == "" {
		return store.Game{}, fmt.Errorf("game %d: not a write token: %w", gameID, ErrNotFound)
	}
	g, err := o.store.GameByID(ctx, gameID)
	if err != nil {
		return store.Game{}, err
	}
	if !actor.Token.Allows(g.EventID, actor.Token.role()) {
		return store.Game{}, fmt.Errorf("game %d: event %d is not the token's: %w", gameID, g.EventID, ErrNotFound)
	}
	return g, nil
}
