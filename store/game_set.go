package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"gorm.io/gorm"
)

// GameSet is what pages need to know of a set of games, read in three
// statements whatever its size (issue 12): the games with their whole redo
// chains, every result version with its confirmation, and the void marks.
// office computes effective results and deciding games from it in memory
// (office/game_set.go); the same code serves one game and a thousand.
type GameSet struct {
	Games    map[int64]Game
	Versions map[int64][]ResultVersion // per game, oldest first
	Void     map[int64]bool            // game_voids
	redos    map[int64][]Game          // non-void redo games per game they replay
}

// Redos lists the redo games that replay game id, in order (redo number,
// then id), leaving out void ones — RedoGames read from the set.
func (gs GameSet) Redos(id int64) []Game { return gs.redos[id] }

// Latest is a game's newest result version, confirmed or not.
func (gs GameSet) Latest(id int64) (ResultVersion, bool) {
	vs := gs.Versions[id]
	if len(vs) == 0 {
		return ResultVersion{}, false
	}
	return vs[len(vs)-1], true
}

// Effective is a game's result in force: its latest confirmed version.
func (gs GameSet) Effective(id int64) (ResultVersion, bool) { return EffectiveOf(gs.Versions[id]) }

// EffectiveOf is the result in force among a game's versions (oldest
// first): the latest confirmed one. It is the one definition every reader
// uses (EffectiveResult, EffectiveResults, GameSet.Effective).
func EffectiveOf(vs []ResultVersion) (ResultVersion, bool) {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Confirmed() {
			return vs[i], true
		}
	}
	return ResultVersion{}, false
}

// gameSetIn reads the games whose ids the query in gives (after the WITH
// clause cte, "" for none), in three statements.
func (s *Store) gameSetIn(ctx context.Context, what, cte, in string, args ...any) (GameSet, error) {
	// Rows are scanned by hand, column by column: these are the largest
	// reads of every listing page, and gorm's reflection scanning cost
	// more than the database did (issue 12).
	games, err := scanGames(s.DB(ctx).Raw(cte+"SELECT "+gameColumns+" FROM games WHERE id IN ("+in+")", args...))
	if err != nil {
		return GameSet{}, fmt.Errorf("games of %s: %w", what, err)
	}
	vs, err := scanResultVersions(s.DB(ctx).Raw(cte+"SELECT "+resultVersionColumns+" FROM game_results"+
		" LEFT JOIN game_result_confirmations conf ON conf.game_result_id = game_results.id"+
		" WHERE game_results.game_id IN ("+in+") ORDER BY game_results.game_id, game_results.version", args...))
	if err != nil {
		return GameSet{}, fmt.Errorf("results of %s: %w", what, err)
	}
	var voids []int64
	if err := s.DB(ctx).Raw(cte+"SELECT game_id FROM game_voids WHERE game_id IN ("+in+")", args...).Scan(&voids).Error; err != nil {
		return GameSet{}, fmt.Errorf("void games of %s: %w", what, err)
	}
	return newGameSet(games, vs, voids), nil
}

// newGameSet files what a set's reads found: the games, their result
// versions (ordered by game, then version) and the void games' ids. Redo
// games are listed under the game they replay in redo number, then id
// order, leaving out void ones.
func newGameSet(games []Game, vs []ResultVersion, voids []int64) GameSet {
	gs := GameSet{Games: make(map[int64]Game, len(games)), Versions: make(map[int64][]ResultVersion, len(games)),
		Void: make(map[int64]bool, len(voids)), redos: map[int64][]Game{}}
	for _, id := range voids {
		gs.Void[id] = true
	}
	for _, g := range games {
		gs.Games[g.ID] = g
		if g.RedoOfID != nil && !gs.Void[g.ID] {
			gs.redos[*g.RedoOfID] = append(gs.redos[*g.RedoOfID], g)
		}
	}
	for _, rs := range gs.redos {
		slices.SortFunc(rs, func(a, b Game) int {
			if a.RedoNumber != b.RedoNumber {
				return a.RedoNumber - b.RedoNumber
			}
			return int(a.ID - b.ID)
		})
	}
	fileRuns(vs, func(v *ResultVersion) int64 { return v.GameID }, gs.Versions)
	return gs
}

// fileRuns files rows that arrive ordered by key into out: each key's rows
// are a sub-slice of all, its capacity capped so that an append copies.
func fileRuns[T any](all []T, key func(*T) int64, out map[int64][]T) {
	for i := 0; i < len(all); {
		k := key(&all[i])
		j := i + 1
		for j < len(all) && key(&all[j]) == k {
			j++
		}
		out[k] = all[i:j:j]
		i = j
	}
}

