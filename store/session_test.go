package store_test

import (
	"context"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

func TestSessionStore_CommitFindExpireDelete(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		ss := store.NewSessionStore(s, func() time.Time { return now })
		if err := ss.CommitCtx(ctx, "a", []byte("one"), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := ss.CommitCtx(ctx, "a", []byte("two"), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := ss.CommitCtx(ctx, "old", []byte("x"), now.Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		b, ok, err := ss.FindCtx(ctx, "a")
		if err != nil || !ok || string(b) != "two" {
			t.Fatalf("find a: %q %v %v", b, ok, err)
		}
		if _, ok, _ := ss.FindCtx(ctx, "old"); ok {
			t.Fatal("expired session was found")
		}
		n, err := ss.DeleteExpired(ctx)
		if err != nil || n != 1 {
			t.Fatalf("delete expired: n=%d err=%v", n, err)
		}
		if err := ss.DeleteCtx(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := ss.FindCtx(ctx, "a"); ok {
			t.Fatal("deleted session was found")
		}
	})
}
