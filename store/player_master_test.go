package store_test

import (
	"context"
	"testing"

	"kisen/store"
	"kisen/store/storetest"
)

func addPeriod(t *testing.T, s *store.Store, m store.PlayerMaster) store.PlayerMaster {
	t.Helper()
	m.CreatedAt, m.UpdatedAt = testNow, testNow
	if err := s.AddMasterPeriod(context.Background(), &m); err != nil {
		t.Fatalf("add period %+v: %v", m, err)
	}
	return m
}

func masterPtr(id int64) *int64 { return &id }

// A master–student pair on a date is what D-A1, D-A2 and D-A5 forbid in
// certain rounds (001 第8条A); the pair must be judged on the draw date.
func TestIsMasterOf_D_A1_DependsOnTheDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		oldMaster := addPlayer(t, s, "旧師", "きゅうし")
		newMaster := addPlayer(t, s, "新師", "しんし")
		pupil := addPlayer(t, s, "弟子", "でし")
		first := addPeriod(t, s, store.PlayerMaster{DiscipleID: pupil.ID, MasterPlayerID: masterPtr(oldMaster.ID), FromDate: day("2010-04-01")})
		if err := s.CloseMasterPeriod(ctx, first.ID, day("2015-03-31"), testNow); err != nil {
			t.Fatal(err)
		}
		addPeriod(t, s, store.PlayerMaster{DiscipleID: pupil.ID, MasterPlayerID: masterPtr(newMaster.ID), FromDate: day("2015-04-01")})
		cases := []struct {
			master int64
			on     string
			want   bool
		}{
			{oldMaster.ID, "2010-03-31", false},
			{oldMaster.ID, "2010-04-01", true},
			{oldMaster.ID, "2015-03-31", true},
			{oldMaster.ID, "2015-04-01", false},
			{newMaster.ID, "2015-03-31", false},
			{newMaster.ID, "2015-04-01", true},
			{newMaster.ID, "2099-01-01", true},
		}
		for _, c := range cases {
			got, err := s.IsMasterOf(ctx, c.master, pupil.ID, day(c.on))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("IsMasterOf(%d, pupil, %s) = %v, want %v", c.master, c.on, got, c.want)
			}
			// The relation is directed: the pupil is never the master.
			if back, _ := s.IsMasterOf(ctx, pupil.ID, c.master, day(c.on)); back {
				t.Errorf("pupil reported as master of %d on %s", c.master, c.on)
			}
		}
		if err := s.CloseMasterPeriod(ctx, first.ID, day("2016-01-01"), testNow); err == nil {
			t.Error("closing an already closed period succeeded")
		}
	})
}

// 兄弟弟子 (D-A4, and the federation's A/B1 practice) share a master on the
// date; an outside teacher counts when name and reading match after folding.
func TestAreFellowDisciples_D_A4_SameMasterOnTheDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		m := addPlayer(t, s, "師匠", "ししょう")
		a := addPlayer(t, s, "甲", "こう")
		b := addPlayer(t, s, "乙", "おつ")
		c := addPlayer(t, s, "丙", "へい")
		d := addPlayer(t, s, "丁", "てい")
		e := addPlayer(t, s, "戊", "ぼ")
		addPeriod(t, s, store.PlayerMaster{DiscipleID: a.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("2000-01-01")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: b.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("2005-01-01")})
		// c and d: the same outside teacher written in different widths/kana.
		addPeriod(t, s, store.PlayerMaster{DiscipleID: c.ID, TeacherName: "田中 一郎", TeacherReading: "たなか いちろう", FromDate: day("2000-01-01")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: d.ID, TeacherName: "田中一郎", TeacherReading: "ﾀﾅｶｲﾁﾛｳ", FromDate: day("2000-01-01")})
		// e: a different teacher with the same name but another reading.
		addPeriod(t, s, store.PlayerMaster{DiscipleID: e.ID, TeacherName: "田中一郎", TeacherReading: "たなかかずお", FromDate: day("2000-01-01")})
		cases := []struct {
			x, y int64
			on   string
			want bool
		}{
			{a.ID, b.ID, "2004-12-31", false},
			{a.ID, b.ID, "2005-01-01", true},
			{b.ID, a.ID, "2005-01-01", true},
			{a.ID, a.ID, "2005-01-01", false},
			{a.ID, m.ID, "2005-01-01", false},
			{c.ID, d.ID, "2005-01-01", true},
			{c.ID, e.ID, "2005-01-01", false},
			{a.ID, c.ID, "2005-01-01", false},
		}
		for _, tc := range cases {
			got, err := s.AreFellowDisciples(ctx, tc.x, tc.y, day(tc.on))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("AreFellowDisciples(%d, %d, %s) = %v, want %v", tc.x, tc.y, tc.on, got, tc.want)
			}
		}
		keys, err := s.MastersOn(ctx, day("2005-06-01"), []int64{a.ID, b.ID, c.ID, d.ID, e.ID, m.ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 5 {
			t.Fatalf("masters of 6 players (one without a master): %v", keys)
		}
		if keys[a.ID] != store.PlayerMasterKey(m.ID) || keys[a.ID] != keys[b.ID] || keys[c.ID] != keys[d.ID] || keys[c.ID] == keys[e.ID] {
			t.Errorf("master keys %v", keys)
		}
		if _, ok := keys[m.ID]; ok {
			t.Error("the master, who has no master, got a key")
		}
	})
}

