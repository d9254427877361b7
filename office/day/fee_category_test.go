package day_test

import (
	"strings"
	"testing"

	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Fee categories: an entrant owes the full fee or the class's reduced fee
// (for whoever the class names); the category is set at registration, at a
// walk-in or at check-in, and the desk may change it, each a new fee record.
// What an entrant owes follows from the category; a paid amount below it is
// short, one above it differs and is kept; the totals per class and for the
// day split by category, expected against received. Bad input is a field
// error and writes nothing.
func TestDay_FeeCategoriesExpectedAndReceived(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatSwiss)
		in.Fee, in.FeeReduced, in.FeeReducedFor, in.RankMin = "2000", "1000", " 学生・女性・シニア ", "初段"
		a := f.class(in)
		in = f.classInput("B級", day.FormatSwiss)
		in.Fee, in.RankMax = "1500", "1級"
		b := f.class(in)
		if a.Settings.FeeReducedFor != "学生・女性・シニア" || day.InputOf(0, "", "", 0, "", a.Settings).FeeReducedFor != "学生・女性・シニア" {
			t.Fatalf("who the reduced fee is for: %q", a.Settings.FeeReducedFor)
		}
		long := f.classInput("C級", day.FormatSwiss)
		long.Fee, long.FeeReduced, long.FeeReducedFor = "1000", "500", strings.Repeat("学", 41)
		if _, err := f.d.CreateClass(f.ctx, f.admin, long); fieldCodes(err)["fee_reduced_for"] != "day_fee.err.too_long" {
			t.Fatalf("a too long category name: %v", err)
		}

		// Registration: a reduced entrant in A級; B級 has no reduced fee, so
		// a reduced registration there is refused and writes nothing.
		reduced := f.player("二段", "")
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: reduced.ID, FeeCategory: day.FeeCategoryReduced}); err != nil {
			t.Fatal(err)
		}
		noReduced := f.player("3級", "")
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: noReduced.ID, FeeCategory: day.FeeCategoryReduced}); fieldCodes(err)["fee_category"] != "day_fee.err.no_reduced" {
			t.Fatalf("reduced in a class without a reduced fee: %v", err)
		}
		if _, err := s.DayEntrantOf(f.ctx, f.event.ID, noReduced.ID); err == nil {
			t.Fatal("a refused entry wrote an entrant")
		}
		if err := f.d.CheckIn(f.ctx, f.admin, f.event.ID, reduced.ID, store.CheckinPresent); err != nil {
			t.Fatal(err)
		}
		pa := f.present(3, "初段", a.ID) // full unless the desk says otherwise
		pb := f.present(1, "1級", b.ID)
		record := func(player int64, status, amount, category string) error {
			return f.d.RecordFee(f.ctx, f.admin, day.FeeInput{EventID: f.event.ID, PlayerID: player, Status: status, Amount: amount, Category: category})
		}
		logLen := func() int {
			l, err := s.DayLogOfEventAction(f.ctx, f.event.ID, day.LogFee)
			if err != nil {
				t.Fatal(err)
			}
			return len(l)
		}
		// Check-in: the registered reduced entrant pays, blank taking what the
		// category owes; pa[0] is made reduced at the desk and pays 800
		// (short); pa[1] pays the full fee; pa[2] is still unpaid; pb[0]
		// pays 2,000 for a 1,500 fee (differs, not short).
		for _, c := range []struct {
			p                        int64
			status, amount, category string
		}{
			{reduced.ID, day.FeePaid, "", ""},
			{pa[0].ID, day.FeePaid, "800", day.FeeCategoryReduced},
			{pa[1].ID, day.FeePaid, "", day.FeeCategoryFull},
			{pa[2].ID, day.FeeUnpaid, "", ""},
			{pb[0].ID, day.FeePaid, "2000", ""},
		} {
			if err := record(c.p, c.status, c.amount, c.category); err != nil {
				t.Fatalf("fee of %d: %v", c.p, err)
			}
		}
		// Bad input: each a field error, nothing written.
		n := logLen()
		for _, c := range []struct {
			amount, category, field, code string
		}{
			{"-1", "", "fee_amount", "day.err.range"},
			{"千円", "", "fee_amount", "day.err.number"},
			{"1.5", "", "fee_amount", "day.err.number"},
			{"1000001", "", "fee_amount", "day.err.range"},
			{"99999999999999999999999", "", "fee_amount", "day.err.range"},
			{"1000", "student", "fee_category", "day.err.choose"},
			{"1000", day.FeeCategoryReduced, "fee_category", "day_fee.err.no_reduced"}, // pb[0] is in B級
		} {
			p := pa[2].ID
			if c.code == "day_fee.err.no_reduced" {
				p = pb[0].ID
			}
			if err := record(p, day.FeePaid, c.amount, c.category); fieldCodes(err)[c.field] != c.code {
				t.Errorf("amount %q category %q: %v, want %s on %s", c.amount, c.category, err, c.code, c.field)
			}
		}
		if err := f.d.SetFeeCategory(f.ctx, f.admin, f.event.ID, pa[2].ID, "half"); fieldCodes(err)["fee_category"] != "day.err.choose" {
			t.Errorf("an unknown category: %v", err)
		}
		if got := logLen(); got != n {
			t.Fatalf("refused input wrote %d fee records", got-n)
		}
		// Walk-ins: one reduced paying what the category owes, one full
		// paying 1,500 in B級; a reduced walk-in to B級 is not registered.
		w1, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込学", Reading: "とびこみまなぶ", Rank: "初段", FeeStatus: day.FeePaid, FeeCategory: day.FeeCategoryReduced})
		if err != nil || w1.ClassID != a.ID {
			t.Fatalf("reduced walk-in: %+v %v", w1, err)
		}
		w2, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込一般", Reading: "とびこみいっぱん", Rank: "2級", FeeStatus: day.FeePaid, FeeAmount: "1500", FeeCategory: day.FeeCategoryFull})
		if err != nil || w2.ClassID != b.ID {
			t.Fatalf("full walk-in: %+v %v", w2, err)
		}
		before, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID)
		if _, err := f.d.WalkIn(f.ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込次郎", Reading: "とびこみじろう", Rank: "3級", FeeStatus: day.FeePaid, FeeCategory: day.FeeCategoryReduced}); fieldCodes(err)["fee_category"] != "day_fee.err.no_reduced" {
			t.Fatalf("reduced walk-in to B級: %v", err)
		}
		if after, _ := s.DayEntrantsOfEvent(f.ctx, f.event.ID); len(after) != len(before) {
			t.Fatalf("a refused walk-in wrote an entrant: %d → %d", len(before), len(after))
		}

		got, err := f.d.Fees(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		type pf struct {
			cat            string
			status         string
			amount, expect int
			short, differs bool
		}
		for id, w := range map[int64]pf{
			reduced.ID:  {day.FeeCategoryReduced, day.FeePaid, 1000, 1000, false, false},
			pa[0].ID:    {day.FeeCategoryReduced, day.FeePaid, 800, 1000, true, true},
			pa[1].ID:    {day.FeeCategoryFull, day.FeePaid, 2000, 2000, false, false},
			pa[2].ID:    {day.FeeCategoryFull, day.FeeUnpaid, 0, 2000, false, false},
			pb[0].ID:    {day.FeeCategoryFull, day.FeePaid, 2000, 1500, false, true},
			w1.PlayerID: {day.FeeCategoryReduced, day.FeePaid, 1000, 1000, false, false},
			w2.PlayerID: {day.FeeCategoryFull, day.FeePaid, 1500, 1500, false, false},
		} {
			g := got.ByPlayer[id]
			if (pf{g.Category, g.Status, g.Amount, g.Expected, g.Short(), g.Differs()}) != w {
				t.Errorf("player %d: %+v short %v differs %v, want %+v", id, g, g.Short(), g.Differs(), w)
			}
		}
		wantA := map[string]day.CategoryFees{
			"full":    {CheckedIn: 2, Paid: 1, Unpaid: 1, Expected: 4000, Received: 2000},
			"reduced": {CheckedIn: 3, Paid: 3, Short: 1, Expected: 3000, Received: 2800},
			"all":     {CheckedIn: 5, Paid: 4, Unpaid: 1, Short: 1, Expected: 7000, Received: 4800},
		}
		wantB := map[string]day.CategoryFees{
			"full":    {CheckedIn: 2, Paid: 2, Expected: 3000, Received: 3500},
			"reduced": {},
			"all":     {CheckedIn: 2, Paid: 2, Expected: 3000, Received: 3500},
		}
		for _, cf := range got.Classes {
			want := map[int64]map[string]day.CategoryFees{a.ID: wantA, b.ID: wantB}[cf.ClassID]
			if cf.Full != want["full"] || cf.Reduced != want["reduced"] || cf.CategoryFees != want["all"] {
				t.Errorf("class %s: full %+v reduced %+v all %+v, want %+v", cf.Name, cf.Full, cf.Reduced, cf.CategoryFees, want)
			}
		}
		if got.Full != (day.CategoryFees{CheckedIn: 4, Paid: 3, Unpaid: 1, Expected: 7000, Received: 5500}) ||
			got.Reduced != wantA["reduced"] || got.Expected != 10000 || got.Received != 8300 {
			t.Errorf("day: full %+v reduced %+v all %+v", got.Full, got.Reduced, got.CategoryFees)
		}

		// The desk corrects pa[0] back to full: a new record, the 800 taken
		// stands and is now short of 2,000; the earlier records stay.
		n = logLen()
		if err := f.d.SetFeeCategory(f.ctx, f.admin, f.event.ID, pa[0].ID, day.FeeCategoryFull); err != nil {
			t.Fatal(err)
		}
		if logLen() != n+1 {
			t.Fatalf("a category change is one new record")
		}
		sh, err := f.d.CheckinSheet(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		g := sh.Fees.ByPlayer[pa[0].ID]
		if g.Category != day.FeeCategoryFull || g.Amount != 800 || g.Expected != 2000 || !g.Short() {
			t.Errorf("after the change: %+v", g)
		}
		if sh.Fees.Reduced.Expected != 2000 || sh.Fees.Full.Expected != 9000 || sh.Fees.Short != 1 {
			t.Errorf("check-in sheet totals after the change: full %+v reduced %+v", sh.Fees.Full, sh.Fees.Reduced)
		}
	})
}
