package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
	"kisen/web/api"
)

// Issue 15 part 3: two servers on one database spend from one bucket per
// client address, so the combined allowance is the configured one, not
// twice it. On PostgreSQL the server chooses the shared limiter itself;
// on SQLite (one process in production) the test asks for it, two stores
// on one file, to run the same statement there.
func TestAPI_RateLimitIsSharedByTwoServersOnOneDatabase(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, o store.Options) {
		now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
		cfg := config.Default()
		cfg.APIRate, cfg.APIBurst = 1, 5
		var urls []string
		for i := range 2 {
			s, err := store.Open(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			srv, err := New(Deps{Config: cfg, Office: office.New(s, func() time.Time { return now })})
			if err != nil {
				t.Fatal(err)
			}
			if s.Dialect() == store.Postgres {
				if srv.API.Limiter.Db == nil {
					t.Fatal("on PostgreSQL the API limiter is not the shared one")
				}
			} else {
				srv.API.Limiter = api.NewSharedAPILimiter(cfg.APIRate, cfg.APIBurst, s, srv.Log)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			urls = append(urls, ts.URL)
			_ = i
		}
		// 20 requests from one address, alternating servers, concurrently.
		var mu sync.Mutex
		counts := map[int]int{}
		var retry []string
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				resp, err := http.Get(urls[i%2] + api.APIPrefix + "/events")
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				defer mu.Unlock()
				counts[resp.StatusCode]++
				if resp.StatusCode == http.StatusTooManyRequests {
					retry = append(retry, resp.Header.Get("Retry-After"))
				}
			})
		}
		wg.Wait()
		if counts[200] != 5 || counts[429] != 15 {
			t.Fatalf("20 requests over two servers with a burst of 5: %v", counts)
		}
		for _, r := range retry {
			if r == "" || r == "0" {
				t.Fatalf("429 without Retry-After: %q", retry)
			}
		}
		// One second later one more request (rate 1/s), whichever server.
		now = now.Add(time.Second)
		var got []int
		for i := range 2 {
			resp, err := http.Get(urls[1-i] + api.APIPrefix + "/events")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got = append(got, resp.StatusCode)
		}
		if fmt.Sprint(got) != "[200 429]" {
			t.Fatalf("a second later: %v, want [200 429]", got)
		}
	})
}
