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

// SetKnockoutFurigoma replaces the simulated 振り駒 of a bracket game whose
// game has not started (an organiser's override of the 上座 tosses it
// again from the same seed; the override and the draw log keep why).
func (s *Store) SetKnockoutFurigoma(ctx context.Context, id int64, furigoma string) error {
	res := s.DB(ctx).Model(&KnockoutGame{}).Where("id = ?", id).Update("furigoma", furigoma)
	if res.Error != nil {
		return notFound(res.Error, "set simulated toss")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("bracket game %d: %w", id, ErrNotFound)
	}
	return nil
}
