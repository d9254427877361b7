package day_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Approving every pending entry without a suggestion at once: the ones
// with a suggestion and the waiting ones are left; one transaction at the
// list the director saw — a list that changed since (a new entry, one
// decided) is 409 with nothing written; nobody but the day's staff may.
func TestEntries_ApproveAllWithoutSuggestion(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		reg := store.Player{Name: "高橋 悠斗", Reading: "たかはし ゆうと", Kind: store.PlayerAmateur, Rank: "二段", CreatedAt: now, UpdatedAt: now}
		if err := s.CreatePlayer(f.ctx, &reg); err != nil {
			t.Fatal(err)
		}
		e1, _ := f.submit("青木 健一", "アオキ ケンイチ", "三段")
		e2, _ := f.submit("高橋悠斗", "タカハシユウト", "二段") // suggested: stays
		e3, _ := f.submit("佐藤 蓮", "さとう れん", "5級")
		f.settings(day.EntrySettingsInput{Open: true, Caps: map[int64]string{f.b.ID: "1"}})
		e4, _ := f.submit("鈴木 一", "すずき はじめ", "3級") // B級 is full: waiting, stays
		rows, err := f.d.EntriesOf(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]bool{}
		for _, r := range day.Approvable(rows) {
			got[r.ID] = true
		}
		if len(got) != 2 || !got[e1.ID] || !got[e3.ID] {
			t.Fatalf("approvable: %v, want %d and %d", got, e1.ID, e3.ID)
		}
		fp := day.ApprovableFingerprint(f.event.ID, rows)

		// A stranger: as if there were no such day; nothing written.
		before := f.counts()
		if _, err := f.d.ApproveAll(f.ctx, office.Actor{}, f.event.ID, fp); !errors.Is(err, office.ErrNotFound) && !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a stranger approves all: %v", err)
		}
		// The list changed since the preview (a new entry): 409, nothing.
		e5, _ := f.submit("新井 翼", "あらい つばさ", "初段")
		before = f.counts()
		if _, err := f.d.ApproveAll(f.ctx, f.admin, f.event.ID, fp); !errors.Is(err, office.ErrConflict) || f.counts() != before {
			t.Fatalf("a stale list: %v, rows %v → %v", err, before, f.counts())
		}
		rows, err = f.d.EntriesOf(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		n, err := f.d.ApproveAll(f.ctx, f.admin, f.event.ID, day.ApprovableFingerprint(f.event.ID, rows))
		if err != nil || n != 3 {
			t.Fatalf("approve all: %d %v, want 3", n, err)
		}
		for _, e := range []store.DayEntry{e1, e3, e5} {
			r := f.row(e.ID)
			if r.Status != store.EntryApproved || r.PlayerID == nil {
				t.Errorf("%s: %s", e.Name, r.Status)
				continue
			}
			if _, err := s.DayEntrantOf(f.ctx, f.event.ID, *r.PlayerID); err != nil {
				t.Errorf("%s is not entered: %v", e.Name, err)
			}
		}
		if r := f.row(e2.ID); r.Status != store.EntryPending {
			t.Errorf("the suggested entry is %s, want pending", r.Status)
		}
		if r := f.row(e4.ID); r.Status != store.EntryWaiting {
			t.Errorf("the waiting entry is %s, want waiting", r.Status)
		}
		// The same fingerprint again: the list has changed (they are approved).
		if _, err := f.d.ApproveAll(f.ctx, f.admin, f.event.ID, fp); !errors.Is(err, office.ErrConflict) {
			t.Errorf("a used fingerprint: %v", err)
		}
	})
}
