package store

import (
	"context"
	"fmt"
)

// GameOfUnpublishedPart reports, in one statement, whether a game belongs
// to a knockout stage or league class that is not published: the first
// game of its redo chain is one of that stage's bracket games or that
// class's scheduled games (UnpublishedGamesOfEvent's rule for one game).
func (s *Store) GameOfUnpublishedPart(ctx context.Context, gameID int64) (bool, error) {
	var n int64
	err := s.DB(ctx).Raw(`WITH RECURSIVE chain(id, redo_of_id) AS (
			SELECT id, redo_of_id FROM games WHERE id = ?
			UNION ALL SELECT g.id, g.redo_of_id FROM games g JOIN chain c ON g.id = c.redo_of_id)
		SELECT COUNT(*) FROM chain c WHERE c.id IN (
			SELECT kg.game_id FROM knockout_games kg JOIN knockout_stages st ON st.id = kg.stage_id WHERE st.status <> 'published'
			UNION SELECT lg.game_id FROM league_games lg JOIN league_classes lc ON lc.id = lg.class_id WHERE lc.status <> 'published')`,
		gameID).Scan(&n).Error
	if err != nil {
		return false, fmt.Errorf("game %d of an unpublished stage or class: %w", gameID, err)
	}
	return n > 0, nil
}
