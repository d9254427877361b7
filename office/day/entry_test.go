package day_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// entryFixture is a published day with two classes (A: 初段 and up, B:
// 1級 and below), its form open with no deadline.
type entryFixture struct {
	*fixture
	a, b day.Class
}

func newEntryFixture(t *testing.T, s *store.Store) *entryFixture {
	f := newFixture(t, s)
	in := f.classInput("A級", day.FormatSwiss)
	in.RankMin = "初段"
	a := f.class(in)
	in = f.classInput("B級", day.FormatSwiss)
	in.RankMax = "1級"
	b := f.class(in)
	if err := f.o.SetEventStatus(f.ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	ef := &entryFixture{fixture: f, a: a, b: b}
	ef.settings(day.EntrySettingsInput{Open: true})
	return ef
}

func (f *entryFixture) settings(in day.EntrySettingsInput) {
	f.t.Helper()
	cur, err := f.d.EntrySettingsOf(f.ctx, f.admin, f.event.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	in.EventID, in.Version = f.event.ID, cur.Version
	if err := f.d.SetEntrySettings(f.ctx, f.admin, in); err != nil {
		f.t.Fatal(err)
	}
}

func (f *entryFixture) submit(name, reading, rank string) (store.DayEntry, string) {
	f.t.Helper()
	e, tok, err := f.d.SubmitEntry(f.ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: name, Reading: reading, Rank: rank, Club: "県支部", Contact: "090-0000-0000"}, fmt.Sprintf("192.0.2.%d", f.n))
	f.n++
	if err != nil {
		f.t.Fatalf("submit %s: %v", name, err)
	}
	return e, tok
}

func (f *entryFixture) counts() [3]int64 {
	f.t.Helper()
	var out [3]int64
	for i, m := range []any{&store.DayEntry{}, &store.Player{}, &store.DayEntrant{}} {
		if err := f.s.DB(f.ctx).Model(m).Count(&out[i]).Error; err != nil {
			f.t.Fatal(err)
		}
	}
	return out
}

func (f *entryFixture) row(id int64) day.EntryRow {
	f.t.Helper()
	rows, err := f.d.EntriesOf(f.ctx, f.admin, f.event.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, r := range rows {
		if r.ID == id {
			return r
		}
	}
	f.t.Fatalf("entry %d not listed", id)
	return day.EntryRow{}
}

// An entry is pending in the class its rank falls in; approving registers
// the player and enters them; merging enters the registered player the
// list suggests (高橋 悠斗 for 「高橋悠斗」); refusing needs a reason.
func TestEntries_ApproveMergeRefuse(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		reg := store.Player{Name: "高橋 悠斗", Reading: "たかはし ゆうと", Kind: store.PlayerAmateur, Rank: "二段", CreatedAt: now, UpdatedAt: now}
		if err := s.CreatePlayer(f.ctx, &reg); err != nil {
			t.Fatal(err)
		}
		e1, _ := f.submit("青木 健一", "アオキ ケンイチ", "三段")
		e2, _ := f.submit("高橋悠斗", "タカハシユウト", "二段")
		e3, _ := f.submit("佐藤 蓮", "さとう れん", "5級")
		if e1.ClassID != f.a.ID || e3.ClassID != f.b.ID || e1.Status != store.EntryPending || e1.Reading != "あおき けんいち" {
			t.Fatalf("entries: %+v / %+v", e1, e3)
		}
		r2 := f.row(e2.ID)
		if len(r2.Suggestions) != 1 || r2.Suggestions[0].Player.ID != reg.ID || r2.Suggestions[0].Kind != day.MatchSame {
			t.Fatalf("suggestions for 高橋悠斗: %+v", r2.Suggestions)
		}
		got, err := f.d.ApproveEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e1.ID, Version: e1.Version})
		if err != nil {
			t.Fatal(err)
		}
		en, err := s.DayEntrantOf(f.ctx, f.event.ID, *got.PlayerID)
		if err != nil || en.ClassID != f.a.ID {
			t.Fatalf("approved entrant: %+v, %v", en, err)
		}
		p, _ := s.PlayerByID(f.ctx, *got.PlayerID)
		if p.Name != "青木 健一" || p.Reading != "あおき けんいち" || p.Rank != "三段" || p.Affiliation != "県支部" {
			t.Errorf("registered player: %+v", p)
		}
		merged, err := f.d.ApproveEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e2.ID, Version: e2.Version, PlayerID: reg.ID})
		if err != nil || *merged.PlayerID != reg.ID {
			t.Fatalf("merge: %+v %v", merged, err)
		}
		if _, err := s.DayEntrantOf(f.ctx, f.event.ID, reg.ID); err != nil {
			t.Errorf("the merged player is not entered: %v", err)
		}
		before := f.counts()
		err = f.d.RefuseEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e3.ID, Version: e3.Version})
		if fieldCodes(err)["reason"] != "day_entry.err.reason" || f.counts() != before {
			t.Fatalf("refuse without a reason: %v", err)
		}
		if err := f.d.RefuseEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e3.ID, Version: e3.Version, Reason: "定員に達しました"}); err != nil {
			t.Fatal(err)
		}
		if r := f.row(e3.ID); r.Status != store.EntryRefused || r.Reason != "定員に達しました" || r.DecidedBy == nil {
			t.Errorf("refused: %+v", r.DayEntry)
		}
	})
}

