package day

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"kisen/office"
	"kisen/store"
)

// The reception desk's writes on one entrant's row (issue 23 §2,
// docs/amateur-day-desk.md): each is one transaction carrying the version
// of the row the desk saw; a row changed since is stale (office.ErrConflict,
// 409), and the desk shows the row as it is now.

// Unchecked is the version a write passes when it saw none (the command
// line, seeds): the row's version is not compared.
const Unchecked = -1

// DeskWrite names the entrant a desk write is about and the version of
// their row the desk saw (Unchecked: not compared).
type DeskWrite struct {
	EventID  int64
	PlayerID int64
	Version  int
}

// seenWrite is a DeskWrite from an optional version.
func seenWrite(eventID, playerID int64, seen *int) DeskWrite {
	w := DeskWrite{EventID: eventID, PlayerID: playerID, Version: Unchecked}
	if seen != nil {
		w.Version = *seen
	}
	return w
}

// ErrNothingToUndo: the actor wrote no check-in or fee record about the
// entrant that an undo may revert.
var errNothingToUndo = invalid("undo", "day_desk.err.nothing_to_undo", nil)

// deskEntrantIn loads the entrant inside tx (directors) and compares the
// version seen.
func deskEntrantIn(ctx context.Context, tx *store.Store, actor office.Actor, w DeskWrite) (store.DayEntrant, error) {
	if _, err := requireDay(ctx, tx, actor, w.EventID, deskRoles); err != nil {
		return store.DayEntrant{}, err
	}
	e, err := tx.LockDayEntrant(ctx, w.EventID, w.PlayerID)
	if errors.Is(err, store.ErrNotFound) {
		return e, fmt.Errorf("entrant %d of event %d: %w", w.PlayerID, w.EventID, office.ErrNotFound)
	}
	if err != nil {
		return e, err
	}
	if w.Version != Unchecked && w.Version != e.Version {
		return e, fmt.Errorf("entrant %d of event %d is at version %d, the desk saw %d: %w", w.PlayerID, w.EventID, e.Version, w.Version, office.ErrConflict)
	}
	return e, nil
}

// appendDeskFee writes a fee record and raises the entrant's version.
func appendDeskFee(ctx context.Context, tx *store.Store, actor office.Actor, e store.DayEntrant, f feeEntry, now time.Time) error {
	if err := appendFee(ctx, tx, actor, e, f, now); err != nil {
		return err
	}
	return tx.TouchDayEntrant(ctx, e.ID, now)
}

// undoable are the records an undo reverts.
var undoable = []string{LogCheckin, LogFee}

// Undo reverts the actor's last check-in or fee record about an entrant
// (directors), on the version of the row the desk saw: a new desk-log
// record restores the state before it (the log is append-only; nothing is
// deleted). A record that is itself an undo is not undone again
// (422 on "undo"); a row changed since is stale (office.ErrConflict).
func (d *Day) Undo(ctx context.Context, actor office.Actor, w DeskWrite) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := deskEntrantIn(ctx, tx, actor, w)
		if err != nil {
			return err
		}
		last, err := tx.LastDayLogOfPlayer(ctx, w.EventID, w.PlayerID, actor.UserID, undoable)
		if errors.Is(err, store.ErrNotFound) {
			return errNothingToUndo
		} else if err != nil {
			return err
		}
		now := d.now()
		switch last.Action {
		case LogCheckin:
			var c struct {
				From string `json:"from"`
				Undo int64  `json:"undo"`
			}
			if err := json.Unmarshal([]byte(last.Detail), &c); err != nil || c.From == "" {
				return fmt.Errorf("day log %d: bad check-in record", last.ID)
			}
			if c.Undo != 0 {
				return errNothingToUndo
			}
			return setCheckin(ctx, tx, actor, e, c.From, last.ID, now)
		default:
			var f feeEntry
			if err := json.Unmarshal([]byte(last.Detail), &f); err != nil {
				return fmt.Errorf("day log %d: bad fee record", last.ID)
			}
			if f.Undo != 0 {
				return errNothingToUndo
			}
			before, err := feeBefore(ctx, tx, e, last.ID)
			if err != nil {
				return err
			}
			r := feeEntry{Status: before.Status, Amount: before.Amount, Category: before.Category, Undo: last.ID}
			if r.Status == "" {
				r.Status = feeNone
			}
			if r.Category == "" {
				r.Category = FeeCategoryFull
			}
			return appendDeskFee(ctx, tx, actor, e, r, now)
		}
	})
}

// feeBefore is an entrant's fee as it stood before record id (one
// statement: the day's fee records).
func feeBefore(ctx context.Context, tx *store.Store, e store.DayEntrant, id int64) (Fee, error) {
	log, err := tx.DayLogOfEventAction(ctx, e.EventID, LogFee)
	if err != nil {
		return Fee{}, err
	}
	var cur Fee
	for _, r := range log {
		if r.ID >= id || r.PlayerID == nil || *r.PlayerID != e.PlayerID {
			continue
		}
		var f feeEntry
		if err := json.Unmarshal([]byte(r.Detail), &f); err != nil {
			return Fee{}, fmt.Errorf("day log %d: bad fee record", r.ID)
		}
		switch f.Status {
		case "":
		case feeNone:
			cur.Status, cur.Amount = "", 0
		default:
			cur.Status, cur.Amount = f.Status, f.Amount
		}
		if f.Category != "" {
			cur.Category = f.Category
		}
	}
	return cur, nil
}
