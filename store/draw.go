package store

import (
	"context"
	"time"
)

// DrawLogEntry is one line of a stage's append-only draw audit trail: who
// did what (draw, swap, publish, withdraw), when, the details as JSON and,
// for a swap that breaks a rule, the director's override reason.
type DrawLogEntry struct {
	ID      int64  `gorm:"primaryKey"`
	StageID int64  `gorm:"not null"`
	Action  string `gorm:"not null"`
	Detail  string `gorm:"not null;default:'{}'"`
	Reason  string `gorm:"not null;default:''"`
	ActorID int64  `gorm:"not null"`
	At      time.Time
}

// TableName keeps the table's singular audit-log name.
func (DrawLogEntry) TableName() string { return "knockout_draw_log" }

// AppendDrawLog adds one audit entry; entries are never changed.
func (s *Store) AppendDrawLog(ctx context.Context, e *DrawLogEntry) error {
	e.At = e.At.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "append draw log")
}

// DrawLog lists a stage's audit trail, oldest first.
func (s *Store) DrawLog(ctx context.Context, stageID int64) ([]DrawLogEntry, error) {
	var out []DrawLogEntry
	err := s.DB(ctx).Where("stage_id = ?", stageID).Order("at, id").Find(&out).Error
	return out, notFound(err, "draw log")
}
