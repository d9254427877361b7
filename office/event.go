package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/store"
)

// Event kinds.
const (
	EventKnockout    = "knockout"     // トーナメント
	EventLeague      = "league"       // リーグ
	EventJunisenTerm = "junisen_term" // 順位戦 (one term)
	EventTitleMatch  = "title_match"  // 番勝負
)

// EventKinds lists the kinds in display order.
var EventKinds = []string{EventKnockout, EventLeague, EventJunisenTerm, EventTitleMatch}

// Event statuses: draft → published → finished; an administrator may
// reopen finished → published. Every change is recorded.
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
	StatusFinished  = "finished"
)

// PublicStatuses are the statuses the public may see.
var PublicStatuses = []string{StatusPublished, StatusFinished}

// DateLayout is how event dates are written and stored.
const DateLayout = "2006-01-02"

// EventInput is the event form. Fields are in the order their errors are
// listed.
type EventInput struct {
	OrganiserID int64  `field:"organiser_id" validate:"gt=0" msg:"events.err"`
	Name        string `field:"name" validate:"storable,required,max=200" msg:"events.err"`
	NameEn      string `field:"name_en" validate:"storable,max=200" msg:"events.err"`
	Venue       string `field:"venue" validate:"storable,max=200" msg:"events.err"`
	Kind        string `field:"kind" validate:"enum=event_kind" msg:"events.err"`
	StartDate   string `field:"start_date" validate:"required,date" msg:"events.err"` // YYYY-MM-DD
	EndDate     string `field:"end_date" validate:"required,date" msg:"events.err"`   // YYYY-MM-DD
}

func (in *EventInput) check() *ValidationError {
	in.Name, in.NameEn, in.Venue = strings.TrimSpace(in.Name), strings.TrimSpace(in.NameEn), strings.TrimSpace(in.Venue)
	in.StartDate, in.EndDate = strings.TrimSpace(in.StartDate), strings.TrimSpace(in.EndDate)
	v := &ValidationError{}
	checkInput(v, 0, in)
	if v.FieldMessage("start_date") == "" && v.FieldMessage("end_date") == "" {
		// domain rule, not a tag: an event ends on or after the day it starts.
		start, _ := time.Parse(DateLayout, in.StartDate)
		end, _ := time.Parse(DateLayout, in.EndDate)
		if end.Before(start) {
			v.Add(0, "end_date", "events.err.end_before_start", nil)
		}
	}
	return v
}

func checkDate(v *ValidationError, field, s string) (time.Time, bool) {
	if s == "" {
		v.Add(0, field, "events.err.required", nil)
		return time.Time{}, false
	}
	d, err := time.Parse(DateLayout, s)
	if err != nil {
		v.Add(0, field, "events.err.date", nil)
		return time.Time{}, false
	}
	return d, true
}

// CreateEvent adds a draft event (administrators only). The event copies
// the organiser's settings now, complete (every adjudication setting
// written out over the federation defaults and validated), so later
// changes to the organiser or the defaults never rewrite it.
func (o *Office) CreateEvent(ctx context.Context, actor Actor, in EventInput) (store.Event, error) {
	return o.CreateEventThen(ctx, actor, in, nil)
}

