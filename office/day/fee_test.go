package day_test

import (
	"testing"

	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Entry fees at the desk: a class's fee and reduced fee are settings; the
// desk records paid (with the amount received, blank for the class's fee)
// or unpaid at check-in and at a walk-in, each a new desk-log record (a
// correction keeps the earlier one); the class totals count the checked-in
// entrants still unpaid and add the amounts received; bad amounts are field
// errors and write nothing.
func TestDay_EntryFeesAtReception(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatSwiss)
		in.Fee, in.FeeReduced, in.RankMin = "2000", "1000", "初段"
		a := f.class(in)
		in = f.classInput("B級", day.FormatSwiss)
		in.Fee, in.RankMax = "1500", "1級"
		b := f.class(in)
		if a.Settings.Fee != 2000 || a.Settings.FeeReduced != 1000 || b.Settings.FeeReduced != 0 {
			t.Fatalf("fees stored: %+v / %+v", a.Settings, b.Settings)
		}
		bad := f.classInput("C級", day.FormatSwiss)
		bad.Fee, bad.FeeReduced = "1000", "1200"
		if _, err := f.d.CreateClass(f.ctx, f.admin, bad); fieldCodes(err)["fee_reduced"] != "day_fee.err.reduced_not_lower" {
			t.Fatalf("reduced above the fee: %v", err)
		}
		bad.FeeReduced, bad.Fee = "", "12a"
		if _, err := f.d.CreateClass(f.ctx, f.admin, bad); fieldCodes(err)["fee"] != "day.err.number" {
			t.Fatalf("a fee that is not a number: %v", err)
		}
		pa := f.present(3, "初段", a.ID)
		pb := f.present(2, "1級", b.ID)
		record := func(player int64, status, amount string) error {
			return f.d.RecordFee(f.ctx, f.admin, day.FeeInput{EventID: f.event.ID, PlayerID: player, Status: status, Amount: amount})
		}
		// A級: the fee, a reduced fee typed, and one unpaid then corrected.
		for _, c := range []struct {
			p              int64
			status, amount string
		}{{pa[0].ID, day.FeePaid, ""}, {pa[1].ID, day.FeePaid, "1000"}, {pa[2].ID, day.FeeUnpaid, ""}, {pb[0].ID, day.FeePaid, " 1500 "}} {
			if err := record(c.p, c.status, c.amount); err != nil {
				t.Fatal(err)
			}
		}
		if err := record(pa[1].ID, day.FeePaid, "-5"); fieldCodes(err)["fee_amount"] != "day.err.range" {
			t.Fatalf("a negative amount: %v", err)
		}
		if err := record(pa[1].ID, "maybe", ""); fieldCodes(err)["fee_status"] != "day.err.choose" {
			t.Fatalf("an unknown status: %v", err)
		}
		// A walk-in pays at the desk in the same step; another walk-in with a
		// bad amount is not registered at all.
		w, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込花子", Reading: "とびこみはなこ", Rank: "3級", FeeStatus: day.FeePaid, FeeAmount: "1500"})
		if err != nil || w.ClassID != b.ID {
			t.Fatalf("walk-in: %+v %v", w, err)
		}
		before, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID)
		if _, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込次郎", Reading: "とびこみじろう", Rank: "3級", FeeStatus: day.FeePaid, FeeAmount: "千円"}); fieldCodes(err)["fee_amount"] != "day.err.number" {
			t.Fatalf("walk-in with a bad amount: %v", err)
		}
		if after, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID); len(after) != len(before) {
			t.Fatalf("a refused walk-in wrote an entrant: %d → %d", len(before), len(after))
		}
		got, err := f.d.Fees(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Nobody's category was recorded: all owe the full fee, so the
		// 1,000 typed for pa[1] is short of the 2,000 expected.
		want := map[int64]day.CategoryFees{
			a.ID: {CheckedIn: 3, Paid: 2, Unpaid: 1, Short: 1, Expected: 6000, Received: 3000},
			b.ID: {CheckedIn: 3, Paid: 2, Unpaid: 1, Expected: 4500, Received: 3000},
		}
		for _, cf := range got.Classes {
			if cf.CategoryFees != want[cf.ClassID] || cf.Full != want[cf.ClassID] || cf.Reduced != (day.CategoryFees{}) {
				t.Errorf("class %s: %+v, want %+v all full", cf.Name, cf, want[cf.ClassID])
			}
		}
		if a := got.Classes[0]; a.Fee != 2000 || a.FeeReduced != 1000 {
			t.Errorf("class fees %+v", a)
		}
		if got.Received != 6000 || got.ByPlayer[pa[1].ID].Amount != 1000 || got.ByPlayer[pa[2].ID].Status != day.FeeUnpaid {
			t.Errorf("day total %d, %+v", got.Received, got.ByPlayer)
		}
		// The unpaid entrant pays: a new record; the first stays in the log.
		if err := record(pa[2].ID, day.FeePaid, ""); err != nil {
			t.Fatal(err)
		}
		got, _ = f.d.Fees(f.ctx, f.admin, f.event.ID)
		if got.Received != 8000 || got.ByPlayer[pa[2].ID].Amount != 2000 {
			t.Errorf("after the correction: total %d, %+v", got.Received, got.ByPlayer[pa[2].ID])
		}
		log, err := s.DayLogOfEventAction(f.ctx, f.event.ID, day.LogFee)
		if err != nil || len(log) != 6 {
			t.Errorf("fee records %d, want 6 (4 at the desk, 1 walk-in, 1 correction): %v", len(log), err)
		}
		sh, err := f.d.CheckinSheet(f.ctx, f.admin, f.event.ID)
		if err != nil || sh.Fees.Received != 8000 {
			t.Errorf("check-in sheet fees: %+v %v", sh.Fees, err)
		}
	})
}
