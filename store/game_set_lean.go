package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// GameSetOfEventLean is GameSetOfEvent with only what a bracket or a league
// table is computed from (issue 12: these reads were most of a computed
// bracket page). Its games hold ID, EventID, the seats, Handicap,
// ScheduledOn, the allowances, RedoOfID, RedoNumber and StartedAt; Label,
// CreatedAt and UpdatedAt stay zero. Its result versions hold ID, GameID,
// Version, Result, Reason and ConfirmedBy (what Confirmed and EffectiveOf
// read); Outcome, Note, EnteredBy, EnteredAt, ConfirmedAt and ConfirmedVia
// stay zero. Timestamps cost the most to scan (SQLite parses every one as
// text), and the pages that use this set never show them. Void marks and
// redo order are GameSetOfEvent's; TestGameSetOfEventLean_AgreesWithGameSetOfEvent
// checks both reads agree on every field the lean one keeps. Two
// statements, whatever the size.
func (s *Store) GameSetOfEventLean(ctx context.Context, eventID int64) (GameSet, error) {
	games, voids, _, err := s.leanGamesOfEvent(ctx, eventID, 0)
	if err != nil {
		return GameSet{}, fmt.Errorf("games and void marks of event %d: %w", eventID, err)
	}
	vs, err := s.leanVersionsOfEvent(ctx, eventID)
	if err != nil {
		return GameSet{}, fmt.Errorf("results of event %d: %w", eventID, err)
	}
	return newGameSet(games, vs, voids), nil
}

// GameSetOfLeagueClass is GameSetOfEventLean of the class's event together
// with LeagueGames of the class, in the statements of GameSetOfEventLean
// alone: the league games come with the games (a left join on
// league_games, whose game_id is unique). The set is GameSetOfEventLean's;
// the league games are LeagueGames's, void ones left out, in round order
// (issue 12: read on every computed league table).
// TestGameSetOfLeagueClass_SameAsSeparateReads checks both on both
// databases.
func (s *Store) GameSetOfLeagueClass(ctx context.Context, eventID, classID int64) (GameSet, []LeagueGame, error) {
	games, voids, lgs, err := s.leanGamesOfEvent(ctx, eventID, classID)
	if err != nil {
		return GameSet{}, nil, fmt.Errorf("games, void marks and league games of event %d: %w", eventID, err)
	}
	vs, err := s.leanVersionsOfEvent(ctx, eventID)
	if err != nil {
		return GameSet{}, nil, fmt.Errorf("results of event %d: %w", eventID, err)
	}
	slices.SortFunc(lgs, func(a, b LeagueGame) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return newGameSet(games, vs, voids), lgs, nil
}

// leanGamesOfEvent reads the games with their void marks (a left join, so
// the set costs one statement less than GameSetOfEvent's three) and, when
// classID is not 0, the class's league games that are not void (in no
// particular order).
func (s *Store) leanGamesOfEvent(ctx context.Context, eventID, classID int64) ([]Game, []int64, []LeagueGame, error) {
	const cols = "SELECT g.id, g.sente_player_id, g.gote_player_id, g.handicap, g.scheduled_on, g.sente_allowance_s, g.gote_allowance_s," +
		" g.redo_of_id, g.redo_number, g.started_at, v.game_id"
	q := s.DB(ctx).Raw(cols+" FROM games g LEFT JOIN game_voids v ON v.game_id = g.id WHERE g.event_id = ?", eventID)
	if classID != 0 {
		q = s.DB(ctx).Raw(cols+", lg.id, lg.round FROM games g LEFT JOIN game_voids v ON v.game_id = g.id"+
			" LEFT JOIN league_games lg ON lg.game_id = g.id AND lg.class_id = ? WHERE g.event_id = ?", classID, eventID)
	}
	rows, err := q.Rows()
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	out := make([]Game, 0, 64)
	var voids []int64
	var lgs []LeagueGame
	// Pointer fields point into blocks allocated a few at a time rather
	// than one allocation each.
	var ids []int64
	var texts []string
	// The scan targets live outside the loop: each escapes to the heap
	// (Scan takes pointers), and Scan sets every one of them on every row.
	var (
		sente, gote, redoOf, void, lgID, lgRound sql.NullInt64
		scheduled                                sql.NullString
		started                                  sql.NullTime
		g                                        Game
	)
	for rows.Next() {
		g = Game{EventID: eventID}
		if classID == 0 {
			err = rows.Scan(&g.ID, &sente, &gote, &g.Handicap, &scheduled, &g.SenteAllowanceS, &g.GoteAllowanceS, &redoOf, &g.RedoNumber, &started, &void)
		} else {
			err = rows.Scan(&g.ID, &sente, &gote, &g.Handicap, &scheduled, &g.SenteAllowanceS, &g.GoteAllowanceS, &redoOf, &g.RedoNumber, &started, &void, &lgID, &lgRound)
		}
		if err != nil {
			return nil, nil, nil, err
		}
		if void.Valid {
			voids = append(voids, g.ID)
		} else if lgID.Valid {
			lgs = append(lgs, LeagueGame{ID: lgID.Int64, ClassID: classID, Round: int(lgRound.Int64), GameID: g.ID})
		}
		if len(ids)+3 > cap(ids) {
			ids = make([]int64, 0, 3*256)
		}
		g.SentePlayerID, ids = blockID(sente, ids)
		g.GotePlayerID, ids = blockID(gote, ids)
		g.RedoOfID, ids = blockID(redoOf, ids)
		if scheduled.Valid {
			if len(texts) == cap(texts) {
				texts = make([]string, 0, 256)
			}
			texts = append(texts, scheduled.String)
			g.ScheduledOn = &texts[len(texts)-1]
		}
		if started.Valid {
			v := started.Time
			g.StartedAt = &v
		}
		out = append(out, g)
	}
	return out, voids, lgs, rows.Err()
}

// blockID is nullID with the value stored in block (which has room).
func blockID(n sql.NullInt64, block []int64) (*int64, []int64) {
	if !n.Valid {
		return nil, block
	}
	block = append(block, n.Int64)
	return &block[len(block)-1], block
}

func (s *Store) leanVersionsOfEvent(ctx context.Context, eventID int64) ([]ResultVersion, error) {
	rows, err := s.DB(ctx).Raw("SELECT r.id, r.game_id, r.version, r.result, r.reason, conf.confirmed_by FROM game_results r"+
		" JOIN games g ON g.id = r.game_id"+
		" LEFT JOIN game_result_confirmations conf ON conf.game_result_id = r.id"+
		" WHERE g.event_id = ? ORDER BY r.game_id, r.version", eventID).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ResultVersion, 0, 64)
	var ids []int64
	var (
		v  ResultVersion // outside the loop, as in leanGamesOfEvent
		by sql.NullInt64
	)
	for rows.Next() {
		v = ResultVersion{}
		if err := rows.Scan(&v.ID, &v.GameID, &v.Version, &v.Result, &v.Reason, &by); err != nil {
			return nil, err
		}
		if len(ids) == cap(ids) {
			ids = make([]int64, 0, 256)
		}
		v.ConfirmedBy, ids = blockID(by, ids)
		out = append(out, v)
	}
	return out, rows.Err()
}