// CreateEventThen is CreateEvent with then run in the same transaction
// after the event row is written (a room marks the event as its own, e.g.
// an amateur day); an error from then writes nothing.
func (o *Office) CreateEventThen(ctx context.Context, actor Actor, in EventInput, then func(tx *store.Store, e store.Event) error) (store.Event, error) {
	if err := actor.RequireAdmin(); err != nil {
		return store.Event{}, err
	}
	v := in.check()
	now := o.now()
	e := store.Event{
		OrganiserID: in.OrganiserID, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind,
		StartDate: in.StartDate, EndDate: in.EndDate, Venue: in.Venue, Status: StatusDraft,
		CreatedBy: actor.UserID, CreatedAt: now, UpdatedAt: now,
	}
	err := o.store.Tx(ctx, func(tx *store.Store) error {
		if v.FieldMessage("organiser_id") == "" {
			org, err := tx.OrganiserByID(ctx, in.OrganiserID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				v.Add(0, "organiser_id", "events.err.choose", nil)
			case err != nil:
				return err
			}
			if err == nil {
				// Item 1 of issue 4: the full, validated settings, not the
				// organiser's string, so "{}" never means "whatever the
				// defaults are later".
				full, serr := completeSettings(org.Settings)
				if serr != nil {
					v.Add(0, "organiser_id", "adjudication.err.organiser_settings", nil)
				}
				e.Settings = full
			}
		}
		if err := v.OrNil(); err != nil {
			return err
		}
		if err := tx.CreateEvent(ctx, &e); err != nil || then == nil {
			return err
		}
		return then(tx, e)
	})
	if err != nil {
		return store.Event{}, err
	}
	return e, nil
}

// Events lists the events the actor may see: the public sees published
// and finished ones; users also the drafts where they hold any role;
// administrators all (visibility.go).
func (o *Office) Events(ctx context.Context, actor Actor) ([]store.Event, error) {
	f := store.EventFilter{Statuses: PublicStatuses}
	switch {
	case actor.Token != nil: // a token reads what the public reads (the API adds a read_drafts token's own event)
	case actor.Admin && !actor.Anonymous():
		f.Statuses = nil
	case !actor.Anonymous():
		f.AlsoStaffedBy = actor.UserID
	}
	return o.store.Events(ctx, f)
}

// Event loads one event the actor may see; a draft is ErrNotFound to
// anyone but administrators and its role holders (its existence is not
// public either).
func (o *Office) Event(ctx context.Context, actor Actor, id int64) (store.Event, error) {
	return mayViewEventID(ctx, o.store, actor, id)
}

// NextStatuses lists the statuses the actor may move the event to now.
func (o *Office) NextStatuses(ctx context.Context, actor Actor, e store.Event) ([]string, error) {
	if err := o.RequireEventRole(ctx, actor, e.ID, RoleDirector); err != nil {
		if errors.Is(err, ErrForbidden) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, to := range []string{StatusPublished, StatusFinished} {
		if transitionAllowed(e.Status, to, actor.Admin) {
			out = append(out, to)
		}
	}
	return out, nil
}

// transitionAllowed: only forward, one step; reopening finished →
// published is for administrators.
func transitionAllowed(from, to string, admin bool) bool {
	switch {
	case from == StatusDraft && to == StatusPublished:
		return true
	case from == StatusPublished && to == StatusFinished:
		return true
	case from == StatusFinished && to == StatusPublished:
		return admin
	}
	return false
}

// SetEventStatus moves an event to status to (directors and
// administrators) and records who did it.
func (o *Office) SetEventStatus(ctx context.Context, actor Actor, eventID int64, to string) error {
	return o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		if err := requireEventRole(ctx, tx, actor, eventID, RoleDirector); err != nil {
			return err
		}
		if e.Status == StatusFinished && to == StatusPublished && !actor.Admin {
			return fmt.Errorf("reopen event %d: administrator required: %w", eventID, ErrForbidden)
		}
		if !transitionAllowed(e.Status, to, actor.Admin) {
			v := &ValidationError{}
			v.Add(0, "status", "events.err.transition", map[string]any{"From": e.Status, "To": to})
			return v
		}
		return tx.SetEventStatus(ctx, eventID, e.Status, to, actor.UserID, o.now())
	})
}

// EventStatusChanges lists an event's status history (for those who may
// see the event).
func (o *Office) EventStatusChanges(ctx context.Context, actor Actor, eventID int64) ([]store.EventStatusChange, error) {
	if _, err := o.Event(ctx, actor, eventID); err != nil {
		return nil, err
	}
	return o.store.EventStatusChanges(ctx, eventID)
}
