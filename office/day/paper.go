package day

import (
	"context"
	"fmt"

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
