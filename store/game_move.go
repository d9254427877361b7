package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// GameMove is one move entered live by the recorder (migration 00280,
// append-only). Attempt is 0 the first time Ply is entered and one more
// after each undo of it; (GameID, Ply, Attempt) is unique, so two devices
// entering the same ply of the same record cannot both land.
type GameMove struct {
	ID             int64  `gorm:"primaryKey"`
	GameID         int64  `gorm:"not null"`
	Ply            int    `gorm:"not null"`
	Attempt        int    `gorm:"not null;default:0"`
	USI            string `gorm:"column:usi;not null"`
	ElapsedSeconds int    `gorm:"not null"`
	Comment        string `gorm:"not null;default:''"`
	EnteredBy      int64  `gorm:"not null"`
	EnteredVia     string `gorm:"not null;default:''"`
	EnteredAt      time.Time
}

// GameMoveUndo takes back one live move (00280, append-only): the move
// stays, superseded, with the reason.
type GameMoveUndo struct {
	ID        int64  `gorm:"primaryKey"`
	MoveID    int64  `gorm:"not null"`
	GameID    int64  `gorm:"not null"`
	Reason    string `gorm:"not null"`
	EnteredBy int64  `gorm:"not null"`
	EnteredAt time.Time
}

// GameMoveRow is a live move with whether it was taken back.
type GameMoveRow struct {
	GameMove
	Undone bool
	// UndoneAt is when it was undone (zero when not).
	UndoneAt time.Time
}

