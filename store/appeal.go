package store

import (
	"context"
	"time"
)

// Appeal is an appeal (異議) against a ruling (000 第10条第8項; migration
// 00210). Rows are never updated: the decision is an AppealDecision.
type Appeal struct {
	ID       int64  `gorm:"primaryKey"`
	GameID   int64  `gorm:"not null"`
	RulingID int64  `gorm:"not null"`
	FiledBy  string `gorm:"not null"` // "sente" or "gote": the party appealing
	// Each party's statement, and any third party's testimony.
	StatementSente  string `gorm:"not null;default:''"`
	StatementGote   string `gorm:"not null;default:''"`
	StatementOthers string `gorm:"not null;default:''"`
	Body            string `gorm:"not null"` // arbiter, council or organiser
	DeadlineAt      time.Time
	// LateReason is why staff accepted the appeal after its deadline.
	LateReason string `gorm:"not null;default:''"`
	EnteredBy  int64  `gorm:"not null"`
	FiledAt    time.Time
}

// AppealDecision is the deciding body's decision on an appeal, once.
type AppealDecision struct {
	ID          int64  `gorm:"primaryKey"`
	AppealID    int64  `gorm:"not null"`
	GameID      int64  `gorm:"not null"`
	Decision    string `gorm:"not null"` // upheld, dismissed, replaced
	Replacement string `gorm:"not null;default:''"`
	Reasons     string `gorm:"not null"`
	RulingID    *int64
	ResultID    *int64
	DecidedBy   int64 `gorm:"not null"`
	DecidedAt   time.Time
}

// AppealRow is an appeal with its decision (if any) and the names of the
// staff who entered and decided it.
type AppealRow struct {
	Appeal
	EnteredByName string
	Decision      *AppealDecision `gorm:"-"`
	DecidedByName string          `gorm:"-"`
}

// AddAppeal appends an appeal. The unique ruling_id makes a second appeal
// of the same ruling fail with ErrConflict.
func (s *Store) AddAppeal(ctx context.Context, a *Appeal) error {
	a.FiledAt, a.DeadlineAt = a.FiledAt.UTC(), a.DeadlineAt.UTC()
	return notFound(s.DB(ctx).Create(a).Error, "add appeal")
}

// AddAppealDecision appends the decision on an appeal; a second decision
// fails with ErrConflict.
func (s *Store) AddAppealDecision(ctx context.Context, d *AppealDecision) error {
	d.DecidedAt = d.DecidedAt.UTC()
	return notFound(s.DB(ctx).Create(d).Error, "add appeal decision")
}

// AppealsOfGame lists a game's appeals with their decisions, in the order
// they were filed: two statements whatever the number.
func (s *Store) AppealsOfGame(ctx context.Context, gameID int64) ([]AppealRow, error) {
	var out []AppealRow
	err := s.DB(ctx).Table("appeals").
		Select("appeals.*, COALESCE(NULLIF(u.display_name, ''), u.login) AS entered_by_name").
		Joins("JOIN users u ON u.id = appeals.entered_by").
		Where("appeals.game_id = ?", gameID).Order("appeals.filed_at, appeals.id").Scan(&out).Error
	if err != nil || len(out) == 0 {
		return out, notFound(err, "list appeals")
	}
	var ds []struct {
		AppealDecision
		DecidedByName string
	}
	err = s.DB(ctx).Table("appeal_decisions").
		Select("appeal_decisions.*, COALESCE(NULLIF(u.display_name, ''), u.login) AS decided_by_name").
		Joins("JOIN users u ON u.id = appeal_decisions.decided_by").
		Joins("JOIN appeals a ON a.id = appeal_decisions.appeal_id").
		Where("a.game_id = ?", gameID).Scan(&ds).Error
	if err != nil {
		return nil, notFound(err, "list appeal decisions")
	}
	for i := range out {
		for _, d := range ds {
			if d.AppealID == out[i].ID {
				d := d
				out[i].Decision, out[i].DecidedByName = &d.AppealDecision, d.DecidedByName
			}
		}
	}
	return out, nil
}
