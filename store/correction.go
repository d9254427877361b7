package store

import (
	"context"
	"time"
)

// Correction is a change that altered who advanced in a bracket: an edited
// result, a foul claim that reverses one, a withdrawal. The later games it
// made void name it in game_voids. Rows are never updated or deleted.
type Correction struct {
	ID         int64  `gorm:"primaryKey"`
	EventID    int64  `gorm:"not null"`
	Kind       string `gorm:"not null"` // result, claim, withdrawal
	GameID     *int64
	StageID    *int64
	Reason     string `gorm:"not null"`
	VoidChosen bool   `gorm:"not null;default:false"`
	ActorID    int64  `gorm:"not null"`
	At         time.Time
}

// AddCorrection appends a correction.
func (s *Store) AddCorrection(ctx context.Context, c *Correction) error {
	c.At = c.At.UTC()
	return notFound(s.DB(ctx).Create(c).Error, "add correction")
}

// CorrectionByID loads one correction.
func (s *Store) CorrectionByID(ctx context.Context, id int64) (Correction, error) {
	var c Correction
	err := s.DB(ctx).Where("id = ?", id).Take(&c).Error
	return c, notFound(err, "correction")
}

// VoidKnockoutGamesOfStage lists the bracket games of a stage whose game a
// correction made void, oldest first.
func (s *Store) VoidKnockoutGamesOfStage(ctx context.Context, stageID int64) ([]KnockoutGame, error) {
	var out []KnockoutGame
	err := s.DB(ctx).Where("stage_id = ? AND game_id IN (?)", stageID, s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Order("id").Find(&out).Error
	return out, notFound(err, "void bracket games")
}
