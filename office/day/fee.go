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

// Fee categories: which of the class's fees an entrant owes. Reduced is
// whoever the class's FeeReducedFor names (学生・女性・シニア, …); an
// entrant with no category recorded owes the full fee.
const (
	FeeCategoryFull    = "full"
	FeeCategoryReduced = "reduced"
)

// FeeInput is the desk taking (or not) an entrant's fee: Amount is the
// yen received as typed; blank takes the fee the entrant's category owes.
// Category, when set, records the entrant's fee category first (the desk
// may change it at check-in); "" keeps the one on record.
type FeeInput struct {
	EventID  int64
	PlayerID int64
	Status   string `field:"fee_status" validate:"oneof=paid unpaid" msg:"day.err"`
	Amount   string
	Category string
	// Seen is the version of the entrant's row the desk saw (nil: not
	// compared); another version is stale (office.ErrConflict).
	Seen *int
}

// Fee is an entrant's fee as the desk last recorded it, and what their
// category owes.
type Fee struct {
	Status   string // FeePaid, FeeUnpaid, or "" when nothing was recorded
	Amount   int    // yen received (0 unless paid)
	At       time.Time
	Category string // FeeCategoryFull or FeeCategoryReduced
	Expected int    // yen the category owes in the entrant's class
}

// Short reports a paid fee below what the entrant owes (不足).
func (f Fee) Short() bool { return f.Status == FeePaid && f.Amount < f.Expected }

// Differs reports a paid fee other than what the entrant owes (a discount,
// change not given back, …): allowed, and shown.
func (f Fee) Differs() bool { return f.Status == FeePaid && f.Amount != f.Expected }

// feeEntry is a LogFee record's detail. A record that only sets the
// category has no status: the fee taken before stands.
type feeEntry struct {
	Status   string `json:"status,omitempty"`
	Amount   int    `json:"amount"`
	Category string `json:"category,omitempty"`
	// Undo names the record an undo reverts (desk.go); such a record
	// restores the status before it, feeNone when there was none.
	Undo int64 `json:"undo,omitempty"`
}

// feeNone is the status an undo writes when no fee had been recorded.
const feeNone = "none"

// expectedFee is what a category owes in a class: the reduced fee for a
// reduced entrant when the class has one, else the fee.
func expectedFee(s ClassSettings, category string) int {
	if category == FeeCategoryReduced && s.FeeReduced > 0 {
		return s.FeeReduced
	}
	return s.Fee
}

// feeCategory reads a category chosen at the desk: "" keeps the one on
// record; reduced needs a class with a reduced fee.
func feeCategory(s ClassSettings, typed string) (string, error) {
	switch c := strings.TrimSpace(typed); c {
	case "", FeeCategoryFull:
		return c, nil
	case FeeCategoryReduced:
		if s.FeeReduced == 0 {
			return "", invalid("fee_category", "day_fee.err.no_reduced", nil)
		}
		return c, nil
	}
	return "", invalid("fee_category", "day.err.choose", nil)
}

// feeAmount reads the amount typed at the desk for a paid fee; blank is
// the fee the category owes.
func feeAmount(s ClassSettings, category, status, typed, field string) (int, error) {
	if status != FeePaid {
		return 0, nil
	}
	if strings.TrimSpace(typed) == "" {
		return expectedFee(s, category), nil
	}
	// The amount's rules are tags; the field is named by the caller's form.
	amount := struct {
		Amount string `validate:"int,intrange=0~1000000" msg:"day.err,intrange=range"`
	}{strings.TrimSpace(typed)}
	all := &office.ValidationError{}
	if !office.CheckInput(all, 0, amount) {
		v := &office.ValidationError{}
		v.Add(0, field, all.Fields[0].Code, all.Fields[0].Args)
		return 0, v
	}
	return num(typed), nil
}

