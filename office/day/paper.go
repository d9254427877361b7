package day

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Paper a desk hands out (issue 14 part 6, docs/amateur-day-paper.md):
// the readings the print pages need beyond a ClassView.

// Blocks are the blocks of a blocks-mode pools class as drawn in round 1
// (none before round 1, or in records mode).
func (v ClassView) Blocks() ([]pairing.PoolBlock, error) {
	if len(v.Rounds) == 0 {
		return nil, nil
	}
	var out []pairing.PoolBlock
	if err := jsonInto(v.Rounds[0].Blocks, &out); err != nil {
		return nil, fmt.Errorf("blocks of class %d: %w", v.Class.ID, err)
	}
	return out, nil
}

// CheckinSheet is the day's entrants with their classes, for the printed
// check-in list (directors, arbiters and recorders).
type CheckinSheet struct {
	Event    store.Event
	Classes  []Class
	Entrants []store.DayEntrantRow // by reading
	Fees     FeeDesk               // each entrant's fee and the class totals
}

// CheckinSheet reads the check-in list of a day in a fixed number of
// statements.
func (d *Day) CheckinSheet(ctx context.Context, actor office.Actor, eventID int64) (CheckinSheet, error) {
	e, err := requireDay(ctx, d.store, actor, eventID, resultRoles)
	if err != nil {
		return CheckinSheet{}, err
	}
	out := CheckinSheet{Event: e}
	cs, err := d.store.DayClassesOfEvent(ctx, eventID)
	if err != nil {
		return out, err
	}
	for _, c := range cs {
		out.Classes = append(out.Classes, classOf(c))
	}
	if out.Entrants, err = d.store.DayEntrantsOfEvent(ctx, eventID); err != nil {
		return out, err
	}
	out.Fees, err = feesIn(ctx, d.store, eventID)
	return out, err
}

// Default paper settings of a class without its own.
const (
	DefaultWaitMinutes = 10
	maxWaitMinutes     = 240
)

// PaperSettings are a class's paper settings.
type PaperSettings struct {
	QR          bool
	WaitMinutes int
}

func paperOf(p store.DayClassPaper, ok bool) PaperSettings {
	if !ok {
		return PaperSettings{WaitMinutes: DefaultWaitMinutes}
	}
	return PaperSettings{QR: p.QR, WaitMinutes: p.WaitMinutes}
}

// PaperInput is the paper settings form as typed.
type PaperInput struct {
	ClassID     int64
	QR          bool
	WaitMinutes string `field:"wait_minutes" validate:"intrange=1~240" msg:"day_paper.err,intrange=wait"`
}

// SetPaper saves a class's paper settings (directors). A wait that is not
// a whole number of minutes from 1 to 240 is a field error.
func (d *Day) SetPaper(ctx context.Context, actor office.Actor, in PaperInput) error {
	v := &office.ValidationError{}
	office.CheckInput(v, 0, in)
	wait, _ := strconv.Atoi(strings.TrimSpace(in.WaitMinutes))
	return d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, c.EventID, deskRoles); err != nil {
			return err
		}
		if err := v.OrNil(); err != nil { // the form is judged after the role (issue 21)
			return err
		}
		return tx.SaveDayPaper(ctx, store.DayClassPaper{ClassID: c.ID, QR: in.QR, WaitMinutes: wait, UpdatedBy: actor.UserID, UpdatedAt: d.now()})
	})
}

// Paper reads a class's paper settings (anyone who may see the event).
func (d *Day) Paper(ctx context.Context, actor office.Actor, classID int64) (PaperSettings, error) {
	c, err := d.Class(ctx, actor, classID)
	if err != nil {
		return PaperSettings{}, err
	}
	m, err := d.store.DayPaperOfClasses(ctx, []int64{c.ID})
	if err != nil {
		return PaperSettings{}, err
	}
	p, ok := m[c.ID]
	return paperOf(p, ok), nil
}
