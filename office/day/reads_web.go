package day

import (
	"context"

	"kisen/store"
)

// EntrantRow is one entrant of a day with their player and check-in.
type EntrantRow = store.DayEntrantRow

// Round is one drawn round of a class.
type Round = store.DayRound

// ClassEventOf names the event a class belongs to, for a conditional
// request: the web's conditional then decides whether the actor may see
// that event before any validator is compared (docs/security.md B).
func (d *Day) ClassEventOf(ctx context.Context, classID int64) (int64, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	return c.EventID, err
}

// EntrantRowsOfEvent lists a day's entrants. The day pages call it after
// reading the event through office.Event (visible to the actor) and, for
// the desk, the director's role check.
func (d *Day) EntrantRowsOfEvent(ctx context.Context, eventID int64) ([]EntrantRow, error) {
	return d.store.DayEntrantsOfEvent(ctx, eventID)
}

// EntrantRowsOfClass lists one class's entrants, for a class the caller
// has read through Class or a director's preview.
func (d *Day) EntrantRowsOfClass(ctx context.Context, classID int64) ([]EntrantRow, error) {
	return d.store.DayEntrantsOfClass(ctx, classID)
}

// RoundsOfEvent lists the drawn rounds of a day, for its day page (the
// caller has checked the role).
func (d *Day) RoundsOfEvent(ctx context.Context, eventID int64) ([]Round, error) {
	return d.store.DayRoundsOfEvent(ctx, eventID)
}
