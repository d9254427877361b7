package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// playerGamesRevisionColumns name, in one row, the state of everything a
// player's record is computed from: how many games the player sits in, the
// revisions of their events (migration 00097's event_changes, raised by
// every write to an event's games, results, confirmations, voids, 棋譜 or
// status) and the registry's revision (the opponents' names). Revisions
// only grow, and an event whose games have results cannot be deleted, so
// any change to the record gives a different name.
const playerGamesRevisionColumns = `(SELECT COUNT(*) FROM games WHERE sente_player_id = ? OR gote_player_id = ?) AS games,
		COUNT(*) AS events, COALESCE(SUM(revision), 0) AS sum, COALESCE(MAX(event_id), 0) AS max, COALESCE(MIN(event_id), 0) AS low,
		(SELECT COALESCE(MAX(revision), 0) FROM registry_changes WHERE id = 1) AS registry`

const playerGamesRevisionFrom = ` FROM event_changes WHERE event_id IN (SELECT event_id FROM games WHERE sente_player_id = ? OR gote_player_id = ?)`

type playerGamesRevision struct {
	Games, Events, Sum, Max, Low, Registry int64
}

func (r playerGamesRevision) String() string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%d", r.Games, r.Events, r.Sum, r.Max, r.Low, r.Registry)
}

// PlayerGamesRevision names, in one statement, the state of a player's
// record (playerGamesRevisionColumns): the key under which office keeps
// the record's lines.
func (s *Store) PlayerGamesRevision(ctx context.Context, playerID int64) (string, error) {
	var r playerGamesRevision
	err := s.DB(ctx).Raw("SELECT "+playerGamesRevisionColumns+playerGamesRevisionFrom, playerID, playerID, playerID, playerID).Scan(&r).Error
	if err != nil {
		return "", fmt.Errorf("record revision of player %d: %w", playerID, err)
	}
	return r.String(), nil
}

// PlayerPageRevisions names, in one statement, everything a player's public
// record page shows (page): PlayerGamesRevision (the games, their events
// and the registry, the player's own row included) and the stored ratings'
// state (input and computed revisions, when they were computed), which
// covers the rating, its history and whether it is being recomputed. It is
// the page's validator and its key in the render cache (web). games is the
// PlayerGamesRevision it includes, from the same statement: a page that
// names its state first need not read the record's again (issue 12).
func (s *Store) PlayerPageRevisions(ctx context.Context, playerID int64) (page, games string, err error) {
	// Flat: gorm does not fill the fields of an embedded unexported struct.
	var r struct {
		Games, Events, Sum, Max, Low, Registry int64
		InputRev, ComputedRev                  sql.NullInt64
		ComputedAt                             sql.NullString
	}
	err = s.DB(ctx).Raw("SELECT "+playerGamesRevisionColumns+`,
		(SELECT input_revision FROM rating_state WHERE id = 1) AS input_rev,
		(SELECT computed_revision FROM rating_state WHERE id = 1) AS computed_rev,
		(SELECT computed_at FROM rating_state WHERE id = 1) AS computed_at`+playerGamesRevisionFrom,
		playerID, playerID, playerID, playerID).Scan(&r).Error
	if err != nil {
		return "", "", fmt.Errorf("page revision of player %d: %w", playerID, err)
	}
	games = playerGamesRevision{Games: r.Games, Events: r.Events, Sum: r.Sum, Max: r.Max, Low: r.Low, Registry: r.Registry}.String()
	return games + "/" + strconv.FormatInt(r.InputRev.Int64, 10) + "/" + strconv.FormatInt(r.ComputedRev.Int64, 10) +
		"@" + r.ComputedAt.String, games, nil
}

// RatingsPageRevision names, in one statement, everything the public
// ratings list shows: the registry's revision (players' names, kinds and
// classes) and the stored ratings' state (input and computed revisions,
// when they were computed; the rating settings move the input revision,
// migration 00098). It is the list's validator and render-cache key (web).
func (s *Store) RatingsPageRevision(ctx context.Context) (string, error) {
	var r struct {
		Registry              int64
		InputRev, ComputedRev sql.NullInt64
		ComputedAt            sql.NullString
	}
	err := s.DB(ctx).Raw(`SELECT (SELECT COALESCE(MAX(revision), 0) FROM registry_changes WHERE id = 1) AS registry,
		(SELECT input_revision FROM rating_state WHERE id = 1) AS input_rev,
		(SELECT computed_revision FROM rating_state WHERE id = 1) AS computed_rev,
		(SELECT computed_at FROM rating_state WHERE id = 1) AS computed_at`).Scan(&r).Error
	if err != nil {
		return "", fmt.Errorf("ratings page revision: %w", err)
	}
	return strconv.FormatInt(r.Registry, 10) + "/" + strconv.FormatInt(r.InputRev.Int64, 10) + "/" +
		strconv.FormatInt(r.ComputedRev.Int64, 10) + "@" + r.ComputedAt.String, nil
}

