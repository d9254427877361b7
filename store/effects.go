package store

import (
	"context"
	"fmt"
)

// EventMarks is where an event's growing tables stand: the highest game,
// result version and void mark ids. A preview (office.DryRun) reads it
// before a write and lists what the write added after it.
type EventMarks struct {
	Game, Result, Void int64
}

// EventMarksNow reads the highest ids of the event's games, result
// versions and void marks.
func (s *Store) EventMarksNow(ctx context.Context, eventID int64) (EventMarks, error) {
	var m EventMarks
	db := s.DB(ctx)
	games := db.Model(&Game{}).Select("id").Where("event_id = ?", eventID)
	if err := db.Model(&Game{}).Select("COALESCE(MAX(id), 0)").Where("event_id = ?", eventID).Scan(&m.Game).Error; err != nil {
		return m, fmt.Errorf("event %d marks: %w", eventID, err)
	}
	if err := db.Model(&GameResult{}).Select("COALESCE(MAX(id), 0)").Where("game_id IN (?)", games).Scan(&m.Result).Error; err != nil {
		return m, fmt.Errorf("event %d marks: %w", eventID, err)
	}
	if err := db.Model(&GameVoid{}).Select("COALESCE(MAX(id), 0)").Where("game_id IN (?)", games).Scan(&m.Void).Error; err != nil {
		return m, fmt.Errorf("event %d marks: %w", eventID, err)
	}
	return m, nil
}

// GamesAddedSince lists the event's games created after mark, in order.
func (s *Store) GamesAddedSince(ctx context.Context, eventID int64, m EventMarks) ([]Game, error) {
	var out []Game
	err := s.DB(ctx).Where("event_id = ? AND id > ?", eventID, m.Game).Order("id").Find(&out).Error
	return out, notFound(err, "games added")
}

// ResultsAddedSince lists the result versions of the event's games
// appended after mark, in order.
func (s *Store) ResultsAddedSince(ctx context.Context, eventID int64, m EventMarks) ([]GameResult, error) {
	var out []GameResult
	err := s.DB(ctx).Where("id > ? AND game_id IN (?)", m.Result, s.DB(ctx).Model(&Game{}).Select("id").Where("event_id = ?", eventID)).
		Order("id").Find(&out).Error
	return out, notFound(err, "results added")
}

// VoidsAddedSince lists the void marks of the event's games added after
// mark, in order.
func (s *Store) VoidsAddedSince(ctx context.Context, eventID int64, m EventMarks) ([]GameVoid, error) {
	var out []GameVoid
	err := s.DB(ctx).Where("id > ? AND game_id IN (?)", m.Void, s.DB(ctx).Model(&Game{}).Select("id").Where("event_id = ?", eventID)).
		Order("id").Find(&out).Error
	return out, notFound(err, "voids added")
}

// GamesHaveResult reports whether any of the games has a result version.
func (s *Store) GamesHaveResult(ctx context.Context, ids []int64) (bool, error) {
	if len(ids) == 0 {
		return false, nil
	}
	var n int64
	err := s.DB(ctx).Model(&GameResult{}).Where("game_id IN ?", ids).Count(&n).Error
	return n > 0, notFound(err, "results of games")
}

// GameAdjudicationOfResult is the facts stored with result version
// resultID; ok is false for a version entered by hand.
func (s *Store) GameAdjudicationOfResult(ctx context.Context, resultID int64) (GameAdjudication, bool, error) {
	var out []GameAdjudication
	err := s.DB(ctx).Where("result_id = ?", resultID).Order("id DESC").Limit(1).Find(&out).Error
	if err != nil || len(out) == 0 {
		return GameAdjudication{}, false, notFound(err, "game adjudication of result")
	}
	return out[0], true, nil
}
