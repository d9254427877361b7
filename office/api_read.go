package office

import (
	"context"

	"kisen/store"
)

// Reads of the public API that page by offset and limit instead of the
// pages' fixed page sizes (docs/api.md). The visibility is that of the
// pages they mirror: players and ratings are public.

// PlayersRange lists players matching query by reading, from offset; more
// tells whether any follow. Public, like SearchPlayers.
func (o *Office) PlayersRange(ctx context.Context, query string, offset, limit int) (ps []store.Player, more bool, err error) {
	ps, total, err := o.store.SearchPlayers(ctx, store.PlayerSearch{Query: query, Limit: limit, Offset: offset})
	if err != nil {
		return nil, false, err
	}
	return ps, int64(offset+len(ps)) < total, nil
}

// RatingsRange is RatingList from offset. Public.
func (o *Office) RatingsRange(ctx context.Context, f RatingFilter, offset, limit int) (rows []RatingRow, more bool, err error) {
	q := f.query()
	q.Limit, q.Offset = limit, offset
	rs, total, err := o.store.RatedPlayers(ctx, q)
	if err != nil {
		return nil, false, err
	}
	for _, r := range rs {
		rows = append(rows, RatingRow{Place: r.Place, Player: r.Player, Rating: r.PlayerRating})
	}
	return rows, int64(offset+len(rs)) < total, nil
}