// GameSetOfEvent reads every game of an event. A redo game belongs to the
// event of the game it replays, so no chain needs following.
func (s *Store) GameSetOfEvent(ctx context.Context, eventID int64) (GameSet, error) {
	return s.gameSetIn(ctx, fmt.Sprintf("event %d", eventID), "", "SELECT id FROM games WHERE event_id = ?", eventID)
}

// GameSetOfChain reads one game and every redo game replaying it, at any
// depth (chain(id), a recursive query).
func (s *Store) GameSetOfChain(ctx context.Context, gameID int64) (GameSet, error) {
	const chain = "WITH RECURSIVE chain(id) AS (SELECT id FROM games WHERE id = ?" +
		" UNION SELECT g.id FROM games g JOIN chain ON g.redo_of_id = chain.id) "
	return s.gameSetIn(ctx, fmt.Sprintf("game %d", gameID), chain, "SELECT id FROM chain", gameID)
}

// GameSetOfDayRound reads the games of round n of a day class: each
// board's game and every redo game replaying it, at any depth (the
// public round page, which shows one round whatever the day holds).
func (s *Store) GameSetOfDayRound(ctx context.Context, classID int64, n int) (GameSet, error) {
	const chain = "WITH RECURSIVE chain(id) AS (SELECT p.game_id FROM day_pairings p JOIN day_rounds r ON r.id = p.round_id" +
		" WHERE r.class_id = ? AND r.number = ? AND p.game_id IS NOT NULL" +
		" UNION SELECT g.id FROM games g JOIN chain ON g.redo_of_id = chain.id) "
	return s.gameSetIn(ctx, fmt.Sprintf("round %d of day class %d", n, classID), chain, "SELECT id FROM chain", classID, n)
}

// GameSetOfPlayer reads every game a player sits in. A redo game seats the
// players of the game it replays, so no chain needs following.
func (s *Store) GameSetOfPlayer(ctx context.Context, playerID int64) (GameSet, error) {
	return s.gameSetIn(ctx, fmt.Sprintf("player %d", playerID), "", "SELECT id FROM games WHERE sente_player_id = ? OR gote_player_id = ?", playerID, playerID)
}

// PublicEventsOfPlayer is the set of events with a status in statuses
// among the events of the player's games, in one statement.
func (s *Store) PublicEventsOfPlayer(ctx context.Context, playerID int64, statuses []string) (map[int64]bool, error) {
	var ids []int64
	err := s.DB(ctx).Raw("SELECT id FROM events WHERE status IN ? AND id IN (SELECT event_id FROM games WHERE sente_player_id = ? OR gote_player_id = ?)",
		statuses, playerID, playerID).Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("events of player %d: %w", playerID, err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

const gameColumns = "id, event_id, label, sente_player_id, gote_player_id, handicap, scheduled_on, sente_allowance_s, gote_allowance_s, redo_of_id, redo_number, started_at, created_at, updated_at"

// scanGames reads the rows of a query selecting gameColumns.
func scanGames(q *gorm.DB) ([]Game, error) {
	rows, err := q.Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		var (
			g                   Game
			sente, gote, redoOf sql.NullInt64
			scheduled           sql.NullString
			started             sql.NullTime
		)
		if err := rows.Scan(&g.ID, &g.EventID, &g.Label, &sente, &gote, &g.Handicap, &scheduled, &g.SenteAllowanceS, &g.GoteAllowanceS,
			&redoOf, &g.RedoNumber, &started, &g.CreatedAt, &g.UpdatedAt); err != nil {
			return nil, err
		}
		g.SentePlayerID, g.GotePlayerID, g.RedoOfID = nullID(sente), nullID(gote), nullID(redoOf)
		if scheduled.Valid {
			v := scheduled.String
			g.ScheduledOn = &v
		}
		if started.Valid {
			v := started.Time
			g.StartedAt = &v
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

const resultVersionColumns = "game_results.id, game_results.game_id, game_results.version, game_results.result, game_results.reason, game_results.outcome, game_results.note, game_results.entered_by, game_results.entered_at, conf.confirmed_by, conf.confirmed_at"

// scanResultVersions reads the rows of a query selecting
// resultVersionColumns.
func scanResultVersions(q *gorm.DB) ([]ResultVersion, error) {
	rows, err := q.Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ResultVersion
	for rows.Next() {
		var (
			v  ResultVersion
			by sql.NullInt64
			at sql.NullTime
		)
		if err := rows.Scan(&v.ID, &v.GameID, &v.Version, &v.Result, &v.Reason, &v.Outcome, &v.Note, &v.EnteredBy, &v.EnteredAt, &by, &at); err != nil {
			return nil, err
		}
		v.ConfirmedBy = nullID(by)
		if at.Valid {
			t := at.Time
			v.ConfirmedAt = &t
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func nullID(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	v := n.Int64
	return &v
}
