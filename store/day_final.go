package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// DayFinal records the final knockout (決勝トーナメント) built for a day's
// class (migration 00125, docs/final-knockout.md): the event's stage, the
// placement's seed, the qualifiers in order and what the placement could
// not keep apart (JSON). Append-only; a class has at most one.
type DayFinal struct {
	ID         int64  `gorm:"primaryKey"`
	ClassID    int64  `gorm:"not null"`
	StageID    int64  `gorm:"not null"`
	Seed       string `gorm:"not null"`
	Qualifiers string `gorm:"not null;default:'[]'"`
	NotKept    string `gorm:"not null;default:'[]'"`
	Together   string `gorm:"not null;default:'[]'"`
	Request    string `gorm:"not null;default:'{}'"` // pairing.FinalRequest as JSON
	BuiltBy    int64  `gorm:"not null"`
	BuiltAt    time.Time
}

// CreateDayFinal inserts a class's final; a second one for the class is
// ErrConflict (two directors building at once: one wins).
func (s *Store) CreateDayFinal(ctx context.Context, f *DayFinal) error {
	f.BuiltAt = f.BuiltAt.UTC()
	return notFound(s.DB(ctx).Create(f).Error, "create day final")
}

// DayFinalOfClass is a class's final; ok is false when none is built.
func (s *Store) DayFinalOfClass(ctx context.Context, classID int64) (DayFinal, bool, error) {
	var f DayFinal
	err := s.DB(ctx).Where("class_id = ?", classID).Take(&f).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return DayFinal{}, false, nil
	}
	return f, err == nil, notFound(err, "day final")
}

// DayFinalOfStage is the final built as stage stageID; ok is false for
// any other stage.
func (s *Store) DayFinalOfStage(ctx context.Context, stageID int64) (DayFinal, bool, error) {
	var f DayFinal
	err := s.DB(ctx).Where("stage_id = ?", stageID).Take(&f).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return DayFinal{}, false, nil
	}
	return f, err == nil, notFound(err, "day final of stage")
}

// DayFinalsOfEvent lists the finals of a day's classes (one statement).
func (s *Store) DayFinalsOfEvent(ctx context.Context, eventID int64) ([]DayFinal, error) {
	var out []DayFinal
	err := s.DB(ctx).Joins("JOIN day_classes ON day_classes.id = day_finals.class_id").
		Where("day_classes.event_id = ?", eventID).Order("day_finals.class_id").Find(&out).Error
	return out, notFound(err, "day finals")
}
