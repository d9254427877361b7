package store

import (
	"context"
	"fmt"
	"time"
)

// PlayerRelative is one 肉親 pair of the registry (parent and child,
// siblings, spouses, …). PlayerAID < PlayerBID, so each unordered pair has
// one row; Relation is free text such as 親子, 兄弟 or 夫婦.
type PlayerRelative struct {
	ID        int64  `gorm:"primaryKey"`
	PlayerAID int64  `gorm:"column:player_a_id;not null"`
	PlayerBID int64  `gorm:"column:player_b_id;not null"`
	Relation  string `gorm:"not null;default:''"`
	CreatedAt time.Time
}

// AddPlayerRelative inserts a pair; ErrConflict when it exists already.
func (s *Store) AddPlayerRelative(ctx context.Context, r *PlayerRelative) error {
	r.CreatedAt = r.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "add player relative")
}

// DeletePlayerRelative removes one pair by id; ErrNotFound when absent.
func (s *Store) DeletePlayerRelative(ctx context.Context, id int64) error {
	res := s.DB(ctx).Delete(&PlayerRelative{}, id)
	if res.Error != nil {
		return notFound(res.Error, "delete player relative")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("player relative %d: %w", id, ErrNotFound)
	}
	return nil
}

// PlayerRelativeByID loads one pair.
func (s *Store) PlayerRelativeByID(ctx context.Context, id int64) (PlayerRelative, error) {
	var r PlayerRelative
	err := s.DB(ctx).Take(&r, id).Error
	return r, notFound(err, "player relative")
}

// RelativesOf lists the pairs one player belongs to.
func (s *Store) RelativesOf(ctx context.Context, playerID int64) ([]PlayerRelative, error) {
	var out []PlayerRelative
	err := s.DB(ctx).Where("player_a_id = ? OR player_b_id = ?", playerID, playerID).Order("id").Find(&out).Error
	return out, notFound(err, "player relatives")
}

// RelativesAmong lists the pairs whose two players are both in ids (the
// members of a league class).
func (s *Store) RelativesAmong(ctx context.Context, ids []int64) ([]PlayerRelative, error) {
	var out []PlayerRelative
	if len(ids) < 2 {
		return out, nil
	}
	err := s.DB(ctx).Where("player_a_id IN ? AND player_b_id IN ?", ids, ids).Order("player_a_id, player_b_id").Find(&out).Error
	return out, notFound(err, "player relatives")
}