// A class at its cap puts entries on the waiting list in order; a
// withdrawal through the private link or a refusal lets the first waiting
// entry into the pending list; a raised cap lets in as many as fit.
func TestEntries_CapAndWaitingList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		f.settings(day.EntrySettingsInput{Open: true, Caps: map[int64]string{f.a.ID: "2"}})
		e1, tok1 := f.submit("一", "いち", "初段")
		e2, _ := f.submit("二", "に", "初段")
		e3, tok3 := f.submit("三", "さん", "初段")
		e4, _ := f.submit("四", "よん", "初段")
		if e1.Status != store.EntryPending || e2.Status != store.EntryPending || e3.Status != store.EntryWaiting || e4.Status != store.EntryWaiting {
			t.Fatalf("statuses: %s %s %s %s", e1.Status, e2.Status, e3.Status, e4.Status)
		}
		if v, err := f.d.EntryByLink(f.ctx, tok3, "198.51.100.1"); err != nil || v.Place != 1 {
			t.Fatalf("place of the first waiting: %+v %v", v, err)
		}
		if err := f.d.WithdrawByLink(f.ctx, tok1, "198.51.100.1", e1.Version); err != nil {
			t.Fatal(err)
		}
		if r := f.row(e3.ID); r.Status != store.EntryPending {
			t.Errorf("after a withdrawal the first waiting is %s", r.Status)
		}
		if r := f.row(e4.ID); r.Status != store.EntryWaiting || r.Place != 1 {
			t.Errorf("the second waiting: %s place %d", r.Status, r.Place)
		}
		r2 := f.row(e2.ID)
		if err := f.d.RefuseEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e2.ID, Version: r2.Version, Reason: "重複"}); err != nil {
			t.Fatal(err)
		}
		if r := f.row(e4.ID); r.Status != store.EntryPending {
			t.Errorf("after a refusal the next waiting is %s", r.Status)
		}
		e5, _ := f.submit("五", "ご", "初段")
		if e5.Status != store.EntryWaiting {
			t.Fatalf("a full class took %s", e5.Status)
		}
		f.settings(day.EntrySettingsInput{Open: true, Caps: map[int64]string{f.a.ID: "5"}})
		if r := f.row(e5.ID); r.Status != store.EntryPending {
			t.Errorf("a raised cap left the entry %s", r.Status)
		}
	})
}

