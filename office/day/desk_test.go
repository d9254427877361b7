package day_test

import (
	"errors"
	"sync"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// The desk's writes carry the version of the row seen: each change raises
// it by one (check-in, fee, category); a write on an older version is stale
// and writes nothing; undo appends a record restoring the state before the
// actor's last check-in or fee record (nothing deleted), and an undo is not
// undone again.
func TestDayDesk_UndoAndStale(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatSwiss)
		in.Fee, in.FeeReduced = "2000", "1000"
		c := f.class(in)
		p := f.player("初段", "駅前")
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: c.ID}); err != nil {
			t.Fatal(err)
		}
		row := func() store.DayEntrant {
			t.Helper()
			e, err := s.DayEntrantOf(f.ctx, f.event.ID, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		fee := func() day.Fee {
			t.Helper()
			fd, err := f.d.Fees(f.ctx, f.admin, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			return fd.ByPlayer[p.ID]
		}
		logLen := func() int {
			t.Helper()
			l, err := s.DayLogOfEvent(f.ctx, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			return len(l)
		}
		w := func(v int) day.DeskWrite { return day.DeskWrite{EventID: f.event.ID, PlayerID: p.ID, Version: v} }
		v0 := row().Version
		if err := f.d.Undo(f.ctx, f.admin, w(v0)); fieldCodes(err)["undo"] != "day_desk.err.nothing_to_undo" {
			t.Fatalf("undo with nothing done: %v", err)
		}
		if err := f.d.CheckInSeen(f.ctx, f.admin, w(v0), store.CheckinPresent); err != nil {
			t.Fatal(err)
		}
		v1 := row().Version
		if v1 != v0+1 || row().Checkin != store.CheckinPresent {
			t.Fatalf("after check-in: version %d (was %d), state %s", v1, v0, row().Checkin)
		}
		// Stale: a second desk still showing v0.
		n := logLen()
		if err := f.d.CheckInSeen(f.ctx, f.admin, w(v0), store.CheckinLate); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale check-in: %v", err)
		}
		seen := v0
		if err := f.d.RecordFee(f.ctx, f.admin, day.FeeInput{EventID: f.event.ID, PlayerID: p.ID, Status: day.FeePaid, Seen: &seen}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale fee: %v", err)
		}
		if err := f.d.Undo(f.ctx, f.admin, w(v0)); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale undo: %v", err)
		}
		if logLen() != n || row().Checkin != store.CheckinPresent || row().Version != v1 {
			t.Fatalf("a stale write wrote: log %d→%d, %+v", n, logLen(), row())
		}
		// Fee paid (blank amount = what the category owes), then undone:
		// no fee recorded again, the check-in stands.
		seen = v1
		if err := f.d.RecordFee(f.ctx, f.admin, day.FeeInput{EventID: f.event.ID, PlayerID: p.ID, Status: day.FeePaid, Seen: &seen}); err != nil {
			t.Fatal(err)
		}
		v2 := row().Version
		if got := fee(); v2 != v1+1 || got.Status != day.FeePaid || got.Amount != 2000 {
			t.Fatalf("after the fee: version %d, %+v", v2, got)
		}
		if err := f.d.Undo(f.ctx, f.admin, w(v2)); err != nil {
			t.Fatal(err)
		}
		v3 := row().Version
		if got := fee(); v3 != v2+1 || got.Status != "" || got.Amount != 0 || row().Checkin != store.CheckinPresent {
			t.Fatalf("after undoing the fee: version %d, %+v, %s", v3, got, row().Checkin)
		}
		// The undo itself is not undone again.
		if err := f.d.Undo(f.ctx, f.admin, w(v3)); fieldCodes(err)["undo"] != "day_desk.err.nothing_to_undo" {
			t.Fatalf("undo of an undo: %v", err)
		}
		// Category reduced then undone: full again, the paid fee (1000) kept.
		seen = v3
		if err := f.d.RecordFee(f.ctx, f.admin, day.FeeInput{EventID: f.event.ID, PlayerID: p.ID, Status: day.FeePaid, Amount: "1000", Seen: &seen}); err != nil {
			t.Fatal(err)
		}
		if err := f.d.SetFeeCategorySeen(f.ctx, f.admin, w(row().Version), day.FeeCategoryReduced); err != nil {
			t.Fatal(err)
		}
		if got := fee(); got.Category != day.FeeCategoryReduced || got.Expected != 1000 {
			t.Fatalf("reduced: %+v", got)
		}
		if err := f.d.Undo(f.ctx, f.admin, w(row().Version)); err != nil {
			t.Fatal(err)
		}
		if got := fee(); got.Category != day.FeeCategoryFull || got.Status != day.FeePaid || got.Amount != 1000 || got.Expected != 2000 {
			t.Fatalf("after undoing the category: %+v", got)
		}
		// A check-in undone: late → present (the state before), by a new
		// record; every record kept.
		if err := f.d.CheckInSeen(f.ctx, f.admin, w(row().Version), store.CheckinLate); err != nil {
			t.Fatal(err)
		}
		before := logLen()
		if err := f.d.Undo(f.ctx, f.admin, w(row().Version)); err != nil {
			t.Fatal(err)
		}
		if row().Checkin != store.CheckinPresent || logLen() != before+1 {
			t.Fatalf("after undoing late: %s, log %d→%d", row().Checkin, before, logLen())
		}
	})
}

// Two desks check the same entrant in at once on the version both saw:
// exactly one write lands, the other is stale (409), on both databases.
func TestDayDesk_ConcurrentCheckinOneWins(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("A級", day.FormatSwiss))
		p := f.player("初段", "駅前")
		if _, err := f.d.Enter(f.ctx, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: p.ID, ClassID: c.ID}); err != nil {
			t.Fatal(err)
		}
		e, err := s.DayEntrantOf(f.ctx, f.event.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		w := day.DeskWrite{EventID: f.event.ID, PlayerID: p.ID, Version: e.Version}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, st := range []string{store.CheckinPresent, store.CheckinLate} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = f.d.CheckInSeen(f.ctx, f.admin, w, st)
			}()
		}
		wg.Wait()
		ok, stale := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, office.ErrConflict):
				stale++
			default:
				t.Fatalf("unexpected: %v", err)
			}
		}
		after, err := s.DayEntrantOf(f.ctx, f.event.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ok != 1 || stale != 1 || after.Version != e.Version+1 {
			t.Fatalf("ok %d stale %d, version %d→%d (%v)", ok, stale, e.Version, after.Version, errs)
		}
	})
}