func TestLineage_D_A4_MasterDisciplesFellowsAndHistory(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		grand := addPlayer(t, s, "大師匠", "おおししょう")
		m := addPlayer(t, s, "師匠", "ししょう")
		p := addPlayer(t, s, "本人", "ほんにん")
		fellow := addPlayer(t, s, "兄弟子", "あにでし")
		former := addPlayer(t, s, "元兄弟子", "もとあにでし")
		pupil := addPlayer(t, s, "弟子", "でし")
		addPeriod(t, s, store.PlayerMaster{DiscipleID: m.ID, MasterPlayerID: masterPtr(grand.ID), FromDate: day("1980-01-01")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: p.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("2000-01-01")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: fellow.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("1995-01-01")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: former.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("1990-01-01"), ToDate: day("1999-12-31")})
		addPeriod(t, s, store.PlayerMaster{DiscipleID: pupil.ID, MasterPlayerID: masterPtr(p.ID), FromDate: day("2020-01-01")})
		l, err := s.Lineage(ctx, p.ID, day("2021-01-01"))
		if err != nil {
			t.Fatal(err)
		}
		if l.Master == nil || *l.Master.MasterPlayerID != m.ID {
			t.Fatalf("master = %+v", l.Master)
		}
		if len(l.Disciples) != 1 || l.Disciples[0].DiscipleID != pupil.ID {
			t.Errorf("disciples = %+v", l.Disciples)
		}
		if len(l.Fellows) != 1 || l.Fellows[0].DiscipleID != fellow.ID {
			t.Errorf("fellows = %+v (the former disciple left before this date)", l.Fellows)
		}
		if len(l.History) != 1 || len(l.Taught) != 1 {
			t.Errorf("history %d taught %d", len(l.History), len(l.Taught))
		}
		before, err := s.Lineage(ctx, p.ID, day("1999-06-01"))
		if err != nil {
			t.Fatal(err)
		}
		if before.Master != nil || len(before.Fellows) != 0 || len(before.Disciples) != 0 {
			t.Errorf("before joining: %+v", before)
		}
	})
}

func TestMastersOn_ManyIDsInChunks(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		m := addPlayer(t, s, "師匠", "ししょう")
		var ids []int64
		var ps []*store.Player
		for range 2000 {
			ps = append(ps, &store.Player{Name: "弟子", Reading: "でし", Kind: store.PlayerAmateur, CreatedAt: testNow, UpdatedAt: testNow})
		}
		if err := s.CreatePlayers(ctx, ps); err != nil {
			t.Fatal(err)
		}
		var periods []*store.PlayerMaster
		for i, p := range ps {
			ids = append(ids, p.ID)
			if i%2 == 0 {
				periods = append(periods, &store.PlayerMaster{DiscipleID: p.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("2000-01-01"), CreatedAt: testNow, UpdatedAt: testNow})
			}
		}
		if err := s.AddMasterPeriods(ctx, periods); err != nil {
			t.Fatal(err)
		}
		keys, err := s.MastersOn(ctx, day("2001-01-01"), ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 1000 {
			t.Fatalf("%d keys, want 1000", len(keys))
		}
		for i, p := range ps {
			if _, ok := keys[p.ID]; ok != (i%2 == 0) {
				t.Fatalf("player %d: has key %v", i, ok)
			}
		}
	})
}

func TestCloseMasterPeriod_KeepsMasterKey(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		m := addPlayer(t, s, "師匠", "ししょう")
		p := addPlayer(t, s, "弟子", "でし")
		period := addPeriod(t, s, store.PlayerMaster{DiscipleID: p.ID, MasterPlayerID: masterPtr(m.ID), FromDate: day("2000-01-01")})
		if err := s.CloseMasterPeriod(ctx, period.ID, day("2010-12-31"), testNow); err != nil {
			t.Fatal(err)
		}
		h, err := s.MasterPeriods(ctx, p.ID)
		if err != nil || len(h) != 1 {
			t.Fatalf("%+v %v", h, err)
		}
		if h[0].MasterKey != store.PlayerMasterKey(m.ID) || h[0].ToDate.String() != "2010-12-31" {
			t.Errorf("closed period %+v", h[0])
		}
	})
}
