package store

import (
	"context"
	"fmt"
	"time"
)

// KnockoutStage is one stage of a knockout event (一次予選, 二次予選, 本戦) or
// the one series of a title match. The draw lives on the row once made:
// DrawSeed is the witnesses' number as decimal text (a uint64 does not fit
// a signed column), Slots a JSON array of entrant ids with "" for a bye.
type KnockoutStage struct {
	ID          int64  `gorm:"primaryKey"`
	EventID     int64  `gorm:"not null"`
	Position    int    `gorm:"not null"`
	Name        string `gorm:"not null"`
	NameEn      string `gorm:"not null;default:''"` // optional English name (00099)
	Kind        string `gorm:"not null"`
	ThirdPlace  bool   `gorm:"not null;default:false"`
	Consolation bool   `gorm:"not null;default:false"` // 交流戦 for first-round losers (00126)
	// HandicapPolicy and EvenGap are the stage's own 手合割 policy ('' the
	// event's): a day's class final plays under its class's (00127).
	HandicapPolicy   string `gorm:"not null;default:''"`
	EvenGap          int    `gorm:"not null;default:0"`
	Qualifiers       int    `gorm:"not null;default:0"`
	BestOf           int    `gorm:"not null;default:0"`
	RoundDates       string `gorm:"not null;default:'[]'"`
	AllowanceMinutes int    `gorm:"not null;default:0"`
	Status           string `gorm:"not null;default:'setup'"`
	DrawSeed         string `gorm:"not null;default:''"`
	DrawDate         string `gorm:"not null;default:''"`
	Method           string `gorm:"not null;default:''"`
	Slots            string `gorm:"not null;default:'[]'"`
	// RankingRule is a ranking group's line of the organiser's table (JSON
	// of pairing.GroupRule, D-G1); '' for an ordinary stage (00240).
	RankingRule string `gorm:"not null;default:''"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// CreateStage inserts st.
func (s *Store) CreateStage(ctx context.Context, st *KnockoutStage) error {
	st.CreatedAt, st.UpdatedAt = st.CreatedAt.UTC(), st.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(st).Error, "create stage")
}

// UpdateStage saves every column of st.
func (s *Store) UpdateStage(ctx context.Context, st *KnockoutStage) error {
	st.UpdatedAt = st.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Save(st).Error, "update stage")
}

// StageByID loads one stage.
func (s *Store) StageByID(ctx context.Context, id int64) (KnockoutStage, error) {
	var st KnockoutStage
	err := s.DB(ctx).Where("id = ?", id).Take(&st).Error
	return st, notFound(err, fmt.Sprintf("stage %d", id))
}

// StagesOfEvent lists an event's stages in position order.
func (s *Store) StagesOfEvent(ctx context.Context, eventID int64) ([]KnockoutStage, error) {
	var out []KnockoutStage
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("position, id").Find(&out).Error
	return out, notFound(err, "stages of event")
}
