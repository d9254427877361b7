package store

import (
	"context"
	"fmt"
)

// Reads for record downloads (docs/downloads.md): an event's or a stage's
// records as one set, a fixed number of statements whatever the number of
// games (issue 12).

// latestRecordsIn reads the newest record version of every game whose id
// the query in gives, in one statement.
func (s *Store) latestRecordsIn(ctx context.Context, what, in string, args ...any) (map[int64]GameRecord, error) {
	var rows []GameRecord
	err := s.DB(ctx).Raw("SELECT r.* FROM game_records r WHERE r.game_id IN ("+in+")"+
		" AND r.version = (SELECT MAX(r2.version) FROM game_records r2 WHERE r2.game_id = r.game_id)", args...).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("records of %s: %w", what, err)
	}
	out := make(map[int64]GameRecord, len(rows))
	for _, r := range rows {
		out[r.GameID] = r
	}
	return out, nil
}

// LatestRecordsOfEvent is the record in force (the newest version) of
// every game of an event that has one, keyed by game id.
func (s *Store) LatestRecordsOfEvent(ctx context.Context, eventID int64) (map[int64]GameRecord, error) {
	return s.latestRecordsIn(ctx, fmt.Sprintf("event %d", eventID), "SELECT id FROM games WHERE event_id = ?", eventID)
}

// UnpublishedGamesOfEvent lists, in one statement, the games an event's
// unpublished knockout stages and league classes play (the first game of
// each chain; redo games follow from the game set). The public pages show
// neither, so the public download leaves them out.
func (s *Store) UnpublishedGamesOfEvent(ctx context.Context, eventID int64) (map[int64]bool, error) {
	var ids []int64
	err := s.DB(ctx).Raw("SELECT game_id FROM knockout_games WHERE stage_id IN (SELECT id FROM knockout_stages WHERE event_id = ? AND status <> 'published')"+
		" UNION SELECT game_id FROM league_games WHERE class_id IN (SELECT id FROM league_classes WHERE event_id = ? AND status <> 'published')",
		eventID, eventID).Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("unpublished games of event %d: %w", eventID, err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// GameIDsOfStage lists the games a knockout stage's bracket games point
// to, void ones included (the caller drops them with the game set), in
// one statement.
func (s *Store) GameIDsOfStage(ctx context.Context, stageID int64) ([]int64, error) {
	var ids []int64
	err := s.DB(ctx).Raw("SELECT game_id FROM knockout_games WHERE stage_id = ? ORDER BY id", stageID).Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("games of stage %d: %w", stageID, err)
	}
	return ids, nil
}
