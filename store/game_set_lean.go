package store

import (
	"context"
	"database/sql"
	"fmt"
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
	games, voids, err := s.leanGamesOfEvent(ctx, eventID)
	if err != nil {
		return GameSet{}, fmt.Errorf("games and void marks of event %d: %w", eventID, err)
	}
	vs, err := s.leanVersionsOfEvent(ctx, eventID)
	if err != nil {
		return GameSet{}, fmt.Errorf("results of event %d: %w", eventID, err)
	}
	return newGameSet(games, vs, voids), nil
}

// leanGamesOfEvent reads the games with their void marks (a left join, so
// the set costs one statement less than GameSetOfEvent's three).
func (s *Store) leanGamesOfEvent(ctx context.Context, eventID int64) ([]Game, []int64, error) {
	rows, err := s.DB(ctx).Raw("SELECT g.id, g.sente_player_id, g.gote_player_id, g.handicap, g.scheduled_on, g.sente_allowance_s, g.gote_allowance_s,"+
		" g.redo_of_id, g.redo_number, g.started_at, v.game_id FROM games g LEFT JOIN game_voids v ON v.game_id = g.id WHERE g.event_id = ?", eventID).Rows()
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	out := make([]Game, 0, 64)
	var voids []int64
	// Pointer fields point into blocks allocated a few at a time rather
	// than one allocation each.
	var ids []int64
	var texts []string
	for rows.Next() {
		var (
			sente, gote, redoOf, void sql.NullInt64
			scheduled                 sql.NullString
			started                   sql.NullTime
		)
		g := Game{EventID: eventID}
		if err := rows.Scan(&g.ID, &sente, &gote, &g.Handicap, &scheduled, &g.SenteAllowanceS, &g.GoteAllowanceS, &redoOf, &g.RedoNumber, &started, &void); err != nil {
			return nil, nil, err
		}
		if void.Valid {
			voids = append(voids, g.ID)
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
	return out, voids, rows.Err()
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
	for rows.Next() {
		var (
			v  ResultVersion
			by sql.NullInt64
		)
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
