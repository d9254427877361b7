package office

import (
	"context"

	"kisen/store"
)

// Reads of the public API that page by offset and limit instead of the
// pages' fixed page sizes (docs/api.md). The visibility is that of the
// pages they mirror: players and ratings are public (the ratings' read is
// RatingsRange in office/ratings).

// PlayersRange lists players matching query by reading, from offset; more
// tells whether any follow. Public, like SearchPlayers.
func (o *Office) PlayersRange(ctx context.Context, query string, offset, limit int) (ps []store.Player, more bool, err error) {
	ps, total, err := o.store.SearchPlayers(ctx, store.PlayerSearch{Query: query, Limit: limit, Offset: offset})
	if err != nil {
		return nil, false, err
	}
	return ps, int64(offset+len(ps)) < total, nil
}
