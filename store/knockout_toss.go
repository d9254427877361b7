package store

import (
	"context"
	"fmt"
)

// SetKnockoutObserved stores the observed 振り駒 of a bracket game (every
// toss so far, as JSON) and how sente is now chosen.
func (s *Store) SetKnockoutObserved(ctx context.Context, id int64, observed, senteBy string) error {
	res := s.DB(ctx).Model(&KnockoutGame{}).Where("id = ?", id).Updates(map[string]any{"observed": observed, "sente_by": senteBy})
	if res.Error != nil {
		return notFound(res.Error, "set observed toss")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("bracket game %d: %w", id, ErrNotFound)
	}
	return nil
}
