package office

import (
	"context"

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