// RecordFee records an entrant's fee as paid (with the amount received) or
// unpaid (directors), with their category if the desk chose one: a new
// desk-log record each time, the latest one in force, so a correction
// never loses what was taken before.
func (d *Day) RecordFee(ctx context.Context, actor office.Actor, in FeeInput) error {
	if v := (&office.ValidationError{}); !office.CheckInput(v, 0, in) {
		return v
	}
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, set, err := feeEntrantIn(ctx, tx, actor, seenWrite(in.EventID, in.PlayerID, in.Seen))
		if err != nil {
			return err
		}
		cat, err := feeCategory(set, in.Category)
		if err != nil {
			return err
		}
		if cat == "" {
			if cat, err = categoryOf(ctx, tx, e); err != nil {
				return err
			}
		}
		amount, err := feeAmount(set, cat, in.Status, in.Amount, "fee_amount")
		if err != nil {
			return err
		}
		return appendDeskFee(ctx, tx, actor, e, feeEntry{Status: in.Status, Amount: amount, Category: cat}, d.now())
	})
}

// SetFeeCategory records an entrant's fee category without taking a fee
// (directors): the fee taken before, if any, stands and is compared with
// what the new category owes.
func (d *Day) SetFeeCategory(ctx context.Context, actor office.Actor, eventID, playerID int64, category string) error {
	return d.SetFeeCategorySeen(ctx, actor, DeskWrite{EventID: eventID, PlayerID: playerID, Version: Unchecked}, category)
}

// SetFeeCategorySeen is SetFeeCategory on the version of the row the desk
// saw (stale: office.ErrConflict).
func (d *Day) SetFeeCategorySeen(ctx context.Context, actor office.Actor, w DeskWrite, category string) error {
	if strings.TrimSpace(category) == "" {
		return invalid("fee_category", "day.err.choose", nil)
	}
	return d.store.Tx(ctx, func(tx *store.Store) error {
		e, set, err := feeEntrantIn(ctx, tx, actor, w)
		if err != nil {
			return err
		}
		cat, err := feeCategory(set, category)
		if err != nil {
			return err
		}
		return appendDeskFee(ctx, tx, actor, e, feeEntry{Category: cat}, d.now())
	})
}

func feeEntrantIn(ctx context.Context, tx *store.Store, actor office.Actor, w DeskWrite) (store.DayEntrant, ClassSettings, error) {
	e, err := deskEntrantIn(ctx, tx, actor, w)
	if err != nil {
		return e, ClassSettings{}, err
	}
	c, err := tx.DayClassByID(ctx, e.ClassID)
	if err != nil {
		return e, ClassSettings{}, err
	}
	return e, ParseSettings(c.Settings), nil
}

// categoryOf is an entrant's fee category on record (full when none).
func categoryOf(ctx context.Context, tx *store.Store, e store.DayEntrant) (string, error) {
	fees, err := feeLogIn(ctx, tx, e.EventID)
	if err != nil {
		return "", err
	}
	if c := fees[e.PlayerID].Category; c != "" {
		return c, nil
	}
	return FeeCategoryFull, nil
}

func appendFee(ctx context.Context, tx *store.Store, actor office.Actor, e store.DayEntrant, f feeEntry, now time.Time) error {
	return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: e.EventID, ClassID: &e.ClassID, PlayerID: &e.PlayerID, Action: LogFee,
		Detail: mustJSON(f), ActorID: actor.UserID, At: now})
}

// CategoryFees are the fees of one category (of a class or the day).
// Expected counts the entrants checked in and those withdrawn after paying;
// Received what was taken.
type CategoryFees struct {
	CheckedIn int // present or late, not withdrawn
	Paid      int // entrants whose fee is paid
	Unpaid    int // checked in without a paid fee
	Short     int // paid less than the category owes
	Expected  int // yen
	Received  int // yen, withdrawn entrants included
}

func (c *CategoryFees) add(o CategoryFees) {
	c.CheckedIn += o.CheckedIn
	c.Paid += o.Paid
	c.Unpaid += o.Unpaid
	c.Short += o.Short
	c.Expected += o.Expected
	c.Received += o.Received
}

