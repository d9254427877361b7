package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestBenchWebDay is the load benchmark of the public day (issue 23 §4,
// beside `make bench-web`): a published day with a 300-player Swiss class,
// round 1 decided and round 2 in play (KISEN_BENCH_WEB_ROUNDS=5: rounds 1–4
// decided and round 5 in play), served by the real handler. It
// reports /healthz and the public pairings page of round 2 at 50
// concurrent clients as served (render cache and views kept), and the
// page computed on every request (neither kept: what it costs after each
// result) at one client: median and p95 over 200 requests. The issue asks
// as served ≥ 10 % of /healthz and computed p95 ≤ 20 ms. PostgreSQL when
// KISEN_TEST_DATABASE_URL is set, else SQLite; KISEN_BENCH_WEB=1 runs it:
//
//	KISEN_BENCH_WEB=1 go test -run '^TestBenchWebDay$' -count=1 -v ./web/
func TestBenchWebDay(t *testing.T) {
	// not parallel: an env-gated benchmark report: its timings need the machine to itself
	if os.Getenv("KISEN_BENCH_WEB") != "1" {
		t.Skip("load benchmark: set KISEN_BENCH_WEB=1")
	}
	var s *store.Store
	if os.Getenv("KISEN_TEST_DATABASE_URL") != "" {
		s = storetest.Postgres(t)
	} else {
		s = storetest.SQLite(t)
	}
	a := newTestApp(t, s)
	start := time.Now()
	rounds := 2 // KISEN_BENCH_WEB_ROUNDS=5: the last round of the class's five
	if n, err := strconv.Atoi(os.Getenv("KISEN_BENCH_WEB_ROUNDS")); err == nil && n >= 1 && n <= 5 {
		rounds = n
	}
	f := seedDay(t, a, 300, rounds)
	if err := a.srv.Office.SetEventStatus(context.Background(), f.admin, f.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded a 300-player Swiss class, rounds before %d decided, round %d drawn, in %v", rounds, rounds, time.Since(start).Round(time.Millisecond))
	page := fmt.Sprintf("/day/classes/%d/rounds/%d", f.class.ID, rounds)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 200, MaxIdleConnsPerHost: 200}, Timeout: 60 * time.Second}
	get := func(path string) error {
		resp, err := client.Get(a.ts.URL + path)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %d", path, resp.StatusCode)
		}
		return nil
	}
	duration := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("KISEN_BENCH_WEB_DURATION")); err == nil {
		duration = d
	}
	load := func(path string) float64 {
		if err := get(path); err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		var failed atomic.Value
		stop := time.Now().Add(duration)
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				for time.Now().Before(stop) {
					if err := get(path); err != nil {
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
		return float64(n.Load()) / duration.Seconds()
	}
	healthz := load("/healthz")
	served := load(page)
	t.Logf("as served, c=50: /healthz %.0f req/s; pairings page %.0f req/s = %.1f %% of /healthz (the issue asks ≥ 10 %%)", healthz, served, 100*served/healthz)
	if served < healthz/10 {
		t.Errorf("the pairings page as served is %.1f %% of /healthz, under 10 %%", 100*served/healthz)
	}
	a.srv.Pages = nil
	a.srv.Office.KeepNoViews()
	var lat []time.Duration
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	st0 := s.Statements()
	if out := os.Getenv("KISEN_BENCH_CPUPROFILE"); out != "" { // the computed requests alone
		pf, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			t.Fatal(err)
		}
		defer func() { pprof.StopCPUProfile(); _ = pf.Close() }()
	}
	for range 200 {
		t0 := time.Now()
		if err := get(page); err != nil {
			t.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	runtime.ReadMemStats(&ms1)
	slices.Sort(lat)
	p95 := lat[len(lat)*95/100]
	t.Logf("computed on every request, c=1: median %.1f ms, p95 %.1f ms (the issue asks ≤ 20 ms), %.0f statements, %.1f MB allocated per request",
		ms(lat[len(lat)/2]), ms(p95), float64(s.Statements()-st0)/200, float64(ms1.TotalAlloc-ms0.TotalAlloc)/200/1e6)
	if p95 > 20*time.Millisecond {
		t.Errorf("computed p95 %v, over 20 ms", p95)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
