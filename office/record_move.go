package office

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"kisen/rules"
	"kisen/store"
)

// RecordStaleError: a move was appended to a record that has changed
// since the client read it (another move, or a whole record, came first).
// web answers 409 with the record as it stands.
type RecordStaleError struct {
	GameID     int64
	Seen, Have int // plies
}

func (e *RecordStaleError) Error() string {
	return fmt.Sprintf("game %d: the record had %d moves when read, has %d now", e.GameID, e.Seen, e.Have)
}

// Unwrap lets errors.Is(err, ErrConflict) hold.
func (e *RecordStaleError) Unwrap() error { return ErrConflict }

// AppendMove adds one move (USI) to a game's newest record as a new record
// version, for a relay that sends moves as they are played (issue 15).
// seen is the number of moves the sender knew of; the game row is locked,
// so of two appends after the same move one wins and the other is told
// (*RecordStaleError). The new version is written in USI (start and
// moves): the move times and comments of an earlier KIF are not carried,
// they stay in that version. Same roles and checks as SaveRecord.
func (o *Office) AppendMove(ctx context.Context, actor Actor, gameID int64, seen int, move string) (store.GameRecord, RecordReading, error) {
	g, s, err := o.gameForRecording(ctx, actor, gameID)
	if err != nil {
		return store.GameRecord{}, RecordReading{}, err
	}
	move = strings.TrimSpace(move)
	if move == "" || strings.ContainsAny(move, " \t\r\n") || len(move) > 8 {
		v := &ValidationError{}
		v.Add(0, "move", "api.err.move", nil)
		return store.GameRecord{}, RecordReading{}, v
	}
	var rec store.GameRecord
	var r RecordReading
	err = o.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := tx.LockGame(ctx, g.ID); err != nil {
			return err
		}
		last, has, err := tx.LatestGameRecord(ctx, g.ID)
		if err != nil {
			return err
		}
		have := 0
		if has {
			have = last.Plies
		}
		if have != seen {
			return &RecordStaleError{GameID: g.ID, Seen: seen, Have: have}
		}
		text := "position startpos moves"
		if has {
			text = "position sfen " + last.StartSFEN + " moves"
			if last.Moves != "" {
				text += " " + last.Moves
			}
		} else if start, ok := handicapStartSFEN(g.Handicap); ok {
			text = "position sfen " + start + " moves"
		}
		text += " " + move
		var v *ValidationError
		if r, v = readRecord(RecordInput{Text: text, Format: "usi"}, g.Handicap, s); v.OrNil() != nil {
			for i := range v.Fields {
				v.Fields[i].Field = "move" // the only thing the sender wrote
			}
			return v
		}
		if fl := r.Findings.Foul; fl != nil && fl.Ply == len(r.Moves) {
			v = &ValidationError{}
			v.Add(0, "move", "adjudication.err.record_foul", map[string]any{"Ply": fl.Ply, "Move": r.FoulMove})
			return v
		}
		findings, err := json.Marshal(r.Findings)
		if err != nil {
			return err
		}
		rec = store.GameRecord{GameID: g.ID, Format: r.Format, Text: text, StartSFEN: r.StartSFEN,
			Moves: strings.Join(r.Moves, " "), Plies: len(r.Moves), HasFoul: r.Findings.Foul != nil,
			Findings: string(findings), EnteredBy: actor.UserID, EnteredAt: o.now(), EnteredVia: actor.enteredVia()}
		if err := tx.AppendGameRecord(ctx, &rec); err != nil {
			return err
		}
		return logTokenUse(ctx, tx, actor, "move", g.ID, rec.EnteredAt)
	})
	return rec, r, err
}

// handicapStartSFEN is the start of a game of handicap h (平手 included).
func handicapStartSFEN(name string) (string, bool) {
	h, ok := rules.HandicapByName(name)
	if !ok {
		return "", false
	}
	return h.StartSFEN(), true
}
