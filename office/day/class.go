package day

import (
	"context"
	"errors"
	"fmt"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// CreateDay creates an amateur day: an event of kind knockout (its final
// knockouts are the event's stages) marked as a day, in one transaction
// (administrators, as any event).
func (d *Day) CreateDay(ctx context.Context, actor office.Actor, in office.EventInput) (store.Event, error) {
	in.Kind = office.EventKnockout
	return d.o.CreateEventThen(ctx, actor, in, func(tx *store.Store, e store.Event) error {
		return tx.CreateDayEvent(ctx, e.ID, d.now())
	})
}

// IsDay reports whether an event is an amateur day.
func (d *Day) IsDay(ctx context.Context, eventID int64) (bool, error) {
	return d.store.IsDayEvent(ctx, eventID)
}

// Class is a class with its settings read.
type Class struct {
	store.DayClass
	Settings ClassSettings
}

func classOf(c store.DayClass) Class { return Class{DayClass: c, Settings: ParseSettings(c.Settings)} }

// Classes lists a day's classes in order (anyone who may see the event).
func (d *Day) Classes(ctx context.Context, actor office.Actor, eventID int64) ([]Class, error) {
	if _, err := d.o.Event(ctx, actor, eventID); err != nil {
		return nil, err
	}
	cs, err := d.store.DayClassesOfEvent(ctx, eventID)
	if err != nil {
		return nil, err
	}
	out := make([]Class, len(cs))
	for i, c := range cs {
		out[i] = classOf(c)
	}
	return out, nil
}

// Class loads one class of a day the actor may see.
func (d *Day) Class(ctx context.Context, actor office.Actor, classID int64) (Class, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return Class{}, err
	}
	if _, err := d.o.Event(ctx, actor, c.EventID); err != nil {
		return Class{}, err
	}
	return classOf(c), nil
}

// CreateClass adds a class to a day (directors). A name taken in the day is
// a field error.
func (d *Day) CreateClass(ctx context.Context, actor office.Actor, in ClassInput) (Class, error) {
	name, nameEn, pos, format, s, v := in.check()
	var out store.DayClass
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
			return err
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		now := d.now()
		out = store.DayClass{EventID: in.EventID, Name: name, NameEn: nameEn, Position: pos, Format: format, Settings: mustJSON(s), CreatedAt: now, UpdatedAt: now}
		if err := tx.CreateDayClass(ctx, &out); errors.Is(err, store.ErrConflict) {
			return invalid("name", "day.err.class_name_taken", nil)
		} else if err != nil {
			return err
		}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: in.EventID, ClassID: &out.ID, Action: LogClass, Detail: out.Settings, ActorID: actor.UserID, At: now})
	})
	if err != nil {
		return Class{}, err
	}
	return classOf(out), nil
}

// UpdateClass rewrites a class's name and settings (directors). Once a
// round is drawn, the format and what the draws depend on (N, M, the pools
// mode, fewer Swiss rounds than drawn) can no longer change: a field error.
func (d *Day) UpdateClass(ctx context.Context, actor office.Actor, classID int64, in ClassInput) (Class, error) {
	name, nameEn, pos, format, s, v := in.check()
	var out store.DayClass
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		old, err := tx.DayClassByID(ctx, classID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, old.EventID, deskRoles); err != nil {
			return err
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		rounds, err := tx.DayRoundsOfClass(ctx, classID)
		if err != nil {
			return err
		}
		if len(rounds) > 0 {
			was := ParseSettings(old.Settings)
			switch {
			case format != old.Format:
				return invalid("format", "day.err.locked", nil)
			case format == FormatPools && (s.Wins != was.Wins || s.Losses != was.Losses || s.PoolMode != was.PoolMode):
				return invalid("wins", "day.err.locked", nil)
			case format == FormatSwiss && s.Rounds < len(rounds):
				return invalid("rounds", "day.err.rounds_drawn", map[string]any{"N": len(rounds)})
			}
		}
		now := d.now()
		out = old
		out.Name, out.NameEn, out.Position, out.Format, out.Settings, out.UpdatedAt = name, nameEn, pos, format, mustJSON(s), now
		if err := tx.UpdateDayClass(ctx, out); errors.Is(err, store.ErrConflict) {
			return invalid("name", "day.err.class_name_taken", nil)
		} else if err != nil {
			return err
		}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: old.EventID, ClassID: &out.ID, Action: LogClass, Detail: out.Settings, ActorID: actor.UserID, At: now})
	})
	if err != nil {
		return Class{}, err
	}
	return classOf(out), nil
}

// ClassForRank is the first class (by position) whose rank range takes
// the declared rank; ok is false when none does or the rank cannot be
// read (the director chooses).
func ClassForRank(classes []Class, rank string) (Class, bool) {
	r, err := pairing.ParseRank(rank)
	if err != nil {
		return Class{}, false
	}
	for _, c := range classes {
		if c.Settings.Takes(r) {
			return c, true
		}
	}
	return Class{}, false
}

func classesIn(ctx context.Context, tx *store.Store, eventID int64) ([]Class, error) {
	cs, err := tx.DayClassesOfEvent(ctx, eventID)
	if err != nil {
		return nil, fmt.Errorf("classes of day %d: %w", eventID, err)
	}
	out := make([]Class, len(cs))
	for i, c := range cs {
		out[i] = classOf(c)
	}
	return out, nil
}
