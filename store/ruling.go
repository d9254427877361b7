package store

import (
	"context"
	"time"
)

// Ruling is one arbiter ruling (立会人の裁定, D-K1); rows are never updated.
// An appeal or correction is a new ruling with SupersedesID set.
type Ruling struct {
	ID           int64  `gorm:"primaryKey"`
	GameID       int64  `gorm:"not null"`
	Kind         string `gorm:"not null"`
	Player       string `gorm:"not null;default:''"` // "", "sente" or "gote"
	DeltaS       int    `gorm:"column:delta_s;not null;default:0"`
	Reason       string `gorm:"not null"`
	ArbiterID    int64  `gorm:"not null"`
	ByOrganiser  bool   `gorm:"not null;default:false"`
	SupersedesID *int64
	ResultID     *int64
	MadeAt       time.Time
	// EnteredVia names the API token the ruling came through ("" for the
	// web; migration 00115).
	EnteredVia string `gorm:"not null;default:''"`
}

// RulingRow is a ruling with the arbiter's name for display.
type RulingRow struct {
	Ruling
	ArbiterName string
}

// AddRuling appends a ruling. The unique supersedes_id makes a second
// supersession of the same ruling fail with ErrConflict. A ruling is
// written once, whole: a foul-loss ruling carries the result version it
// produced (ResultID) and an id reserved with ReserveRulingID, because the
// database refuses any later UPDATE (migration 00080).
func (s *Store) AddRuling(ctx context.Context, r *Ruling) error {
	r.MadeAt = r.MadeAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "add ruling")
}

// ReserveRulingID returns the id the next ruling will have, so a decision
// can name the ruling (its stored facts do) before the ruling row, which
// needs the decision's result version, is written. Call it inside Tx: on
// SQLite the transaction holds the write lock from its start
// (_txlock=immediate), so no other ruling can take the id meanwhile; on
// PostgreSQL the sequence hands it out once.
func (s *Store) ReserveRulingID(ctx context.Context) (int64, error) {
	q := "SELECT nextval(pg_get_serial_sequence('rulings', 'id'))"
	if s.dialect == SQLite {
		// AUTOINCREMENT takes one more than the largest id ever used.
		q = "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'rulings'), 0), " +
			"COALESCE((SELECT MAX(id) FROM rulings), 0)) + 1"
	}
	var id int64
	if err := s.DB(ctx).Raw(q).Scan(&id).Error; err != nil {
		return 0, notFound(err, "reserve ruling id")
	}
	return id, nil
}

// Rulings lists a game's rulings in the order they were made.
func (s *Store) Rulings(ctx context.Context, gameID int64) ([]RulingRow, error) {
	var out []RulingRow
	err := s.DB(ctx).Table("rulings").
		Select("rulings.*, COALESCE(NULLIF(u.display_name, ''), u.login) AS arbiter_name").
		Joins("JOIN users u ON u.id = rulings.arbiter_id").
		Where("rulings.game_id = ?", gameID).Order("rulings.made_at, rulings.id").Scan(&out).Error
	return out, notFound(err, "list rulings")
}
