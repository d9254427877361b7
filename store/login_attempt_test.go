package store_test

import (
	"context"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

func TestLoginAttempts_CountWindowClearAndPrune(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		for i, r := range []struct{ login, ip string }{{"sato", "a"}, {"sato", "b"}, {"kato", "a"}, {"sato", "a"}} {
			if err := s.RecordLoginFailure(ctx, r.login, r.ip, t0.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			since         time.Time
			byLogin, byIP int64
		}{
			{t0.Add(-time.Second), 3, 3}, // sato: 0,1,3 min; address a: 0,2,3 min
			{t0, 2, 2},                   // since is exclusive
			{t0.Add(90 * time.Second), 1, 2},
			{t0.Add(3 * time.Minute), 0, 0},
		} {
			l, ip, err := s.LoginFailures(ctx, "sato", "a", tc.since)
			if err != nil || l != tc.byLogin || ip != tc.byIP {
				t.Errorf("since %s: login %d ip %d (%v); want %d %d", tc.since.Format(time.TimeOnly), l, ip, err, tc.byLogin, tc.byIP)
			}
		}
		if err := s.ClearLoginFailures(ctx, "sato", "a"); err != nil {
			t.Fatal(err)
		}
		if l, ip, _ := s.LoginFailures(ctx, "sato", "a", t0.Add(-time.Hour)); l != 1 || ip != 1 {
			t.Fatalf("after clearing sato at a: login %d ip %d; want sato's 1 from b and kato's 1", l, ip)
		}
		if err := s.PruneLoginAttempts(ctx, t0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		var n int64
		s.DB(ctx).Model(&store.LoginAttempt{}).Count(&n)
		if n != 0 {
			t.Fatalf("%d rows after pruning everything older than the last", n)
		}
	})
}

func TestEventRoles_UniquePerTriple(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		u := store.User{Login: "sato", DisplayName: "佐藤", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		org := store.Organiser{Name: "連盟", Kind: "federation", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateOrganiser(ctx, &org); err != nil {
			t.Fatal(err)
		}
		e := store.Event{OrganiserID: org.ID, Name: "棋戦", Kind: "league", StartDate: "2026-04-01", EndDate: "2026-04-01", Status: "draft", CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
		if err := s.CreateEvent(ctx, &e); err != nil {
			t.Fatal(err)
		}
		grant := func(role string) error {
			return s.GrantEventRole(ctx, &store.EventRole{EventID: e.ID, UserID: u.ID, Role: role, GrantedBy: u.ID, CreatedAt: now})
		}
		if err := grant("arbiter"); err != nil {
			t.Fatal(err)
		}
		if err := grant("recorder"); err != nil {
			t.Fatalf("a second role for the same user: %v", err)
		}
		if err := grant("arbiter"); !errorsIs(err, store.ErrConflict) {
			t.Fatalf("same triple twice: %v, want ErrConflict", err)
		}
		if err := grant("king"); err == nil {
			t.Fatal("unknown role accepted by the database")
		}
		if ok, _ := s.HasEventRole(ctx, e.ID, u.ID, "director", "recorder"); !ok {
			t.Fatal("HasEventRole misses a held role")
		}
		// End before start is refused by the database as well as by office.
		bad := e
		bad.ID, bad.EndDate = 0, "2026-03-31"
		if err := s.CreateEvent(ctx, &bad); err == nil {
			t.Fatal("event ending before it starts was stored")
		}
	})
}
