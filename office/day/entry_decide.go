package day

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/office"
	"kisen/store"
)

// The director's side of entries (docs/amateur-day-entries.md): the list
// with suggestions, and approve, merge, edit and refuse — each one
// transaction at the version the list showed.

// EntryRow is one entry on the director's list, with the registered
// players it may be (pending and waiting entries only).
type EntryRow struct {
	store.DayEntry
	Suggestions []Suggestion
	Place       int // place on the waiting list, 0 when not waiting
}

// EntriesOf lists a day's entries for its directors: pending first, then
// waiting in order, then the rest (three statements, however many).
func (d *Day) EntriesOf(ctx context.Context, actor office.Actor, eventID int64) ([]EntryRow, error) {
	if _, err := requireDay(ctx, d.store, actor, eventID, deskRoles); err != nil {
		return nil, err
	}
	return entriesIn(ctx, d.store, eventID)
}

// entriesIn is EntriesOf's list, read through st (the store or a
// transaction).
func entriesIn(ctx context.Context, st *store.Store, eventID int64) ([]EntryRow, error) {
	es, err := st.DayEntriesOfEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	players, err := st.AllPlayers(ctx)
	if err != nil {
		return nil, err
	}
	m := newMatcher(players)
	place := map[int64]int{}
	out := make([]EntryRow, len(es))
	for i, e := range es {
		out[i] = EntryRow{DayEntry: e}
		switch e.Status {
		case store.EntryWaiting:
			place[e.ClassID]++
			out[i].Place = place[e.ClassID]
			out[i].Suggestions = m.suggest(e.Name, e.Reading)
		case store.EntryPending:
			out[i].Suggestions = m.suggest(e.Name, e.Reading)
		}
	}
	return out, nil
}

// EntryDecision is the director's decision on one entry, at the version
// the list showed.
type EntryDecision struct {
	EventID int64
	EntryID int64
	Version int
	// PlayerID (approve only): the registered player the entry is merged
	// with; 0 registers a new player from the entry.
	PlayerID int64
	// Reason (refuse only), shown to the entrant on their link.
	Reason string `field:"reason" validate:"storable,required,max=2000" msg:"events.err,required:day_entry.err.reason"`
}

// decideIn loads an entry of the event for a decision, checks the actor
// and the version, and that the entry is still undecided.
func decideIn(ctx context.Context, tx *store.Store, actor office.Actor, in EntryDecision) (store.DayEntry, error) {
	if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
		return store.DayEntry{}, err
	}
	if err := tx.LockDayEvent(ctx, in.EventID); err != nil {
		return store.DayEntry{}, err
	}
	e, err := tx.DayEntryByID(ctx, in.EntryID)
	if err != nil {
		return store.DayEntry{}, err
	}
	if e.EventID != in.EventID {
		return store.DayEntry{}, fmt.Errorf("entry %d of another day: %w", e.ID, office.ErrNotFound)
	}
	if e.Version != in.Version {
		return store.DayEntry{}, fmt.Errorf("entry %d changed since version %d: %w", e.ID, in.Version, office.ErrConflict)
	}
	if e.Status != store.EntryPending && e.Status != store.EntryWaiting {
		return store.DayEntry{}, fmt.Errorf("entry %d is %s: %w", e.ID, e.Status, office.ErrConflict)
	}
	return e, nil
}

// ApproveEntry registers the entrant (or merges the entry with the
// registered player named) and enters them in the entry's class, as the
// desk's Enter does — one transaction. Approving a waiting entry is the
// director's choice to go over the cap.
func (d *Day) ApproveEntry(ctx context.Context, actor office.Actor, in EntryDecision) (store.DayEntry, error) {
	var out store.DayEntry
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := decideIn(ctx, tx, actor, in)
		if err != nil {
			return err
		}
		out, err = approveIn(ctx, tx, actor, e, in.PlayerID, d.now())
		return err
	})
	return out, err
}

