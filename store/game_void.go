package store

import (
	"context"
	"time"
)

// GameVoid marks a redo game void: the redo result that created it was
// superseded by one that is not a redo. Rows are never updated or deleted.
type GameVoid struct {
	ID       int64 `gorm:"primaryKey"`
	GameID   int64 `gorm:"not null;uniqueIndex"`
	ResultID int64 `gorm:"default:null"` // the version that superseded the game; 0 (NULL) for a withdrawal
	VoidedBy int64 `gorm:"not null"`
	VoidedAt time.Time
	// CorrectionID names the correction that voided a later bracket game
	// (migration 00095); nil for a redo game voided by its parent's result.
	CorrectionID *int64
}

// VoidGame records that a game is void; a game is voided once
// (ErrConflict on a second time).
func (s *Store) VoidGame(ctx context.Context, v *GameVoid) error {
	v.VoidedAt = v.VoidedAt.UTC()
	return notFound(s.DB(ctx).Create(v).Error, "void game")
}

// GameVoidOf is the void mark of a game; ok is false when it stands.
func (s *Store) GameVoidOf(ctx context.Context, gameID int64) (GameVoid, bool, error) {
	var out []GameVoid
	if err := s.DB(ctx).Where("game_id = ?", gameID).Limit(1).Find(&out).Error; err != nil || len(out) == 0 {
		return GameVoid{}, false, err
	}
	return out[0], true, nil
}

// AllRedoGames lists every redo game of game id, void ones included (for
// showing the chain's history), in order.
func (s *Store) AllRedoGames(ctx context.Context, id int64) ([]Game, error) {
	var gs []Game
	err := s.DB(ctx).Where("redo_of_id = ?", id).Order("redo_number, id").Find(&gs).Error
	return gs, err
}
