package day

import (
	"context"
	"strings"

	"kisen/office"
	"kisen/store"
)

// WalkInInput is the desk's one short form for a player who arrives
// without an entry: they are registered, entered and checked in at once.
type WalkInInput struct {
	EventID int64
	Name    string
	Reading string
	Rank    string // declared 段級位; decides the class unless ClassID is set
	Club    string // 所属 (club, 支部, school)
	// MasterID or MasterNumber (the federation number) is a registered
	// 師匠; MasterName and MasterReading name a teacher outside the
	// registry instead. All empty: none.
	MasterID      int64
	MasterNumber  string
	MasterName    string
	MasterReading string
	// RelativeID is a registered family member (0 for none): the draw keeps
	// family apart as the class says.
	RelativeID int64
	ClassID    int64
	Late       bool // checked in as late instead of present
	// FeeStatus is FeePaid or FeeUnpaid to record the fee at once ("" for
	// later); FeeAmount the yen received, blank for the fee FeeCategory
	// owes (FeeCategoryFull or FeeCategoryReduced; "" is full).
	FeeStatus   string
	FeeAmount   string
	FeeCategory string
}

// WalkIn registers a walk-in (the player form's validation), enters them in
// their class and checks them in — one transaction (directors). A problem
// with any field is a field error and nothing is written.
func (d *Day) WalkIn(ctx context.Context, actor office.Actor, in WalkInInput) (store.DayEntrant, error) {
	var out store.DayEntrant
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		if _, err := requireDay(ctx, tx, actor, in.EventID, deskRoles); err != nil {
			return err
		}
		now := d.now()
		p, err := office.NewPlayerIn(ctx, tx, office.PlayerInput{Name: in.Name, Reading: in.Reading, Kind: string(store.PlayerAmateur), Rank: in.Rank, Affiliation: in.Club}, now)
		if err != nil {
			return err
		}
		ve := &office.ValidationError{}
		ref := office.MasterRef{PlayerID: in.MasterID, Number: in.MasterNumber, TeacherName: in.MasterName, TeacherReading: in.MasterReading}
		if ref.PlayerID != 0 || strings.TrimSpace(ref.Number) != "" || strings.TrimSpace(ref.TeacherName) != "" || strings.TrimSpace(ref.TeacherReading) != "" {
			if err := office.FirstMasterIn(ctx, tx, ve, p.ID, ref, office.JapanToday(now), now); err != nil {
				return err
			}
		}
		if in.RelativeID != 0 {
			if _, err := tx.PlayerByID(ctx, in.RelativeID); err != nil {
				ve.Add(0, "relative_id", "day.err.player_unknown", nil)
			} else {
				r := store.PlayerRelative{PlayerAID: min(p.ID, in.RelativeID), PlayerBID: max(p.ID, in.RelativeID), Relation: "", CreatedAt: now}
				if err := tx.AddPlayerRelative(ctx, &r); err != nil {
					return err
				}
			}
		}
		if err := ve.OrNil(); err != nil {
			return err
		}
		e, err := enterIn(ctx, tx, actor, EntryInput{EventID: in.EventID, PlayerID: p.ID, Rank: p.Rank, ClassID: in.ClassID, FeeCategory: in.FeeCategory}, true, now)
		if err != nil {
			return err
		}
		state := store.CheckinPresent
		if in.Late {
			state = store.CheckinLate
		}
		if err := tx.SetDayCheckin(ctx, e.ID, state, actor.UserID, now); err != nil {
			return err
		}
		e.Checkin, e.CheckinBy, e.CheckinAt = state, &actor.UserID, &now
		out = e
		if in.FeeStatus != "" {
			if in.FeeStatus != FeePaid && in.FeeStatus != FeeUnpaid {
				return invalid("fee_status", "day.err.choose", nil)
			}
			c, err := tx.DayClassByID(ctx, e.ClassID)
			if err != nil {
				return err
			}
			cat := FeeCategoryFull
			if strings.TrimSpace(in.FeeCategory) == FeeCategoryReduced {
				cat = FeeCategoryReduced
			}
			amount, err := feeAmount(ParseSettings(c.Settings), cat, in.FeeStatus, in.FeeAmount, "fee_amount")
			if err != nil {
				return err
			}
			if err := appendFee(ctx, tx, actor, e, feeEntry{Status: in.FeeStatus, Amount: amount, Category: cat}, now); err != nil {
				return err
			}
		}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: in.EventID, ClassID: &e.ClassID, PlayerID: &p.ID, Action: LogWalkIn,
			Detail: mustJSON(map[string]any{"checkin": state}), ActorID: actor.UserID, At: now})
	})
	return out, err
}
