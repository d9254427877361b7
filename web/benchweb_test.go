package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kisen/config"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// TestBenchWeb is the load benchmark of issue 12 (`make bench-web`). It
// seeds, through office's own use cases, a 順位戦 C2 class of 61 players
// with every game decided, a published 1,024-entrant stage with round 1
// played, a player with 1,000 decided games and a registry of about 3,000
// players, serves the real handler on a local port, and reports per page:
// requests per second at 50 concurrent clients, the ratio to /healthz in
// the same run, the median latency at one client, SQL statements per
// request, bytes allocated per request, and the process's peak resident
// memory. It runs on PostgreSQL when KISEN_TEST_DATABASE_URL is set, else
// on SQLite. Set KISEN_BENCH_WEB=1 to run it (it takes minutes).
func TestBenchWeb(t *testing.T) {
	if os.Getenv("KISEN_BENCH_WEB") != "1" {
		t.Skip("load benchmark: set KISEN_BENCH_WEB=1 (make bench-web)")
	}
	var s *store.Store
	if os.Getenv("KISEN_TEST_DATABASE_URL") != "" {
		s = storetest.Postgres(t)
	} else {
		s = storetest.SQLite(t)
	}
	ctx := context.Background()
	now := time.Now()
	srv, err := New(Deps{Config: config.Default(), Store: s, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	f, err := seed.New(ctx, srv.office, s, now)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, class, err := f.League(ctx, 61, 305)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded league (61 players, 305 games decided) in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	ko, _, err := f.Knockout(ctx, 1024, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded bracket (1,024 entrants, round 1 played) in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	player, err := f.Record(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded record (1,000 games) in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if _, err := f.Players(ctx, 3000-61-1024-11, ""); err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded registry to 3,000 players in %v", time.Since(start).Round(time.Millisecond))
	if _, err := ratings.New(srv.office).RecomputeRatings(ctx); err != nil {
		t.Fatal(err)
	}

	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 200, MaxIdleConnsPerHost: 200}, Timeout: 60 * time.Second}
	pages := []struct{ name, path string }{
		{"/healthz", "/healthz"},
		{"/readyz", "/readyz"},
		{"league class, 61 players", fmt.Sprintf("/league/%d", class.ID)},
		{"public bracket, 1,024 entrants", fmt.Sprintf("/events/%d/brackets", ko.ID)},
		{"player record, 1,000 games", fmt.Sprintf("/players/%d/record", player.ID)},
		{"ratings list (first page)", "/ratings"},
	}
	duration := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("KISEN_BENCH_WEB_DURATION")); err == nil {
		duration = d
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| page | req/s at c=50 | ratio to /healthz | median at c=1 | statements per request | allocated per request |\n| --- | --- | --- | --- | --- | --- |\n")
	var healthz float64
	for _, p := range pages {
		get := func() error {
			resp, err := client.Get(ts.URL + p.path)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("GET %s: %d", p.path, resp.StatusCode)
			}
			return nil
		}
		if err := get(); err != nil { // warm-up, and the page answers
			t.Fatal(err)
		}
		// One client: the median latency, statements and bytes per request.
		var lat []time.Duration
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		st0 := s.Statements()
		for range 30 {
			t0 := time.Now()
			if err := get(); err != nil {
				t.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
		}
		stmts := float64(s.Statements()-st0) / 30
		runtime.ReadMemStats(&ms1)
		alloc := float64(ms1.TotalAlloc-ms0.TotalAlloc) / 30
		slices.Sort(lat)
		// Fifty clients for the duration: requests per second.
		var n atomic.Int64
		var failed atomic.Value
		stop := time.Now().Add(duration)
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				for time.Now().Before(stop) {
					if err := get(); err != nil {
						failed.Store(err)
						return
					}
					n.Add(1)
				}
			})
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			t.Fatal(err)
		}
		rps := float64(n.Load()) / duration.Seconds()
		if p.path == "/healthz" {
			healthz = rps
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.4f | %.1f ms | %.0f | %s |\n", p.name, rps, rps/healthz,
			float64(lat[len(lat)/2].Microseconds())/1000, stmts, bytesText(alloc))
	}
	fmt.Fprintf(&b, "\nDatabase: %s. Peak resident memory of the process (server, load generator and seeding together): %s. GOMAXPROCS %d, %s.\n",
		s.Dialect(), peakRSS(), runtime.GOMAXPROCS(0), runtime.Version())
	t.Log(b.String())
}

func bytesText(n float64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", n/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", n/(1<<10))
	}
	return fmt.Sprintf("%.0f B", n)
}

// peakRSS reads VmHWM (the peak resident set) from /proc/self/status.
func peakRSS() string {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
					return fmt.Sprintf("%.0f MB", kb/1024)
				}
			}
		}
	}
	return "unknown"
}
