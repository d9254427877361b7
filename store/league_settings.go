package store

import (
	"context"
	"fmt"
	"time"
)

// SaveLeagueClassSettings replaces a class's league settings (JSON) and,
// for a drawn class, its constraint report. It fails with ErrConflict once
// the class is published: the schedule is fixed then.
func (s *Store) SaveLeagueClassSettings(ctx context.Context, id int64, settings, report string, now time.Time) error {
	res := s.DB(ctx).Model(&LeagueClass{}).Where("id = ? AND status <> ?", id, "published").
		Updates(map[string]any{"settings": settings, "report": report, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "save league class settings")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("league class %d is published or missing: %w", id, ErrConflict)
	}
	return nil
}
