package store

import (
	"context"
	"fmt"

	"gorm.io/gorm/clause"
)

// LockGame reads one game and holds its row for the rest of the
// transaction, so two writers of the same game's result take turns: on
// PostgreSQL with SELECT … FOR UPDATE; on SQLite every transaction is
// already BEGIN IMMEDIATE (SQLiteDSN: _txlock=immediate), which holds the
// database's write lock from its first statement. Call it inside Tx only.
func (s *Store) LockGame(ctx context.Context, id int64) (Game, error) {
	q := s.DB(ctx)
	if s.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var g Game
	err := q.Where("id = ?", id).Take(&g).Error
	return g, notFound(err, fmt.Sprintf("lock game %d", id))
}

// LatestResult is the newest result version of a game, confirmed or not;
// ok is false while the game has none (version 0).
func (s *Store) LatestResult(ctx context.Context, gameID int64) (ResultVersion, bool, error) {
	var vs []ResultVersion
	err := s.resultVersions(ctx).Where("game_results.game_id = ?", gameID).
		Order("game_results.version DESC").Limit(1).Scan(&vs).Error
	if err != nil || len(vs) == 0 {
		return ResultVersion{}, false, err
	}
	return vs[0], true, nil
}
