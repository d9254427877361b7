package store

import (
	"context"
	"time"
)

// GameAdjudication is the facts one result version was decided on (the
// adjudication room's JSON input without the record text; RecordID names
// the record version used). Rows are never updated.
type GameAdjudication struct {
	ID        int64 `gorm:"primaryKey"`
	GameID    int64 `gorm:"not null"`
	ResultID  int64 `gorm:"not null"`
	RecordID  *int64
	Facts     string `gorm:"not null"`
	CreatedAt time.Time
}

// AddGameAdjudication stores the facts behind a result version.
func (s *Store) AddGameAdjudication(ctx context.Context, a *GameAdjudication) error {
	a.CreatedAt = a.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(a).Error, "add game adjudication")
}

// LatestGameAdjudication is the facts behind the newest adjudicated
// result version of a game; ok is false when none was adjudicated.
func (s *Store) LatestGameAdjudication(ctx context.Context, gameID int64) (GameAdjudication, bool, error) {
	var out []GameAdjudication
	err := s.DB(ctx).Where("game_id = ?", gameID).Order("result_id DESC").Limit(1).Find(&out).Error
	if err != nil || len(out) == 0 {
		return GameAdjudication{}, false, notFound(err, "latest game adjudication")
	}
	return out[0], true, nil
}

// GameAdjudications lists the facts behind every adjudicated result
// version of a game, oldest first (one statement).
func (s *Store) GameAdjudications(ctx context.Context, gameID int64) ([]GameAdjudication, error) {
	var out []GameAdjudication
	err := s.DB(ctx).Where("game_id = ?", gameID).Order("result_id").Find(&out).Error
	return out, notFound(err, "game adjudications")
}
