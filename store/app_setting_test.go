package store_test

import (
	"context"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

func TestAppSetting_PutGetReplaceDelete(t *testing.T) {
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
