package store_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// watch runs WatchChanges for the test and hands its batches over a
// channel; listening counts the PostgreSQL listener's (re)connections.
func watch(t *testing.T, s *store.Store, poll time.Duration) (<-chan store.Changes, *atomic.Int32) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan store.Changes, 256)
	var listening atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WatchChanges(ctx, store.WatchOptions{Poll: poll, OnListen: func() { listening.Add(1) }},
			func(c store.Changes) { out <- c })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out, &listening
}

// waitFor reads batches until ok accepts one, for at most d.
func waitFor(t *testing.T, ch <-chan store.Changes, d time.Duration, ok func(store.Changes) bool) bool {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case c := <-ch:
			if ok(c) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func newWatchedEvent(t *testing.T, s *store.Store, login string) store.Event {
	t.Helper()
	ctx := context.Background()
	u := store.User{Login: login, DisplayName: login, PasswordHash: "x"}
	o := store.Organiser{Name: "会", Kind: "other"}
	for _, v := range []any{&u, &o} {
		if err := s.DB(ctx).Create(v).Error; err != nil {
			t.Fatal(err)
		}
	}
	ev := store.Event{OrganiserID: o.ID, Name: "棋戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
	if err := s.DB(ctx).Create(&ev).Error; err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestWatchChanges_CommittedWriteIsHeardRollbackIsNot: on both databases
// a committed write to an event's game is announced for that event; a
// rolled-back one is not. On SQLite the poll is set to a minute, so what
// is heard comes from the commit's poke, not the tick.
func TestWatchChanges_CommittedWriteIsHeardRollbackIsNot(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ev := newWatchedEvent(t, s, "u1")
		other := newWatchedEvent(t, s, "u2")
		ch, listening := watch(t, s, time.Minute)
		deadline := time.Now().Add(10 * time.Second)
		for listening.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if listening.Load() == 0 {
			t.Fatal("the watcher never started")
		}
		errRollback := errors.New("roll back")
		if err := s.Tx(ctx, func(tx *store.Store) error {
			if err := tx.DB(ctx).Create(&store.Game{EventID: other.ID, Label: "消える"}).Error; err != nil {
				return err
			}
			return errRollback
		}); !errors.Is(err, errRollback) {
			t.Fatal(err)
		}
		if err := s.Tx(ctx, func(tx *store.Store) error {
			return tx.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "1"}).Error
		}); err != nil {
			t.Fatal(err)
		}
		heardOther := false
		if !waitFor(t, ch, 2*time.Second, func(c store.Changes) bool {
			heardOther = heardOther || slices.Contains(c.Events, other.ID)
			return slices.Contains(c.Events, ev.ID)
		}) {
			t.Fatal("a committed write was not announced within 2 s")
		}
		if heardOther {
			t.Fatal("a rolled-back write was announced")
		}
	})
}

// TestWatchChanges_PostgresListenerReconnects: when the listening
// connection is killed, the watcher connects again, says "look at
// everything" (what was sent meanwhile is lost), and hears later changes.
func TestWatchChanges_PostgresListenerReconnects(t *testing.T) {
	t.Parallel()
	s := storetest.Postgres(t)
	ctx := context.Background()
	ev := newWatchedEvent(t, s, "u")
	ch, listening := watch(t, s, 200*time.Millisecond)
	waitListening := func(n int32) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for listening.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("listener connected %d times, want %d", listening.Load(), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitListening(1)
	if err := s.DB(ctx).Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN ` + store.ChangeChannel + `'`).Error; err != nil {
		t.Fatal(err)
	}
	waitListening(2)
	if !waitFor(t, ch, 5*time.Second, func(c store.Changes) bool { return c.All }) {
		t.Fatal("no look-at-everything after reconnecting")
	}
	if err := s.DB(ctx).Create(&store.Game{EventID: ev.ID, Label: "後"}).Error; err != nil {
		t.Fatal(err)
	}
	if !waitFor(t, ch, 2*time.Second, func(c store.Changes) bool { return slices.Contains(c.Events, ev.ID) }) {
		t.Fatal("a change after the reconnection was not heard")
	}
}