// GameMovesOfEvent is GameMoves for every game of an event, by game (one
// statement).
func (s *Store) GameMovesOfEvent(ctx context.Context, eventID int64) (map[int64][]GameMoveRow, error) {
	rows, err := s.DB(ctx).Raw(`SELECT m.id, m.game_id, m.ply, m.attempt, m.usi, m.elapsed_seconds, m.comment, m.entered_by,
		m.entered_via, m.entered_at, u.id IS NOT NULL, u.entered_at
		FROM game_moves m JOIN games g ON g.id = m.game_id LEFT JOIN game_move_undos u ON u.move_id = m.id
		WHERE g.event_id = ? ORDER BY m.id`, eventID).Rows()
	if err != nil {
		return nil, fmt.Errorf("event %d live moves: %w", eventID, err)
	}
	defer rows.Close()
	out := map[int64][]GameMoveRow{}
	for rows.Next() {
		var r GameMoveRow
		var undoneAt sql.NullTime
		if err := rows.Scan(&r.ID, &r.GameID, &r.Ply, &r.Attempt, &r.USI, &r.ElapsedSeconds, &r.Comment, &r.EnteredBy,
			&r.EnteredVia, &r.EnteredAt, &r.Undone, &undoneAt); err != nil {
			return nil, fmt.Errorf("event %d live moves: %w", eventID, err)
		}
		r.UndoneAt = undoneAt.Time
		out[r.GameID] = append(out[r.GameID], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("event %d live moves: %w", eventID, err)
	}
	return out, nil
}

// GameMoves lists every live move of a game as entered, oldest first,
// each saying whether it was undone (one statement). The rows are scanned
// by hand: a recorder's every move reads them all, and gorm's reflective
// scan was two thirds of a move's time at ply 300.
func (s *Store) GameMoves(ctx context.Context, gameID int64) ([]GameMoveRow, error) {
	rows, err := s.DB(ctx).Raw(`SELECT m.id, m.ply, m.attempt, m.usi, m.elapsed_seconds, m.comment, m.entered_by,
		m.entered_via, m.entered_at, u.id IS NOT NULL, u.entered_at
		FROM game_moves m LEFT JOIN game_move_undos u ON u.move_id = m.id
		WHERE m.game_id = ? ORDER BY m.id`, gameID).Rows()
	if err != nil {
		return nil, fmt.Errorf("game %d moves: %w", gameID, err)
	}
	defer rows.Close()
	var out []GameMoveRow
	for rows.Next() {
		r := GameMoveRow{GameMove: GameMove{GameID: gameID}}
		var undoneAt sql.NullTime
		if err := rows.Scan(&r.ID, &r.Ply, &r.Attempt, &r.USI, &r.ElapsedSeconds, &r.Comment, &r.EnteredBy,
			&r.EnteredVia, &r.EnteredAt, &r.Undone, &undoneAt); err != nil {
			return nil, fmt.Errorf("game %d moves: %w", gameID, err)
		}
		r.UndoneAt = undoneAt.Time
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("game %d moves: %w", gameID, err)
	}
	return out, nil
}

// AppendGameMove stores one live move; a second move for the same ply
// and attempt is ErrConflict.
func (s *Store) AppendGameMove(ctx context.Context, m *GameMove) error {
	m.EnteredAt = m.EnteredAt.UTC()
	return notFound(s.DB(ctx).Create(m).Error, "append game move")
}

// AppendGameMoveUndo takes a live move back; a move is undone once.
func (s *Store) AppendGameMoveUndo(ctx context.Context, u *GameMoveUndo) error {
	u.EnteredAt = u.EnteredAt.UTC()
	return notFound(s.DB(ctx).Create(u).Error, "append game move undo")
}

// RecorderLink is a game's recorder secret link (00280): only the hash of
// the token is kept. A revoked link has RevokedAt set.
type RecorderLink struct {
	ID        int64  `gorm:"primaryKey"`
	GameID    int64  `gorm:"not null"`
	TokenHash string `gorm:"not null"`
	IssuedBy  int64  `gorm:"not null"`
	IssuedAt  time.Time
	RevokedBy *int64
	RevokedAt *time.Time
}

// RevokeRecorderLinks revokes every open recorder link of a game.
func (s *Store) RevokeRecorderLinks(ctx context.Context, gameID, by int64, at time.Time) error {
	at = at.UTC()
	err := s.DB(ctx).Model(&RecorderLink{}).Where("game_id = ? AND revoked_at IS NULL", gameID).
		Updates(map[string]any{"revoked_by": by, "revoked_at": at}).Error
	return notFound(err, fmt.Sprintf("revoke recorder links of game %d", gameID))
}

// AddRecorderLink stores a new recorder link.
func (s *Store) AddRecorderLink(ctx context.Context, l *RecorderLink) error {
	l.IssuedAt = l.IssuedAt.UTC()
	return notFound(s.DB(ctx).Create(l).Error, "add recorder link")
}

// OpenRecorderLink is the open (not revoked) recorder link of a game
// with this token hash; ErrNotFound when there is none.
func (s *Store) OpenRecorderLink(ctx context.Context, gameID int64, hash string) (RecorderLink, error) {
	var l RecorderLink
	err := s.DB(ctx).Where("game_id = ? AND token_hash = ? AND revoked_at IS NULL", gameID, hash).Take(&l).Error
	return l, notFound(err, fmt.Sprintf("recorder link of game %d", gameID))
}

// RecorderLinkOpen reports whether a game has an open recorder link and
// when it was issued.
func (s *Store) RecorderLinkOpen(ctx context.Context, gameID int64) (RecorderLink, bool, error) {
	var ls []RecorderLink
	err := s.DB(ctx).Where("game_id = ? AND revoked_at IS NULL", gameID).Order("id DESC").Limit(1).Find(&ls).Error
	if err != nil || len(ls) == 0 {
		return RecorderLink{}, false, err
	}
	return ls[0], true, nil
}

// OpenRecorderLinkByHash is the open (not revoked) recorder link with
// this token hash, whatever its game; ErrNotFound when there is none.
func (s *Store) OpenRecorderLinkByHash(ctx context.Context, hash string) (RecorderLink, error) {
	var l RecorderLink
	err := s.DB(ctx).Where("token_hash = ? AND revoked_at IS NULL", hash).Take(&l).Error
	return l, notFound(err, "recorder link")
}
