package day

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"kisen/office"
	"kisen/store"
)

// Entry fee states at the desk (受付の参加費).
const (
	FeePaid   = "paid"
	FeeUnpaid = "unpaid" // seen at the desk, not (yet) paid
)

// FeeInput is the desk taking (or not) an entrant's fee: Amount is the
// yen received as typed; blank takes the class's fee.
type FeeInput struct {
	EventID  int64
	PlayerID int64
	Status   string
	Amount   string
}

// Fee is an entrant's fee as the desk last recorded it.
type Fee struct {
	Status string // FeePaid, FeeUnpaid, or "" when nothing was recorded
	Amount int    // yen received (0 unless paid)
	At     time.Time
}

// feeEntry is a LogFee record's detail.
type feeEntry struct {
	Status string `json:"status"`
	Amount int    `json:"amount"`
}

// feeAmount reads the amount typed at the desk for a paid fee; blank is
// the class's fee.
func feeAmount(s ClassSettings, status, typed, field string) (int, error) {
	if status != FeePaid {
		return 0, nil
	}
	if strings.TrimSpace(typed) == "" {
		return s.Fee, nil
	}
	v := &office.ValidationError{}
	n := intField(v, field, typed, 0, maxFee)
	return n, v.OrNil()
}

// RecordFee records an entrant's fee as paid (with the amount received) or
// unpaid (directors): a new desk-log record each time, the latest one in
// force, so a correction never loses what was taken before.
func (d *Day) RecordFee(ctx context.Context, actor office.Actor, in FeeInput) error {
	if in.Status != FeePaid && in.Status != FeeUnpaid {
		return invalid("fee_status", "day.err.choose", nil)
	}
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, err := entrantIn(ctx, tx, actor, in.EventID, in.PlayerID)
		if err != nil {
			return err
		}
		c, err := tx.DayClassByID(ctx, e.ClassID)
		if err != nil {
			return err
		}
		amount, err := feeAmount(ParseSettings(c.Settings), in.Status, in.Amount, "fee_amount")
		if err != nil {
			return err
		}
		return appendFee(ctx, tx, actor, e, in.Status, amount, d.now())
	})
}

func appendFee(ctx context.Context, tx *store.Store, actor office.Actor, e store.DayEntrant, status string, amount int, now time.Time) error {
	return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: e.EventID, ClassID: &e.ClassID, PlayerID: &e.PlayerID, Action: LogFee,
		Detail: mustJSON(feeEntry{Status: status, Amount: amount}), ActorID: actor.UserID, At: now})
}

// ClassFees is one class's fees for the desk's day total.
type ClassFees struct {
	ClassID    int64
	Name       string
	Fee        int // the class's fee, yen
	FeeReduced int
	CheckedIn  int // present or late, not withdrawn
	Paid       int // entrants whose fee is paid
	Unpaid     int // checked in without a paid fee
	Received   int // yen received, withdrawn entrants included
}

// FeeDesk is every entrant's fee and the totals per class.
type FeeDesk struct {
	ByPlayer map[int64]Fee
	Classes  []ClassFees
	Received int // the day's total, yen
}

// Fees reads the fees of a day for its desk (anyone who may see the day).
func (d *Day) Fees(ctx context.Context, actor office.Actor, eventID int64) (FeeDesk, error) {
	if _, err := d.o.Event(ctx, actor, eventID); err != nil {
		return FeeDesk{}, err
	}
	return feesIn(ctx, d.store, eventID)
}

func feesIn(ctx context.Context, s *store.Store, eventID int64) (FeeDesk, error) {
	out := FeeDesk{ByPlayer: map[int64]Fee{}}
	log, err := s.DayLogOfEventAction(ctx, eventID, LogFee)
	if err != nil {
		return out, err
	}
	for _, e := range log { // oldest first: the last record stands
		var f feeEntry
		if err := json.Unmarshal([]byte(e.Detail), &f); err != nil || e.PlayerID == nil {
			return out, fmt.Errorf("day log %d: bad fee record", e.ID)
		}
		out.ByPlayer[*e.PlayerID] = Fee{Status: f.Status, Amount: f.Amount, At: e.At}
	}
	cs, err := s.DayClassesOfEvent(ctx, eventID)
	if err != nil {
		return out, err
	}
	es, err := s.DayEntrantsOfEvent(ctx, eventID)
	if err != nil {
		return out, err
	}
	idx := map[int64]int{}
	for _, c := range cs {
		set := ParseSettings(c.Settings)
		idx[c.ID] = len(out.Classes)
		out.Classes = append(out.Classes, ClassFees{ClassID: c.ID, Name: c.Name, Fee: set.Fee, FeeReduced: set.FeeReduced})
	}
	for _, e := range es {
		i, ok := idx[e.ClassID]
		if !ok {
			continue
		}
		cf := &out.Classes[i]
		f := out.ByPlayer[e.PlayerID]
		if f.Status == FeePaid {
			cf.Paid++
			cf.Received += f.Amount
			out.Received += f.Amount
		}
		if drawable(e.DayEntrant) {
			cf.CheckedIn++
			if f.Status != FeePaid {
				cf.Unpaid++
			}
		}
	}
	return out, nil
}
