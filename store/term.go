package store

import (
	"context"
	"time"
)

// LeagueHistory is one pairing of an earlier term that a term's draw must
// know (D-C1, D-C2; 001 第8条C): TermsAgo 1 is last term, 2 the term
// before; Final marks last term's final-round pairs. EventID is the term
// that uses the pairing, not the term it was played in.
type LeagueHistory struct {
	ID        int64  `gorm:"primaryKey"`
	EventID   int64  `gorm:"not null"`
	TermsAgo  int    `gorm:"not null"`
	Class     string `gorm:"not null;default:''"`
	Round     int    `gorm:"not null;default:0"`
	PlayerAID int64  `gorm:"column:player_a_id;not null"`
	PlayerBID int64  `gorm:"column:player_b_id;not null"`
	Final     bool   `gorm:"not null;default:false"`
	Source    string `gorm:"not null;default:'import'"`
	CreatedAt time.Time
}

// TableName keeps the table's singular name.
func (LeagueHistory) TableName() string { return "league_history" }

// AddLeagueHistory inserts pairings of earlier terms.
func (s *Store) AddLeagueHistory(ctx context.Context, rows []LeagueHistory) error {
	if len(rows) == 0 {
		return nil
	}
	for i := range rows {
		rows[i].CreatedAt = rows[i].CreatedAt.UTC()
	}
	return notFound(s.DB(ctx).CreateInBatches(&rows, 200).Error, "add league history")
}

// ReplaceLeagueHistory deletes a term's pairings of termsAgo and inserts
// rows instead (a re-import replaces what the last import gave).
func (s *Store) ReplaceLeagueHistory(ctx context.Context, eventID int64, termsAgo int, rows []LeagueHistory) error {
	if err := s.DB(ctx).Where("event_id = ? AND terms_ago = ?", eventID, termsAgo).Delete(&LeagueHistory{}).Error; err != nil {
		return notFound(err, "replace league history")
	}
	return s.AddLeagueHistory(ctx, rows)
}

// LeagueHistoryOf lists a term's known earlier pairings.
func (s *Store) LeagueHistoryOf(ctx context.Context, eventID int64) ([]LeagueHistory, error) {
	var out []LeagueHistory
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("terms_ago, class, round, id").Find(&out).Error
	return out, notFound(err, "league history")
}
