// Package day is the amateur tournament day (アマチュア大会, issue 14,
// docs/amateur-day.md): classes (クラス別) inside an event, reception
// (check-in, walk-ins, withdrawals), preliminary rounds drawn with
// pairing.DrawPools (N勝通過M敗失格) or pairing.DrawSwiss (スイス式), and
// results entered by board number. Each use case is one transaction over
// the store; results go through office's one result-entry path
// (office.EnterChainResultIn). It imports office and store; office never
// imports it.
package day

import (
	"context"
	"encoding/json"
	"time"

	"kisen/office"
	"kisen/store"
)

// Day runs the amateur day's use cases. It holds no per-request state.
type Day struct {
	o     *office.Office
	store *store.Store
	now   func() time.Time
}

// New returns the day's use cases over the office's store and clock.
func New(o *office.Office) *Day {
	return &Day{o: o, store: o.Store(), now: o.Now}
}

// Roles that run the desk (reception, classes, draws) and that may enter
// results from the boards.
var (
	deskRoles   = []string{office.RoleDirector}
	resultRoles = []string{office.RoleDirector, office.RoleArbiter, office.RoleRecorder}
)

// Desk log actions (store.DayLogEntry.Action); those the start page
// tells are named in office (office/start_day.go).
const (
	LogClass     = "class"               // a class created or its settings changed
	LogEnter     = "enter"               // an entrant entered (class by rank or by the director)
	LogOverride  = "override"            // the director moved an entrant to another class
	LogCheckin   = office.DayLogCheckin  // reception state changed
	LogWalkIn    = office.DayLogWalkIn   // a walk-in registered at the desk
	LogWithdraw  = office.DayLogWithdraw // an entrant left the day
	LogDraw      = office.DayLogDraw     // a round drawn and confirmed
	LogForfeited = "forfeited"           // a game recorded as forfeit by a withdrawal
	LogToss      = "toss"                // a 振り駒 observed at a board
	LogFee       = "fee"                 // the entry fee taken (or marked unpaid) at the desk
)

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// invalid returns a validation error with one field problem.
func invalid(field, code string, args map[string]any) error {
	v := &office.ValidationError{}
	v.Add(0, field, code, args)
	return v
}

// RequireClassRole answers, before a form is read, whether the actor may
// act on class classID at all (issue 21: permission before validation):
// as the desk (draws, the final) or, with results, as anyone who enters
// results. A class of a draft the actor may not see is not found.
func (d *Day) RequireClassRole(ctx context.Context, actor office.Actor, classID int64, results bool) error {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return err
	}
	roles := deskRoles
	if results {
		roles = resultRoles
	}
	return office.RequireEventRoleIn(ctx, d.store, actor, c.EventID, roles...)
}

// requireDay loads an event that is an amateur day and checks the actor
// holds one of roles in it, inside tx.
func requireDay(ctx context.Context, tx *store.Store, actor office.Actor, eventID int64, roles []string) (store.Event, error) {
	if err := office.RequireEventRoleIn(ctx, tx, actor, eventID, roles...); err != nil {
		return store.Event{}, err
	}
	e, err := tx.EventByID(ctx, eventID)
	if err != nil {
		return store.Event{}, err
	}
	ok, err := tx.IsDayEvent(ctx, eventID)
	if err != nil {
		return store.Event{}, err
	}
	if !ok {
		return store.Event{}, notDay(eventID)
	}
	return e, nil
}
