package store_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// The shared bucket (00145): a burst, then one request per interval, the
// wait of a refused request, and the address's own bucket; pruning
// forgets only full buckets.
func TestRateSpend_BucketOfBurstRefilledAtTheRate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
		every := 500 * time.Millisecond // 2 a second
		spend := func(addr string, at time.Time) (bool, time.Duration) {
			t.Helper()
			ok, wait, err := s.RateSpend(ctx, addr, at, every, 3)
			if err != nil {
				t.Fatal(err)
			}
			return ok, wait
		}
		for i := range 3 {
			if ok, _ := spend("192.0.2.1", t0); !ok {
				t.Fatalf("request %d of the burst refused", i+1)
			}
		}
		ok, wait := spend("192.0.2.1", t0)
		if ok || wait != every {
			t.Fatalf("4th at once: ok %v wait %v, want refused for %v", ok, wait, every)
		}
		// A refused request does not move the bucket.
		if ok, wait := spend("192.0.2.1", t0.Add(100*time.Millisecond)); ok || wait != 400*time.Millisecond {
			t.Fatalf("again 100ms later: ok %v wait %v", ok, wait)
		}
		if ok, _ := spend("192.0.2.1", t0.Add(every)); !ok {
			t.Fatal("refilled one after the interval: refused")
		}
		if ok, _ := spend("192.0.2.1", t0.Add(every)); ok {
			t.Fatal("only one refilled")
		}
		if ok, _ := spend("192.0.2.2", t0); !ok {
			t.Fatal("another address refused")
		}
		// Much later the bucket is full: a burst of 3 again.
		later := t0.Add(time.Hour)
		if err := s.PruneRateLimits(ctx, later); err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := s.DB(ctx).Model(&store.APIRateLimit{}).Count(&n).Error; err != nil || n != 0 {
			t.Fatalf("after prune: %d rows, %v", n, err)
		}
		for i := range 3 {
			if ok, _ := spend("192.0.2.1", later); !ok {
				t.Fatalf("burst after an hour: %d refused", i+1)
			}
		}
		// Concurrent requests at one instant: exactly the burst goes through.
		var allowed atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				ok, _, err := s.RateSpend(ctx, "198.51.100.7", t0, time.Second, 5)
				if err != nil {
					t.Error(err)
				}
				if ok {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		if allowed.Load() != 5 {
			t.Fatalf("16 at once with a burst of 5: %d allowed", allowed.Load())
		}
	})
}

// BenchmarkRateSpend is the rate limit's cost per API request: one upsert
// (PostgreSQL when KISEN_TEST_DATABASE_URL is set, else SQLite), 100
// client addresses.
func BenchmarkRateSpend(b *testing.B) {
	var s *store.Store
	if os.Getenv("KISEN_TEST_DATABASE_URL") != "" {
		s = storetest.Postgres(b)
	} else {
		s = storetest.SQLite(b)
	}
	ctx := context.Background()
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		i++
		if _, _, err := s.RateSpend(ctx, "192.0.2."+strconv.Itoa(i%100), t0.Add(time.Duration(i)*time.Millisecond), 100*time.Millisecond, 60); err != nil {
			b.Fatal(err)
		}
	}
}
