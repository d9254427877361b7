package store

import (
	"context"
	"fmt"
)

// RatingCounters summarise the append-only and insert-only tables that
// ratings depend on. Result versions, confirmations and voids are never
// updated or deleted (a correction is a new version), so their count and
// largest id change exactly when something new arrives. (A void takes a
// game out of the ratings; a withdrawal voids games without a new result
// version, so voids are counted on their own.)
type RatingCounters struct {
	Results          int64
	MaxResultID      int64
	Confirmations    int64
	MaxConfirmation  int64
	Voids            int64
	MaxVoidID        int64
	Players          int64
	MaxPlayerID      int64
	PlayerIDChecksum int64
}

// RatingCounters reads the counters in one statement.
func (s *Store) RatingCounters(ctx context.Context) (RatingCounters, error) {
	var c RatingCounters
	err := s.DB(ctx).Raw(`SELECT
		(SELECT COUNT(*) FROM game_results) AS results,
		(SELECT COALESCE(MAX(id), 0) FROM game_results) AS max_result_id,
		(SELECT COUNT(*) FROM game_result_confirmations) AS confirmations,
		(SELECT COALESCE(MAX(id), 0) FROM game_result_confirmations) AS max_confirmation,
		(SELECT COUNT(*) FROM game_voids) AS voids,
		(SELECT COALESCE(MAX(id), 0) FROM game_voids) AS max_void_id,
		(SELECT COUNT(*) FROM players) AS players,
		(SELECT COALESCE(MAX(id), 0) FROM players) AS max_player_id,
		(SELECT COALESCE(SUM(id), 0) FROM players) AS player_id_checksum`).Scan(&c).Error
	if err != nil {
		return RatingCounters{}, fmt.Errorf("read rating counters: %w", err)
	}
	return c, nil
}

// GamesOfEventsIn lists every game of the events whose status is one of
// statuses, by id.
func (s *Store) GamesOfEventsIn(ctx context.Context, statuses []string) ([]Game, error) {
	var gs []Game
	err := s.DB(ctx).Where("event_id IN (?)", s.DB(ctx).Model(&Event{}).Select("id").Where("status IN ?", statuses)).
		Where("id NOT IN (?)", s.DB(ctx).Model(&GameVoid{}).Select("game_id")).
		Order("id").Find(&gs).Error
	return gs, notFound(err, "games of events")
}

// EventsByIDs loads the events with the given ids, keyed by id.
func (s *Store) EventsByIDs(ctx context.Context, ids []int64) (map[int64]Event, error) {
	return rowsByID(ctx, s, ids, "read events", func(e Event) int64 { return e.ID })
}

// GamesAwaitingConfirmation lists the ids of games that have result
// versions but none confirmed yet.
func (s *Store) GamesAwaitingConfirmation(ctx context.Context) ([]int64, error) {
	var ids []int64
	err := s.DB(ctx).Raw(`SELECT DISTINCT r.game_id FROM game_results r
		WHERE NOT EXISTS (SELECT 1 FROM game_results r2
			JOIN game_result_confirmations c ON c.game_result_id = r2.id
			WHERE r2.game_id = r.game_id)
		ORDER BY r.game_id`).Scan(&ids).Error
	return ids, notFound(err, "games awaiting confirmation")
}

// AllPlayerIDs lists every player id in the registry.
func (s *Store) AllPlayerIDs(ctx context.Context) ([]int64, error) {
	var ids []int64
	err := s.DB(ctx).Model(&Player{}).Order("id").Pluck("id", &ids).Error
	return ids, notFound(err, "player ids")
}

// RatingGamesDigest summarises the games of events in statuses in one
// aggregate row: their number, a checksum of every column a rating
// depends on (players, redo link, even or handicap, scheduled day,
// started or not) weighted by position so swaps show, and the latest
// update time. Reading it costs one indexed scan in the database instead
// of moving every game to the server.
type RatingGamesDigest struct {
	Games     int64
	Checksum  int64
	Checksum2 int64
	LastTouch string
}

// RatingGamesDigest reads the digest (the same SQL on both databases:
// modular sums stay far inside 64 bits for millions of games).
func (s *Store) RatingGamesDigest(ctx context.Context, statuses []string) (RatingGamesDigest, error) {
	const row = `(g.id * 1000003 + COALESCE(g.sente_player_id, 0) * 10007 + COALESCE(g.gote_player_id, 0) * 101
		+ COALESCE(g.redo_of_id, 0) * 7 + CASE WHEN g.handicap = '平手' THEN 0 ELSE 3 END
		+ COALESCE(CAST(REPLACE(g.scheduled_on, '-', '') AS BIGINT), 0) * 13
		+ CASE WHEN g.started_at IS NULL THEN 0 ELSE 5 END)`
	var d RatingGamesDigest
	err := s.DB(ctx).Raw(`SELECT COUNT(*) AS games,
		COALESCE(SUM(`+row+` % 1000000007 * (g.id % 997 + 1)), 0) AS checksum,
		COALESCE(SUM(`+row+` % 998244353 * (COALESCE(g.sente_player_id, 0) % 991 + 1)), 0) AS checksum2,
		COALESCE(CAST(MAX(g.updated_at) AS TEXT), '') AS last_touch
		FROM games g JOIN events e ON e.id = g.event_id WHERE e.status IN ?`, statuses).Scan(&d).Error
	if err != nil {
		return RatingGamesDigest{}, fmt.Errorf("read games digest: %w", err)
	}
	return d, nil
}
