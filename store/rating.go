package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// PlayerRating is a player's rating after the latest recompute. Rows are
// derived data: only ReplaceRatings writes them.
type PlayerRating struct {
	PlayerID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Rating     float64
	RD         float64 `gorm:"column:rd"`
	Volatility float64
	Games      int
	Wins       int
	Losses     int
	LastPlayed *time.Time
}

// RatingHistoryEntry is one rated game in one player's history, oldest
// first by Seq.
type RatingHistoryEntry struct {
	ID             int64 `gorm:"primaryKey"`
	PlayerID       int64 `gorm:"not null"`
	Seq            int   `gorm:"not null"`
	GameID         int64 `gorm:"not null"`
	OpponentID     int64 `gorm:"not null"`
	PlayedAt       time.Time
	Period         string `gorm:"not null;default:''"`
	Sente          bool
	Won            bool
	RatingBefore   float64
	RatingAfter    float64
	OpponentBefore float64
	RDBefore       float64 `gorm:"column:rd_before"`
	RDAfter        float64 `gorm:"column:rd_after"`
}

// TableName keeps the table name singular like its migration.
func (RatingHistoryEntry) TableName() string { return "rating_history" }

// RatingState is the one row saying what the stored ratings were computed
// from (Fingerprint) and what that recompute found (Summary, JSON).
type RatingState struct {
	ID          int64 `gorm:"primaryKey;autoIncrement:false"`
	Fingerprint string
	Summary     string
	ComputedAt  time.Time
}

// TableName: the migration names the table in the singular.
func (RatingState) TableName() string { return "rating_state" }

// RatingStateRow reads the state row; ok is false before the first
// recompute.
func (s *Store) RatingStateRow(ctx context.Context) (RatingState, bool, error) {
	var rows []RatingState
	if err := s.DB(ctx).Where("id = 1").Limit(1).Find(&rows).Error; err != nil {
		return RatingState{}, false, fmt.Errorf("read rating state: %w", err)
	}
	if len(rows) == 0 {
		return RatingState{}, false, nil
	}
	return rows[0], true, nil
}

// LockRatingState makes sure the state row exists and, on PostgreSQL,
// locks it until the transaction ends, so two recomputes racing to
// replace the ratings run one after the other. (SQLite transactions here
// take the write lock at BEGIN already.) Call it inside Tx.
func (s *Store) LockRatingState(ctx context.Context, now time.Time) (RatingState, error) {
	seed := RatingState{ID: 1, Fingerprint: "", Summary: "{}", ComputedAt: now.UTC()}
	if err := s.DB(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&seed).Error; err != nil {
		return RatingState{}, fmt.Errorf("create rating state: %w", err)
	}
	q := s.DB(ctx).Where("id = 1")
	if s.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var st RatingState
	if err := q.Take(&st).Error; err != nil {
		return RatingState{}, notFound(err, "lock rating state")
	}
	return st, nil
}

// ReplaceRatings swaps every stored rating and history row for the given
// ones and records the state. Call it inside Tx after LockRatingState.
func (s *Store) ReplaceRatings(ctx context.Context, ratings []PlayerRating, history []RatingHistoryEntry, st RatingState) error {
	db := s.DB(ctx)
	if err := db.Where("1 = 1").Delete(&RatingHistoryEntry{}).Error; err != nil {
		return fmt.Errorf("clear rating history: %w", err)
	}
	if err := db.Where("1 = 1").Delete(&PlayerRating{}).Error; err != nil {
		return fmt.Errorf("clear ratings: %w", err)
	}
	for i := range ratings {
		if ratings[i].LastPlayed != nil {
			t := ratings[i].LastPlayed.UTC()
			ratings[i].LastPlayed = &t
		}
	}
	for i := range history {
		history[i].PlayedAt = history[i].PlayedAt.UTC()
	}
	if len(ratings) > 0 {
		if err := db.CreateInBatches(ratings, 500).Error; err != nil {
			return notFound(err, "store ratings")
		}
	}
	if len(history) > 0 {
		if err := db.CreateInBatches(history, 500).Error; err != nil {
			return notFound(err, "store rating history")
		}
	}
	st.ID = 1
	st.ComputedAt = st.ComputedAt.UTC()
	return notFound(db.Model(&RatingState{}).Where("id = 1").Updates(map[string]any{
		"fingerprint": st.Fingerprint, "summary": st.Summary, "computed_at": st.ComputedAt,
	}).Error, "record rating state")
}

// PlayerRatingOf is one player's stored rating; ok is false when the
// player has none (not yet recomputed, or unknown).
func (s *Store) PlayerRatingOf(ctx context.Context, playerID int64) (PlayerRating, bool, error) {
	var rows []PlayerRating
	if err := s.DB(ctx).Where("player_id = ?", playerID).Limit(1).Find(&rows).Error; err != nil {
		return PlayerRating{}, false, fmt.Errorf("read rating of player %d: %w", playerID, err)
	}
	if len(rows) == 0 {
		return PlayerRating{}, false, nil
	}
	return rows[0], true, nil
}

// PlayerRatingsByIDs loads the stored ratings of the given players, keyed
// by player id (players without a row are absent).
func (s *Store) PlayerRatingsByIDs(ctx context.Context, ids []int64) (map[int64]PlayerRating, error) {
	out := make(map[int64]PlayerRating, len(ids))
	for _, chunk := range playerChunks(playerUniqueIDs(ids), playerIDChunk) {
		var rows []PlayerRating
		if err := s.DB(ctx).Where("player_id IN ?", chunk).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read ratings: %w", err)
		}
		for _, r := range rows {
			out[r.PlayerID] = r
		}
	}
	return out, nil
}

// AllPlayerRatings lists every stored rating by player id.
func (s *Store) AllPlayerRatings(ctx context.Context) ([]PlayerRating, error) {
	var rows []PlayerRating
	err := s.DB(ctx).Order("player_id").Find(&rows).Error
	return rows, notFound(err, "list ratings")
}

// RatingHistoryOf lists a player's rated games, oldest first.
func (s *Store) RatingHistoryOf(ctx context.Context, playerID int64) ([]RatingHistoryEntry, error) {
	var rows []RatingHistoryEntry
	err := s.DB(ctx).Where("player_id = ?", playerID).Order("seq").Find(&rows).Error
	return rows, notFound(err, "rating history")
}

// AllRatingHistory lists every history row by player and seq.
func (s *Store) AllRatingHistory(ctx context.Context) ([]RatingHistoryEntry, error) {
	var rows []RatingHistoryEntry
	err := s.DB(ctx).Order("player_id, seq").Find(&rows).Error
	return rows, notFound(err, "rating history")
}
