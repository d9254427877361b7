package office_test

import (
	"context"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func singleError(t *testing.T, err error, field, code string) {
	t.Helper()
	fields := playerErrors(t, err)
	if len(fields) != 1 || fields[0].Field != field || fields[0].Code != code {
		t.Errorf("got %+v, want %s/%s", fields, field, code)
	}
}

// Changing the master keeps the old period (closed the day before) so that
// a draw dated before the change still sees the old 師弟 pair (D-A1, D-A2).
func TestChangeMaster_D_A2_KeepsHistoryAndAnswersByDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		old := mustCreate(t, o, validPlayer("旧師匠", "きゅうししょう"))
		nw := mustCreate(t, o, validPlayer("新師匠", "しんししょう"))
		p := mustCreate(t, o, validPlayer("弟子", "でし"))
		if err := o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: old.ID}, "2010-04-01"); err != nil {
			t.Fatal(err)
		}
		if err := o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{Number: ""}, "2015-04-01"); err == nil {
			t.Fatal("a change without a master was accepted")
		}
		if err := o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: nw.ID}, "2015-04-01"); err != nil {
			t.Fatal(err)
		}
		l, err := o.Lineage(ctx, p.ID, pd("2020-01-01"))
		if err != nil {
			t.Fatal(err)
		}
		if len(l.History) != 2 || l.History[0].ToDate.String() != "2015-03-31" || !l.History[1].Open() {
			t.Fatalf("history %+v", l.History)
		}
		if l.Master == nil || *l.Master.MasterPlayerID != nw.ID || l.People[nw.ID].Name != "新師匠" {
			t.Fatalf("master on 2020-01-01: %+v", l.Master)
		}
		for _, c := range []struct {
			master int64
			on     string
			want   bool
		}{{old.ID, "2015-03-31", true}, {old.ID, "2015-04-01", false}, {nw.ID, "2015-04-01", true}, {nw.ID, "2015-03-31", false}} {
			got, err := o.IsMasterOf(ctx, c.master, p.ID, pd(c.on))
			if err != nil || got != c.want {
				t.Errorf("IsMasterOf(%d, %s) = %v %v, want %v", c.master, c.on, got, err, c.want)
			}
		}
		// The same master again, a date not after the current start, and
		// oneself are refused; nothing changes.
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: nw.ID}, "2020-01-01"), "master_number", "players.err.master_same")
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: old.ID}, "2015-04-01"), "master_since", "players.err.master_since_order")
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: p.ID}, "2020-01-01"), "master_number", "players.err.master_self")
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: 999999}, "2020-01-01"), "master_id", "players.err.master_unknown")
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: old.ID}, "2020-02-30"), "master_since", "players.err.date_format")
		singleError(t, o.ChangeMaster(ctx, playerAdmin, p.ID, office.MasterRef{PlayerID: old.ID, TeacherName: "某"}, "2020-01-01"), "master_name", "players.err.master_both")
		if h, _ := s.MasterPeriods(ctx, p.ID); len(h) != 2 {
			t.Errorf("refused changes wrote periods: %d", len(h))
		}
	})
}

func TestChangeMaster_D_A1_RefusesCycles(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		a := mustCreate(t, o, validPlayer("甲", "こう"))
		b := mustCreate(t, o, validPlayer("乙", "おつ"))
		c := mustCreate(t, o, validPlayer("丙", "へい"))
		if err := o.ChangeMaster(ctx, playerAdmin, b.ID, office.MasterRef{PlayerID: a.ID}, "2000-01-01"); err != nil {
			t.Fatal(err)
		}
		if err := o.ChangeMaster(ctx, playerAdmin, c.ID, office.MasterRef{PlayerID: b.ID}, "2000-01-01"); err != nil {
			t.Fatal(err)
		}
		// a under c would make a, b, c each other's masters at once.
		singleError(t, o.ChangeMaster(ctx, playerAdmin, a.ID, office.MasterRef{PlayerID: c.ID}, "2020-01-01"), "master_number", "players.err.master_cycle")
		singleError(t, o.AddMasterPeriod(ctx, playerAdmin, a.ID, office.MasterRef{PlayerID: b.ID}, "1990-01-01", "2000-01-01"), "master_number", "players.err.master_cycle")
		// Before b had a as master, b may have been a's master.
		if err := o.AddMasterPeriod(ctx, playerAdmin, a.ID, office.MasterRef{PlayerID: b.ID}, "1990-01-01", "1999-12-31"); err != nil {
			t.Fatalf("non-overlapping reverse period: %v", err)
		}
	})
}

func TestAddAndEndMaster_OverlapOrderAndTeachers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		o := playerOffice(s)
		ctx := context.Background()
		p := mustCreate(t, o, validPlayer("弟子", "でし"))
		q := mustCreate(t, o, validPlayer("兄弟子", "あにでし"))
		teacher := office.MasterRef{TeacherName: "田中 一郎", TeacherReading: "タナカ イチロウ"}
		if err := o.AddMasterPeriod(ctx, playerAdmin, p.ID, teacher, "2000-01-01", "2004-12-31"); err != nil {
			t.Fatal(err)
		}
		singleError(t, o.AddMasterPeriod(ctx, playerAdmin, p.ID, teacher, "2004-12-31", ""), "master_since", "players.err.master_overlap")
		singleError(t, o.AddMasterPeriod(ctx, playerAdmin, p.ID, teacher, "2010-01-01", "2009-01-01"), "master_until", "players.err.master_order")
		singleError(t, o.AddMasterPeriod(ctx, playerAdmin, p.ID, office.MasterRef{TeacherName: "田中"}, "2010-01-01", ""), "master_reading", "players.err.required")
		singleError(t, o.AddMasterPeriod(ctx, playerAdmin, p.ID, office.MasterRef{TeacherName: "田中", TeacherReading: "tanaka"}, "2010-01-01", ""), "master_reading", "players.err.reading_kana")
		singleError(t, o.EndMaster(ctx, playerAdmin, p.ID, "2020-01-01"), "master_until", "players.err.master_none")
		if err := o.ChangeMaster(ctx, playerAdmin, p.ID, teacher, "2005-01-01"); err != nil {
			t.Fatalf("teacher again after a gap: %v", err)
		}
		if err := o.ChangeMaster(ctx, playerAdmin, q.ID, office.MasterRef{TeacherName: "田中一郎", TeacherReading: "たなかいちろう"}, "2003-01-01"); err != nil {
			t.Fatal(err)
		}
		// The same outside teacher (after folding) makes them 兄弟弟子 (D-A4).
		if ok, err := o.AreFellowDisciples(ctx, p.ID, q.ID, pd("2006-01-01")); err != nil || !ok {
			t.Errorf("fellow disciples on 2006-01-01: %v %v", ok, err)
		}
		singleError(t, o.EndMaster(ctx, playerAdmin, p.ID, "2004-01-01"), "master_until", "players.err.master_order")
		if err := o.EndMaster(ctx, playerAdmin, p.ID, "2010-12-31"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := o.AreFellowDisciples(ctx, p.ID, q.ID, pd("2011-01-01")); ok {
			t.Error("still fellow disciples after the relation ended")
		}
		keys, err := o.MastersAsOf(ctx, pd("2006-01-01"), []int64{p.ID, q.ID})
		if err != nil || len(keys) != 2 || keys[p.ID] != keys[q.ID] {
			t.Errorf("MastersAsOf: %v %v", keys, err)
		}
	})
}