// The form takes nothing when closed, after its deadline, or for a day the
// public may not see; the settings refuse a bad deadline and cap.
func TestEntries_ClosedDeadlineAndDraft(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		in := day.EntryFormInput{EventID: f.event.ID, Name: "青木", Reading: "あおき", Rank: "初段", Contact: "a@example.jp"}
		f.settings(day.EntrySettingsInput{Open: false})
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.1"); !errors.Is(err, day.ErrEntryClosed) {
			t.Fatalf("closed form: %v", err)
		}
		// The fixture's clock is 2026-05-03 00:30 UTC = 09:30 JST.
		f.settings(day.EntrySettingsInput{Open: true, Deadline: "2026-05-03T09:30"})
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.1"); !errors.Is(err, day.ErrEntryClosed) {
			t.Fatalf("at the deadline: %v", err)
		}
		f.settings(day.EntrySettingsInput{Open: true, Deadline: "2026-05-03T09:31"})
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.1"); err != nil {
			t.Fatalf("a minute before the deadline: %v", err)
		}
		cur, _ := f.d.EntrySettingsOf(f.ctx, f.admin, f.event.ID)
		err := f.d.SetEntrySettings(f.ctx, f.admin, day.EntrySettingsInput{EventID: f.event.ID, Version: cur.Version, Open: true, Deadline: "5月1日", Caps: map[int64]string{f.a.ID: "-1"}})
		codes := fieldCodes(err)
		if codes["deadline"] != "day_entry.err.deadline" || codes[fmt.Sprintf("cap_%d", f.a.ID)] != "day_entry.err.cap" {
			t.Fatalf("bad settings: %v", err)
		}
		if err := f.d.SetEntrySettings(f.ctx, f.admin, day.EntrySettingsInput{EventID: f.event.ID, Version: cur.Version - 1, Open: false}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale settings: %v", err)
		}

		e, err := f.d.CreateDay(f.ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "下書きの大会", StartDate: "2026-06-01", EndDate: "2026-06-01"})
		if err != nil {
			t.Fatal(err)
		}
		in.EventID = e.ID
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.1"); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a draft day: %v", err)
		}
		if _, err := f.d.EntryFormOf(f.ctx, office.Actor{}, e.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a draft day's form: %v", err)
		}
	})
}

// A bad field is a field error naming it and stores nothing: no entry,
// no player, no entrant.
func TestEntries_BadFieldsStoreNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		before := f.counts()
		cases := []struct {
			in    day.EntryFormInput
			field string
			code  string
		}{
			{day.EntryFormInput{Name: "", Reading: "あおき", Rank: "初段", Contact: "x"}, "name", "players.err.required"},
			{day.EntryFormInput{Name: "青木", Reading: "青木", Rank: "初段", Contact: "x"}, "reading", "players.err.reading_kana"},
			{day.EntryFormInput{Name: "青木", Reading: "あおき", Rank: "強い", Contact: "x"}, "rank", "day.err.rank"},
			{day.EntryFormInput{Name: "青木", Reading: "あおき", Rank: "初段", Contact: ""}, "contact", "players.err.required"},
			{day.EntryFormInput{Name: "青木\t健", Reading: "あおき", Rank: "初段", Contact: "x"}, "name", "players.err.control"},
			{day.EntryFormInput{Name: "青木", Reading: "あおき", Rank: "初段", Contact: "x", ClassID: f.b.ID}, "class", "day_entry.err.class_rank"},
		}
		for i, c := range cases {
			c.in.EventID = f.event.ID
			_, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, c.in, fmt.Sprintf("203.0.113.%d", i))
			if got := fieldCodes(err)[c.field]; got != c.code {
				t.Errorf("case %d: field %s = %q (%v), want %s", i, c.field, got, err, c.code)
			}
		}
		if after := f.counts(); after != before {
			t.Errorf("rows before %v, after %v", before, after)
		}
		f.submit("青木", "あおき", "初段")
		_, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: "青木", Reading: "アオキ", Rank: "初段", Contact: "y"}, "203.0.113.99")
		if fieldCodes(err)["name"] != "day_entry.err.twice" {
			t.Errorf("the same entrant twice: %v", err)
		}
	})
}

