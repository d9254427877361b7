package store

import (
	"context"
	"time"
)

// KnockoutGame ties a bracket game ("R1-G3", "3P", "S2") to the first game
// of its redo chain. SenteBy says how sente was chosen (furigoma, observed,
// handicap, series) and Furigoma keeps every tossed piece as JSON.
type KnockoutGame struct {
	ID          int64  `gorm:"primaryKey"`
	StageID     int64  `gorm:"not null"`
	BracketGame string `gorm:"not null"`
	GameID      int64  `gorm:"not null"`
	SenteBy     string `gorm:"not null;default:'furigoma'"`
	Furigoma    string `gorm:"not null;default:'{}'"`
	Observed    string `gorm:"not null;default:'{}'"` // a physical 振り駒 as entered (migration 00051)
	CreatedAt   time.Time
}

// AddKnockoutGame records which game plays a bracket game.
func (s *Store) AddKnockoutGame(ctx context.Context, g *KnockoutGame) error {
	g.CreatedAt = g.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(g).Error, "add bracket game")
}

// KnockoutGamesOfStage lists a stage's bracket games in creation order.
func (s *Store) KnockoutGamesOfStage(ctx context.Context, stageID int64) ([]KnockoutGame, error) {
	var out []KnockoutGame
	err := s.DB(ctx).Where("stage_id = ?", stageID).Order("id").Find(&out).Error
	return out, notFound(err, "bracket games")
}

// KnockoutGameByGameID finds the bracket game a game belongs to.
func (s *Store) KnockoutGameByGameID(ctx context.Context, gameID int64) (KnockoutGame, error) {
	var g KnockoutGame
	err := s.DB(ctx).Where("game_id = ?", gameID).Take(&g).Error
	return g, notFound(err, "bracket game")
}