// ClassFees is one class's fees for the desk's day total: the whole class
// and each category.
type ClassFees struct {
	ClassID         int64
	Name            string
	Fee             int // the class's fee, yen
	FeeReduced      int
	FeeReducedFor   string // who the reduced fee is for, as the class says
	FeeReducedForEn string
	CategoryFees    // both categories
	Full            CategoryFees
	Reduced         CategoryFees
}

// FeeDesk is every entrant's fee and the totals per class and for the day.
type FeeDesk struct {
	ByPlayer map[int64]Fee // every entrant, with or without a record
	Classes  []ClassFees
	CategoryFees
	Full    CategoryFees
	Reduced CategoryFees
}

// Fees reads the fees of a day for its desk (anyone who may see the day).
func (d *Day) Fees(ctx context.Context, actor office.Actor, eventID int64) (FeeDesk, error) {
	if _, err := d.o.Event(ctx, actor, eventID); err != nil {
		return FeeDesk{}, err
	}
	return feesIn(ctx, d.store, eventID)
}

// feeLogIn folds a day's fee records, oldest first: the last status and
// the last category stand, each on its own.
func feeLogIn(ctx context.Context, s *store.Store, eventID int64) (map[int64]Fee, error) {
	out := map[int64]Fee{}
	log, err := s.DayLogOfEventAction(ctx, eventID, LogFee)
	if err != nil {
		return out, err
	}
	for _, e := range log {
		var f feeEntry
		if err := json.Unmarshal([]byte(e.Detail), &f); err != nil || e.PlayerID == nil {
			return out, fmt.Errorf("day log %d: bad fee record", e.ID)
		}
		cur := out[*e.PlayerID]
		if f.Status == feeNone {
			cur.Status, cur.Amount, cur.At = "", 0, time.Time{}
		} else if f.Status != "" {
			cur.Status, cur.Amount, cur.At = f.Status, f.Amount, e.At
		}
		if f.Category != "" {
			cur.Category = f.Category
		}
		out[*e.PlayerID] = cur
	}
	return out, nil
}

func feesIn(ctx context.Context, s *store.Store, eventID int64) (FeeDesk, error) {
	out := FeeDesk{ByPlayer: map[int64]Fee{}}
	logged, err := feeLogIn(ctx, s, eventID)
	if err != nil {
		return out, err
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
	sets := map[int64]ClassSettings{}
	for _, c := range cs {
		set := ParseSettings(c.Settings)
		idx[c.ID], sets[c.ID] = len(out.Classes), set
		out.Classes = append(out.Classes, ClassFees{ClassID: c.ID, Name: c.Name, Fee: set.Fee, FeeReduced: set.FeeReduced, FeeReducedFor: set.FeeReducedFor, FeeReducedForEn: set.FeeReducedForEn})
	}
	for _, e := range es {
		i, ok := idx[e.ClassID]
		if !ok {
			continue
		}
		f := logged[e.PlayerID]
		if f.Category == "" {
			f.Category = FeeCategoryFull
		}
		f.Expected = expectedFee(sets[e.ClassID], f.Category)
		out.ByPlayer[e.PlayerID] = f
		var one CategoryFees
		if f.Status == FeePaid {
			one.Paid, one.Received = 1, f.Amount
			if f.Short() {
				one.Short = 1
			}
		}
		if drawable(e.DayEntrant) {
			one.CheckedIn = 1
			if f.Status != FeePaid {
				one.Unpaid = 1
			}
		}
		if one.CheckedIn == 1 || one.Paid == 1 {
			one.Expected = f.Expected
		}
		cf := &out.Classes[i]
		cf.CategoryFees.add(one)
		out.CategoryFees.add(one)
		if f.Category == FeeCategoryReduced {
			cf.Reduced.add(one)
			out.Reduced.add(one)
		} else {
			cf.Full.add(one)
			out.Full.add(one)
		}
	}
	return out, nil
}
