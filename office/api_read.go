package office

import (
	"context"

	"kisen/store"
)

// Reads of the public API that page by a keyset cursor instead of the
// pages' fixed page sizes (docs/api.md). The visibility is that of the
// pages they mirror: players and ratings are public.

// PlayersAfter lists up to limit+1 players matching query by reading,
// after the player at after (nil: from the first); the extra one tells
// that more follow. Public, like SearchPlayers.
func (o *Office) PlayersAfter(ctx context.Context, query string, after *store.PlayerKey, limit int) ([]store.Player, error) {
	return o.store.PlayersAfter(ctx, query, after, limit)
}

// RatingsAfter is RatingList after the line at after, up to limit+1
// lines. Public.
func (o *Office) RatingsAfter(ctx context.Context, f RatingFilter, after *store.RatedKey, limit int) ([]RatingRow, error) {
	rs, err := o.store.RatedPlayersAfter(ctx, f.query(), after, limit)
	if err != nil {
		return nil, err
	}
	rows := make([]RatingRow, 0, len(rs))
	for _, r := range rs {
		rows = append(rows, RatingRow{Place: r.Place, Player: r.Player, Rating: r.PlayerRating})
	}
	return rows, nil
}