// Withdrawing through the link: a wrong token is not found; a stale
// version is a conflict; an approved entry's entrant is withdrawn too; a
// decision at a stale version is a conflict.
func TestEntries_WithdrawAndStaleVersions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		e, tok := f.submit("青木", "あおき", "初段")
		if _, err := f.d.EntryByLink(f.ctx, tok+"x", "198.51.100.7"); !errors.Is(err, day.ErrBadEntryToken) || !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("wrong token: %v", err)
		}
		got, err := f.d.ApproveEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e.ID, Version: e.Version})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.ApproveEntry(f.ctx, f.admin, day.EntryDecision{EventID: f.event.ID, EntryID: e.ID, Version: e.Version}); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("approve at a stale version: %v", err)
		}
		if err := f.d.WithdrawByLink(f.ctx, tok, "198.51.100.7", e.Version); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("withdraw at a stale version: %v", err)
		}
		v, err := f.d.EntryByLink(f.ctx, tok, "198.51.100.7")
		if err != nil || !v.CanWithdraw || v.Entry.Status != store.EntryApproved {
			t.Fatalf("the link after approval: %+v %v", v, err)
		}
		before, err := s.DayEntrantOf(f.ctx, f.event.ID, *got.PlayerID)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.d.WithdrawByLink(f.ctx, tok, "198.51.100.7", v.Entry.Version); err != nil {
			t.Fatal(err)
		}
		en, err := s.DayEntrantOf(f.ctx, f.event.ID, *got.PlayerID)
		if err != nil || !en.Withdrawn() || en.WithdrawnBy != nil {
			t.Fatalf("entrant after withdrawal by link: %+v %v", en, err)
		}
		// The desk's row moves with it: a desk holding the old version
		// is stale, and the live fetch sends the row again.
		if en.Version != before.Version+1 {
			t.Errorf("entrant version %d after withdrawal by link, was %d", en.Version, before.Version)
		}
		if err := f.d.WithdrawByLink(f.ctx, tok, "198.51.100.7", v.Entry.Version+1); fieldCodes(err)["entry"] != "day_entry.err.cannot_withdraw" {
			t.Fatalf("withdraw twice: %v", err)
		}
	})
}

// The form's rate limit: ten entries from an address at once, then none
// until the bucket refills (the clock does not move here).
func TestEntries_RateLimitPerAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		for i := 0; i < day.EntryRateBurst; i++ {
			in := day.EntryFormInput{EventID: f.event.ID, Name: fmt.Sprintf("選手%d", i), Reading: "せんしゅ", Rank: "初段", Contact: "x"}
			in.Reading += string(rune('あ' + i))
			if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.200"); err != nil {
				t.Fatalf("entry %d: %v", i, err)
			}
		}
		in := day.EntryFormInput{EventID: f.event.ID, Name: "次", Reading: "つぎ", Rank: "初段", Contact: "x"}
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.200"); !errors.Is(err, day.ErrEntryRate) {
			t.Fatalf("entry past the burst: %v", err)
		}
		if _, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, in, "192.0.2.201"); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
}

// Two entries posted at once to a class with one place left: one is
// pending, the other waits (the day's row is locked while places are
// counted).
func TestEntries_ConcurrentEntriesNeverOverrunTheCap(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newEntryFixture(t, s)
		f.settings(day.EntrySettingsInput{Open: true, Caps: map[int64]string{f.a.ID: "1"}})
		type res struct {
			e   store.DayEntry
			err error
		}
		out := make(chan res, 2)
		for i, name := range []string{"甲", "乙"} {
			go func() {
				e, _, err := f.d.SubmitEntry(f.ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: name, Reading: []string{"こう", "おつ"}[i], Rank: "初段", Contact: "x"}, fmt.Sprintf("198.51.100.%d", 50+i))
				out <- res{e, err}
			}()
		}
		statuses := map[string]int{}
		for range 2 {
			r := <-out
			if r.err != nil {
				t.Fatal(r.err)
			}
			statuses[r.e.Status]++
		}
		if statuses[store.EntryPending] != 1 || statuses[store.EntryWaiting] != 1 {
			t.Fatalf("statuses %v, want one pending and one waiting", statuses)
		}
	})
}
