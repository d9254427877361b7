package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// RatingQuery selects rated players for the public rating list. Zero
// values select every player with at least one rated game.
type RatingQuery struct {
	Kind   PlayerKind  // "" any
	Class  PlayerClass // "" any
	Since  time.Time   // zero: any; else last rated game at or after this instant
	Search string      // name or reading (SearchKey, partial) or federation number (exact)
	Limit  int         // 0: no limit
	Offset int
}

// RatedPlayer is one line of the rating list: the player, the stored
// rating, and the place (1-based; equal ratings share a place) among the
// players q selects.
type RatedPlayer struct {
	Player
	PlayerRating
	Place int
}

// ratedColumns are the players' and the ratings' columns (no name is in
// both tables) and the place by rating within the selection.
const ratedColumns = "p.*, pr.player_id, pr.rating, pr.rd, pr.volatility, pr.games, pr.wins, pr.losses, pr.last_played, " +
	"RANK() OVER (ORDER BY pr.rating DESC) AS place"

// ratedOrder is the list's order: highest rating first, ties by reading
// (よみ), then id, so the order is total.
const ratedOrder = "pr.rating DESC, p.reading, p.id"

func (s *Store) ratedPlayers(ctx context.Context, q RatingQuery) *gorm.DB {
	db := s.DB(ctx).Table("player_ratings pr").Joins("JOIN players p ON p.id = pr.player_id").Where("pr.games > 0")
	if q.Kind != "" {
		db = db.Where("p.kind = ?", q.Kind)
	}
	if q.Class != "" {
		db = db.Where("p.class = ?", q.Class)
	}
	if !q.Since.IsZero() {
		db = db.Where("pr.last_played >= ?", q.Since.UTC())
	}
	if text := strings.TrimSpace(q.Search); text != "" {
		pat := searchPattern(text)
		number := SearchKey(text) // full-width digits typed as ASCII; case folded
		if pat != "" {
			db = db.Where(`(p.search_key LIKE ? ESCAPE '\' OR LOWER(p.number) = ?)`, pat, number)
		} else {
			db = db.Where("LOWER(p.number) = ?", number)
		}
	}
	return db
}

// RatedPlayers returns one page of the rating list (q.Limit, q.Offset)
// and how many players q selects in all: two statements whatever the
// size of the registry.
func (s *Store) RatedPlayers(ctx context.Context, q RatingQuery) ([]RatedPlayer, int64, error) {
	var total int64
	if err := s.ratedPlayers(ctx, q).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count rated players: %w", err)
	}
	page := s.ratedPlayers(ctx, q).Select(ratedColumns).Order(ratedOrder)
	if q.Limit > 0 {
		page = page.Limit(q.Limit).Offset(q.Offset)
	}
	var rows []RatedPlayer
	if err := page.Scan(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list rated players: %w", err)
	}
	return rows, total, nil
}

// EachRatedPlayer calls fn for every player q selects (Limit and Offset
// are ignored), in list order, reading them with one statement through a
// cursor: the rows are never all in memory, and they are one consistent
// snapshot even while a recompute replaces the ratings. fn's error stops
// the walk and is returned.
func (s *Store) EachRatedPlayer(ctx context.Context, q RatingQuery, fn func(RatedPlayer) error) error {
	db := s.ratedPlayers(ctx, q).Select(ratedColumns).Order(ratedOrder)
	rows, err := db.Rows()
	if err != nil {
		return fmt.Errorf("list rated players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r RatedPlayer
		if err := db.ScanRows(rows, &r); err != nil {
			return fmt.Errorf("read rated player: %w", err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list rated players: %w", err)
	}
	return nil
}
