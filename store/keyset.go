package store

import (
	"context"
	"fmt"
)

// Keyset reads for the API's lists (docs/api.md, Paging): a page starts
// strictly after the last row of the previous one, named by its sort key
// and id, and reads limit+1 rows so that the extra row tells whether more
// follow. One statement each, whatever the size of the list or where the
// page is.

// PlayerKey is a position in the players by reading (よみ), then id.
type PlayerKey struct {
	Reading string
	ID      int64
}

// PlayersAfter returns up to limit+1 players matching query in the order
// of SearchPlayers (reading, id), after the player at after (nil: from
// the first).
func (s *Store) PlayersAfter(ctx context.Context, query string, after *PlayerKey, limit int) ([]Player, error) {
	db := s.DB(ctx).Model(&Player{})
	if pat := searchPattern(query); pat != "" {
		db = db.Where(`search_key LIKE ? ESCAPE '\'`, pat)
	}
	if after != nil {
		db = db.Where("(reading, id) > (?, ?)", after.Reading, after.ID)
	}
	var ps []Player
	if err := db.Order("reading, id").Limit(limit + 1).Find(&ps).Error; err != nil {
		return nil, fmt.Errorf("players after %v: %w", after, err)
	}
	return ps, nil
}

// RatedKey is a position in the rating list: rating (highest first), then
// reading, then id (ratedOrder).
type RatedKey struct {
	Rating  float64
	Reading string
	ID      int64
}

// RatedPlayersAfter returns up to limit+1 lines of the rating list that q
// selects (q.Limit and q.Offset are ignored), after the line at after
// (nil: from the first). The place is ranked over the whole selection
// before the page is cut, so it is the place the full list shows.
func (s *Store) RatedPlayersAfter(ctx context.Context, q RatingQuery, after *RatedKey, limit int) ([]RatedPlayer, error) {
	sel := s.ratedPlayers(ctx, q).Select(ratedColumns)
	db := s.DB(ctx).Table("(?) AS r", sel)
	if after != nil {
		// Mixed directions, so no row-value comparison.
		db = db.Where("(r.rating < ? OR (r.rating = ? AND (r.reading > ? OR (r.reading = ? AND r.id > ?))))",
			after.Rating, after.Rating, after.Reading, after.Reading, after.ID)
	}
	var rows []RatedPlayer
	if err := db.Select("r.*").Order("r.rating DESC, r.reading, r.id").Limit(limit + 1).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("rated players after %v: %w", after, err)
	}
	return rows, nil
}
