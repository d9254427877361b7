package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

func TestSetupTokens_ValidUntilExpiryAndPruned(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		if err := s.PutSetupToken(ctx, "aa", now.Add(time.Hour), now); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSetupToken(ctx, "bb", now.Add(2*time.Hour), now); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			hash string
			at   time.Time
			want bool
		}{
			{"aa", now, true},
			{"aa", now.Add(time.Hour - time.Nanosecond), true},
			{"aa", now.Add(time.Hour), false},
			{"bb", now.Add(time.Hour), true},
			{"cc", now, false},
		} {
			if got, err := s.SetupTokenValid(ctx, tc.hash, tc.at); got != tc.want || err != nil {
				t.Errorf("%s at +%s: %v %v", tc.hash, tc.at.Sub(now), got, err)
			}
		}
		if err := s.PruneSetupTokens(ctx, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.GetSetting(ctx, "setup.token.aa"); ok {
			t.Fatal("expired token not pruned")
		}
		if _, ok, _ := s.GetSetting(ctx, "setup.token.bb"); !ok {
			t.Fatal("valid token pruned")
		}
		if err := s.PutSetting(ctx, "other", "keep", now); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSetupTokens(ctx); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.SetupTokenValid(ctx, "bb", now); ok {
			t.Fatal("token left after DeleteSetupTokens")
		}
		if v, ok, _ := s.GetSetting(ctx, "other"); !ok || v != "keep" {
			t.Fatal("DeleteSetupTokens removed another setting")
		}
	})
}