// PlayerRecordGame is one game of a player's public record as the record
// page needs it: the game's identity, seats and days only (the other
// columns of Game are left zero), whether a 棋譜 is stored, and every
// result version, oldest first (EffectiveOf picks the one in force).
type PlayerRecordGame struct {
	Game      Game
	HasRecord bool
	Versions  []ResultVersion // GameID, Result, Reason, EnteredAt and ConfirmedBy only
}

// PlayerRecordGames reads, in one statement whatever their number, the
// player's games that are not void in events whose status is in statuses,
// by game id: the narrow columns the record page shows (issue 12; no
// label, allowances or update times, no record text), with each result
// version joined.
func (s *Store) PlayerRecordGames(ctx context.Context, playerID int64, statuses []string) ([]PlayerRecordGame, error) {
	rows, err := s.DB(ctx).Raw(`SELECT g.id, g.event_id, g.sente_player_id, g.gote_player_id, g.scheduled_on, g.started_at,
		CASE WHEN EXISTS (SELECT 1 FROM game_records k WHERE k.game_id = g.id) THEN 1 ELSE 0 END,
		r.result, r.reason, r.entered_at, c.confirmed_by, COUNT(*) OVER ()
		FROM games g
		LEFT JOIN game_results r ON r.game_id = g.id
		LEFT JOIN game_result_confirmations c ON c.game_result_id = r.id
		WHERE (g.sente_player_id = ? OR g.gote_player_id = ?)
		AND g.event_id IN (SELECT id FROM events WHERE status IN ?)
		AND NOT EXISTS (SELECT 1 FROM game_voids v WHERE v.game_id = g.id)
		ORDER BY g.id, r.version`, playerID, playerID, statuses).Rows()
	if err != nil {
		return nil, fmt.Errorf("record games of player %d: %w", playerID, err)
	}
	defer rows.Close()
	// The scan targets are declared once, not per row (each would escape
	// to the heap), every version goes into one slice, cut per game (rows
	// come ordered by game), and the values the games and versions point to
	// are taken from shared blocks, not allocated one by one (issue 12).
	var (
		ids                      slab[int64]
		days                     slab[string]
		times                    slab[time.Time]
		out                      []PlayerRecordGame
		all                      []ResultVersion
		from                     []int // per game, where its versions start in all
		id, event                int64
		sente, gote, confirmedBy sql.NullInt64
		scheduled                sql.NullString
		started, entered         sql.NullTime
		recorded                 int
		total                    int // the answer's rows, on every row
		result, reason           sql.NullString
	)
	for rows.Next() {
		if err := rows.Scan(&id, &event, &sente, &gote, &scheduled, &started, &recorded, &result, &reason, &entered, &confirmedBy, &total); err != nil {
			return nil, fmt.Errorf("record games of player %d: %w", playerID, err)
		}
		if out == nil {
			// Every row is a game or a further version of one: the
			// slices are sized once, not grown (issue 12).
			out, all, from = make([]PlayerRecordGame, 0, total), make([]ResultVersion, 0, total), make([]int, 0, total)
		}
		if n := len(out); n == 0 || out[n-1].Game.ID != id {
			g := Game{ID: id, EventID: event}
			if sente.Valid {
				g.SentePlayerID = ids.of(sente.Int64)
			}
			if gote.Valid {
				g.GotePlayerID = ids.of(gote.Int64)
			}
			if scheduled.Valid {
				g.ScheduledOn = days.of(scheduled.String)
			}
			if started.Valid {
				g.StartedAt = times.of(started.Time)
			}
			out = append(out, PlayerRecordGame{Game: g, HasRecord: recorded != 0})
			from = append(from, len(all))
		}
		if result.Valid {
			v := ResultVersion{GameResult: GameResult{GameID: id, Result: result.String, Reason: reason.String}}
			if confirmedBy.Valid {
				v.ConfirmedBy = ids.of(confirmedBy.Int64)
			}
			if entered.Valid {
				v.EnteredAt = entered.Time
			}
			all = append(all, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("record games of player %d: %w", playerID, err)
	}
	for i := range out {
		end := len(all)
		if i+1 < len(out) {
			end = from[i+1]
		}
		if from[i] < end {
			out[i].Versions = all[from[i]:end:end]
		}
	}
	return out, nil
}

// slab hands out pointers to values kept in blocks of 256, one allocation
// per block instead of one per value, for reads that point to a value per
// row (nullable columns) over a thousand rows.
type slab[T any] struct{ free []T }

func (s *slab[T]) of(v T) *T {
	if len(s.free) == 0 {
		s.free = make([]T, 256)
	}
	p := &s.free[0]
	*p, s.free = v, s.free[1:]
	return p
}
