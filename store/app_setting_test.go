package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

func TestAppSetting_PutGetReplaceDelete(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		if _, ok, err := s.GetSetting(ctx, "k"); err != nil || ok {
			t.Fatalf("absent setting: ok=%v err=%v", ok, err)
		}
		if err := s.PutSetting(ctx, "k", "v1", now); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSetting(ctx, "k", "v2", now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		v, ok, err := s.GetSetting(ctx, "k")
		if err != nil || !ok || v != "v2" {
			t.Fatalf("got %q ok=%v err=%v, want v2", v, ok, err)
		}
		if err := s.DeleteSetting(ctx, "k"); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.GetSetting(ctx, "k"); ok {
			t.Fatal("setting still there after delete")
		}
	})
}

// Issue 21 item 10 (the API's cursor key): processes that make a setting
// at once agree on one value — eight callers over two connections pools
// (two Stores, as two processes) race on an absent key; all read the
// value of the one insert that won, and a later call makes nothing.
func TestAppSetting_SettingOrCreateRacersAgreeOnOneValue(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, o store.Options) {
		ctx := context.Background()
		now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		var stores []*store.Store
		for range 2 {
			s, err := store.Open(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			stores = append(stores, s)
		}
		got := make([]string, 8)
		var made atomic.Int32
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() {
				v, err := stores[i%2].SettingOrCreate(ctx, "race.key", func() (string, error) {
					return fmt.Sprintf("value-%d", made.Add(1)), nil
				}, now)
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		wg.Wait()
		for _, v := range got {
			if v != got[0] || !strings.HasPrefix(v, "value-") {
				t.Fatalf("racers read %q", got)
			}
		}
		before := made.Load()
		v, err := stores[1].SettingOrCreate(ctx, "race.key", func() (string, error) { made.Add(1); return "late", nil }, now)
		if err != nil || v != got[0] || made.Load() != before {
			t.Fatalf("a later call: %q %v, made %d→%d", v, err, before, made.Load())
		}
	})
}
