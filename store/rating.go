package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
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
// from (Fingerprint, ComputedRevision) and what that recompute found
// (Summary, JSON). InputRevision counts changes to the inputs: the
// triggers of migration 00098 bump it in the transaction of each change,
// so the ratings are stale exactly when InputRevision > ComputedRevision.
type RatingState struct {
	ID               int64 `gorm:"primaryKey;autoIncrement:false"`
	Fingerprint      string
	Summary          string
	ComputedAt       time.Time
	InputRevision    int64
	ComputedRevision int64
}

// TableName: the migration names the table in the singular.
func (RatingState) TableName() string { return "rating_state" }

// Stale reports whether inputs changed since the stored ratings were
// computed.
func (st RatingState) Stale() bool { return st.InputRevision > st.ComputedRevision }

// Computed reports whether a recompute ever stored ratings (a trigger may
// create the row before the first one).
func (st RatingState) Computed() bool { return st.Fingerprint != "" }

// RatingStateRow reads the state row; ok is false while no input has
// changed and nothing was computed since the database was created. One
// statement: the worker reads it on every tick and every rating page once.
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

// ratingLockKey names the PostgreSQL advisory lock that serialises
// recomputes ("kisen" + "rating" in a bigint; any constant would do as long
// as every process uses the same one).
const ratingLockKey int64 = 0x6b6973656e7274

// LockRatingState serialises recomputes and reads the state row, creating
// it when absent. Call it inside Tx. On PostgreSQL it takes a
// transaction-scoped advisory lock rather than a row lock: the triggers of
// every result write update this row, and a row lock held through a
// recompute would make them all wait for it; the advisory lock makes only
// another recompute wait. The row is read after the lock is granted, so a
// recompute that waited sees what the one before it stored. (SQLite
// transactions here take the write lock at BEGIN already.)
func (s *Store) LockRatingState(ctx context.Context, now time.Time) (RatingState, error) {
	if s.dialect == Postgres {
		if err := s.DB(ctx).Exec("SELECT pg_advisory_xact_lock(?)", ratingLockKey).Error; err != nil {
			return RatingState{}, fmt.Errorf("lock rating state: %w", err)
		}
	}
	seed := RatingState{ID: 1, Fingerprint: "", Summary: "{}", ComputedAt: now.UTC()}
	if err := s.DB(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&seed).Error; err != nil {
		return RatingState{}, fmt.Errorf("create rating state: %w", err)
	}
	var st RatingState
	if err := s.DB(ctx).Where("id = 1").Take(&st).Error; err != nil {
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
	return s.MarkRatingsCurrent(ctx, st)
}

// MarkRatingsCurrent records that the stored ratings are those of st's
// inputs (fingerprint, summary, computed at, computed revision) without
// touching the ratings: ReplaceRatings ends with it, and a recompute that
// finds the fingerprint unchanged calls it alone. The computed revision
// never goes backwards. Call it inside Tx after LockRatingState.
func (s *Store) MarkRatingsCurrent(ctx context.Context, st RatingState) error {
	return notFound(s.DB(ctx).Model(&RatingState{}).Where("id = 1").Updates(map[string]any{
		"fingerprint": st.Fingerprint, "summary": st.Summary, "computed_at": st.ComputedAt.UTC(),
		"computed_revision": gorm.Expr("CASE WHEN computed_revision > ? THEN computed_revision ELSE ? END",
			st.ComputedRevision, st.ComputedRevision),
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
	// Scanned by hand: a record page reads a player's whole history (a
	// thousand rows for a long career) for its chart (issue 12).
	rs, err := s.DB(ctx).Raw("SELECT id, player_id, seq, game_id, opponent_id, played_at, period, sente, won, rating_before, rating_after,"+
		" opponent_before, rd_before, rd_after FROM rating_history WHERE player_id = ? ORDER BY seq", playerID).Rows()
	if err != nil {
		return nil, notFound(err, "rating history")
	}
	defer rs.Close()
	var rows []RatingHistoryEntry
	for rs.Next() {
		var h RatingHistoryEntry
		if err := rs.Scan(&h.ID, &h.PlayerID, &h.Seq, &h.GameID, &h.OpponentID, &h.PlayedAt, &h.Period, &h.Sente, &h.Won,
			&h.RatingBefore, &h.RatingAfter, &h.OpponentBefore, &h.RDBefore, &h.RDAfter); err != nil {
			return nil, fmt.Errorf("rating history: %w", err)
		}
		rows = append(rows, h)
	}
	return rows, notFound(rs.Err(), "rating history")
}

// RatingChartPoint is one rated game of a player as a record page draws
// and marks it: a RatingHistoryEntry's four columns the page uses.
type RatingChartPoint struct {
	GameID       int64
	PlayedAt     time.Time
	RatingBefore float64
	RatingAfter  float64
}

// RatingChartOf lists a player's rated games, oldest first, as a record
// page draws and marks them: RatingHistoryOf narrowed to the four columns
// the page uses, a third of the values to read and convert and a third of
// the memory to hold for a long career (issue 12).
func (s *Store) RatingChartOf(ctx context.Context, playerID int64) ([]RatingChartPoint, error) {
	rs, err := s.DB(ctx).Raw("SELECT game_id, played_at, rating_before, rating_after FROM rating_history WHERE player_id = ? ORDER BY seq",
		playerID).Rows()
	if err != nil {
		return nil, notFound(err, "rating chart")
	}
	defer rs.Close()
	var rows []RatingChartPoint
	for rs.Next() {
		var h RatingChartPoint
		if err := rs.Scan(&h.GameID, &h.PlayedAt, &h.RatingBefore, &h.RatingAfter); err != nil {
			return nil, fmt.Errorf("rating chart: %w", err)
		}
		rows = append(rows, h)
	}
	return rows, notFound(rs.Err(), "rating chart")
}

// AllRatingHistory lists every history row by player and seq.
func (s *Store) AllRatingHistory(ctx context.Context) ([]RatingHistoryEntry, error) {
	var rows []RatingHistoryEntry
	err := s.DB(ctx).Order("player_id, seq").Find(&rows).Error
	return rows, notFound(err, "rating history")
}

// RatingInputTriggers lists, as table.trigger, the triggers of migration
// 00098 that bump rating_state.input_revision in the transaction of every
// change to a rating input (the same names in both dialects; a parity
// test compares them with this list).
func RatingInputTriggers() []string {
	return []string{
		"game_results.game_results_rating_insert",
		"game_result_confirmations.game_result_confirmations_rating_insert",
		"game_voids.game_voids_rating_insert",
		"games.games_rating_insert", "games.games_rating_update", "games.games_rating_delete",
		"players.players_rating_insert", "players.players_rating_delete",
		"events.events_rating_update",
		"app_settings.app_settings_rating_insert", "app_settings.app_settings_rating_update", "app_settings.app_settings_rating_delete",
	}
}

// IsRatingInputTrigger reports whether a trigger name is one of
// RatingInputTriggers' kind (<table>_rating_<operation>).
func IsRatingInputTrigger(name string) bool {
	for _, op := range []string{"_rating_insert", "_rating_update", "_rating_delete"} {
		if strings.HasSuffix(name, op) {
			return true
		}
	}
	return false
}