// approveIn approves one undecided entry inside a transaction: the
// registered player playerID (a merge) or a new player from the entry,
// entered in the entry's class, the entry marked and the desk log told.
func approveIn(ctx context.Context, tx *store.Store, actor office.Actor, e store.DayEntry, playerID int64, now time.Time) (store.DayEntry, error) {
	var p store.Player
	var err error
	if playerID != 0 {
		if p, err = tx.PlayerByID(ctx, playerID); errors.Is(err, store.ErrNotFound) {
			return e, invalid("player", "day.err.player_unknown", nil)
		} else if err != nil {
			return e, err
		}
	} else {
		p, err = office.NewPlayerIn(ctx, tx, office.PlayerInput{Name: e.Name, Reading: e.Reading, Kind: string(store.PlayerAmateur), Rank: e.Rank, Affiliation: e.Club}, now)
		if err != nil {
			return e, err
		}
	}
	if _, err := enterIn(ctx, tx, actor, EntryInput{EventID: e.EventID, PlayerID: p.ID, Rank: e.Rank, ClassID: e.ClassID}, false, now); err != nil {
		return e, err
	}
	e.Status, e.PlayerID, e.DecidedBy, e.DecidedAt, e.UpdatedAt = store.EntryApproved, &p.ID, &actor.UserID, &now, now
	if err := tx.UpdateDayEntry(ctx, &e); err != nil {
		return e, err
	}
	detail := map[string]any{"entry": e.ID, "merged": playerID != 0}
	return e, tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: e.EventID, ClassID: &e.ClassID, PlayerID: &p.ID, Action: LogEntryApproved,
		Detail: mustJSON(detail), ActorID: actor.UserID, At: now})
}

// RefuseEntry refuses an entry with a reason the entrant sees on their
// link; the place it held goes to the first waiting entry.
func (d *Day) RefuseEntry(ctx context.Context, actor office.Actor, in EntryDecision) error {
	in.Reason = strings.TrimSpace(in.Reason)
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := decideIn(ctx, tx, actor, in)
		if err != nil {
			return err
		}
		ve := &office.ValidationError{}
		office.CheckInput(ve, 0, &in)
		if err := ve.OrNil(); err != nil {
			return err
		}
		now := d.now()
		e.Status, e.Reason, e.DecidedBy, e.DecidedAt, e.UpdatedAt = store.EntryRefused, in.Reason, &actor.UserID, &now, now
		if err := tx.UpdateDayEntry(ctx, &e); err != nil {
			return err
		}
		if err := tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: e.EventID, ClassID: &e.ClassID, Action: LogEntryRefused,
			Detail: mustJSON(map[string]any{"entry": e.ID}), ActorID: actor.UserID, At: now}); err != nil {
			return err
		}
		set, err := entrySettingsIn(ctx, tx, e.EventID)
		if err != nil {
			return err
		}
		return promoteIn(ctx, tx, e.ClassID, set.Caps[e.ClassID], now)
	})
}

// EditEntry rewrites an undecided entry's fields (directors), checked as
// the form checks them except that the director may put it in any class.
func (d *Day) EditEntry(ctx context.Context, actor office.Actor, in EntryDecision, form EntryFormInput) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := decideIn(ctx, tx, actor, in)
		if err != nil {
			return err
		}
		classes, err := classesIn(ctx, tx, e.EventID)
		if err != nil {
			return err
		}
		form.EventID = e.EventID
		ve := &office.ValidationError{}
		got := checkEntry(ve, &form, classes, true)
		if err := ve.OrNil(); err != nil {
			return err
		}
		if err := notTwiceIn(ctx, tx, got, e.ID); err != nil {
			return err
		}
		e.Name, e.Reading, e.Rank, e.Club, e.Contact, e.ClassID = got.Name, got.Reading, got.Rank, got.Club, got.Contact, got.ClassID
		e.UpdatedAt = d.now()
		return tx.UpdateDayEntry(ctx, &e)
	})
}
