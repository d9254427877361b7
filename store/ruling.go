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
}

// RulingRow is a ruling with the arbiter's name for display.
type RulingRow struct {
	Ruling
	ArbiterName string
}

// AddRuling appends a ruling. The unique supersedes_id makes a second
// supersession of the same ruling fail with ErrConflict.
func (s *Store) AddRuling(ctx context.Context, r *Ruling) error {
	r.MadeAt = r.MadeAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "add ruling")
}

// SetRulingResult links a foul-loss ruling to the result version it
// produced. It is the one write to a ruling row and only fills a column
// that was empty, inside the transaction that created both.
func (s *Store) SetRulingResult(ctx context.Context, rulingID, resultID int64) error {
	return notFound(s.DB(ctx).Model(&Ruling{}).Where("id = ? AND result_id IS NULL", rulingID).
		Update("result_id", resultID).Error, "link ruling result")
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
