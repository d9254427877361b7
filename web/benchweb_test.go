package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
	"kisen/web/site"
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
	// not parallel: an env-gated benchmark report: its timings need the machine to itself
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
	srv, err := New(Deps{Config: config.Default(), Office: office.New(s, func() time.Time { return now })})
	if err != nil {
		t.Fatal(err)
	}
	f, err := seed.New(ctx, srv.Office, s, now)
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
	if _, err := ratings.New(srv.Office).RecomputeRatings(ctx); err != nil {
		t.Fatal(err)
	}

	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 200, MaxIdleConnsPerHost: 200}, Timeout: 60 * time.Second}
	record := fmt.Sprintf("/players/%d/record", player.ID)
	pages := []struct{ name, path string }{
		{"/healthz", "/healthz"},
		{"/readyz", "/readyz"},
		{"league class, 61 players", fmt.Sprintf("/league/%d", class.ID)},
		{"public bracket, 1,024 entrants", fmt.Sprintf("/events/%d/brackets", ko.ID)},
		{"player record, 1,000 games (page 1)", record},
		{"ratings list (first page)", "/ratings"},
		{"player record CSV, 1,000 games", record + ".csv"},
	}
	duration := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("KISEN_BENCH_WEB_DURATION")); err == nil {
		duration = d
	}
	get := func(path string) error {
		resp, err := client.Get(ts.URL + path)
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
	// load has clients GET path for the duration; it answers requests per
	// second and the bytes allocated per request meanwhile.
	load := func(path string, clients int) (rps, alloc float64) {
		var n atomic.Int64
		var failed atomic.Value
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		stop := time.Now().Add(duration)
		var wg sync.WaitGroup
		for range clients {
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
		runtime.ReadMemStats(&ms1)
		if err, _ := failed.Load().(error); err != nil {
			t.Fatal(err)
		}
		return float64(n.Load()) / duration.Seconds(), float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(max(n.Load(), 1))
	}
	var b strings.Builder
	var healthz float64
	// Two passes over the pages: as `kisen serve` answers them (the
	// render cache of anonymous event pages and the views kept by
	// revision, both filled by the first request), then computed on
	// every request (neither), which is what a page costs after each
	// write to its event.
	for _, pass := range []string{"as served", "computed on every request"} {
		if pass != "as served" {
			srv.Pages = nil
			srv.Office.KeepNoViews()
		}
		fmt.Fprintf(&b, "\n%s:\n\n| page | req/s at c=50 | ratio to /healthz | median at c=1 | statements per request | allocated per request |\n| --- | --- | --- | --- | --- | --- |\n", pass)
		for _, p := range pages {
			if pass != "as served" && (p.path == "/healthz" || p.path == "/readyz") {
				continue
			}
			if err := get(p.path); err != nil { // warm-up, and the page answers
				t.Fatal(err)
			}
			// One client: the median latency, statements and bytes per request.
			var lat []time.Duration
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			st0 := s.Statements()
			for range 30 {
				t0 := time.Now()
				if err := get(p.path); err != nil {
					t.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			stmts := float64(s.Statements()-st0) / 30
			runtime.ReadMemStats(&ms1)
			alloc := float64(ms1.TotalAlloc-ms0.TotalAlloc) / 30
			slices.Sort(lat)
			// Fifty clients for the duration: requests per second.
			rps, _ := load(p.path, 50)
			if p.path == "/healthz" {
				healthz = rps
			}
			fmt.Fprintf(&b, "| %s | %.0f | %.4f | %.1f ms | %.0f | %s |\n", p.name, rps, rps/healthz,
				float64(lat[len(lat)/2].Microseconds())/1000, stmts, bytesText(alloc))
		}
	}
	// Third pass, as served while results change: the same fifty clients
	// on each event page while one writer changes a result of that page
	// every writeEvery, through office's own use cases as the forms do
	// (a quick result of round 2 on the bracket; a correction, with its
	// reason, of a decided game on the league class and on the record).
	// Each write raises the event's revision, so the next readers find
	// nothing kept and the page is computed again (once per process:
	// concurrent misses share one computation and one rendering).
	const writeEvery = 500 * time.Millisecond
	writers := mixedWriters(t, f, ko.ID, class, player.ID)
	fmt.Fprintf(&b, "\nas served while one result changes every %v:\n\n| page | req/s at c=50 | ratio to /healthz | results changed |\n| --- | --- | --- | --- |\n", writeEvery)
	srv.Pages = site.NewRenderCache()
	srv.Office.KeepViews()
	for _, p := range pages[2:5] {
		write := writers[p.path]
		stop := make(chan struct{})
		var wrote atomic.Int64
		var werr atomic.Value
		var wg sync.WaitGroup
		wg.Go(func() {
			tick := time.NewTicker(writeEvery)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					if err := write(ctx); err != nil {
						werr.Store(err)
						return
					}
					wrote.Add(1)
				}
			}
		})
		rps, _ := load(p.path, 50)
		close(stop)
		wg.Wait()
		if err, _ := werr.Load().(error); err != nil {
			t.Fatalf("%s: writing a result: %v", p.name, err)
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.4f | %d |\n", p.name, rps, rps/healthz, wrote.Load())
	}
	srv.Pages = nil // the loads below are computed on every request
	srv.Office.KeepNoViews()
	seedingPeak := peakRSS()
	// The record under 20 concurrent requests, computed on every request:
	// the peak resident memory is reset first (clear_refs 5), so it is
	// this phase's, not the seeding's; it still includes the load
	// generator, which shares the process.
	runtime.GC()
	debug.FreeOSMemory()
	resetPeak := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	for _, path := range []string{record, record + ".csv"} {
		rps, alloc := load(path, 20)
		fmt.Fprintf(&b, "\n%s under 20 concurrent clients (computed on every request): %.0f req/s, %s allocated per request.", path, rps, bytesText(alloc))
	}
	phase := "unknown (the kernel did not reset the peak)"
	if resetPeak {
		phase = peakRSS()
	}
	fmt.Fprintf(&b, "\nPeak resident memory of the process during those two loads: %s; over the whole run (seeding included): %s. Database: %s. GOMAXPROCS %d, %s.\n",
		phase, seedingPeak, s.Dialect(), runtime.GOMAXPROCS(0), runtime.Version())
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

// mixedWriters are TestBenchWeb's writers for its third pass, one per
// event page: each call changes one result the page shows, through the
// use case its form calls. The bracket gets round 2's quick results in
// order (256 of them); the league class and the record get corrections of
// their decided games in turn, each flipping the winner with a reason.
func mixedWriters(t *testing.T, f *seed.Fixture, koID int64, class store.LeagueClass, playerID int64) map[string]func(context.Context) error {
	t.Helper()
	ctx := context.Background()
	o, s, admin := f.O, f.S, f.Admin
	eb, err := o.EventBrackets(ctx, admin, koID)
	if err != nil {
		t.Fatal(err)
	}
	var quick []office.QuickResultInput
	for _, sb := range eb.Stages {
		if len(sb.Rounds) < 2 {
			continue
		}
		for _, g := range sb.Rounds[1] {
			if g.Result == "" && g.DecidingGameID != 0 && g.SenteID != 0 {
				quick = append(quick, office.QuickResultInput{StageID: sb.Stage.ID, BracketGame: g.ID,
					WinnerID: g.SenteID, Reason: office.ReasonResignation, GameID: g.DecidingGameID})
			}
		}
	}
	// corrector flips, in turn, the result in force of the decided games
	// of gs, carrying the version the writer last saw.
	corrector := func(gs store.GameSet) func(context.Context) error {
		type decided struct {
			id      int64
			version int
			result  string
		}
		var games []decided
		for id := range gs.Games {
			if v, ok := gs.Latest(id); ok && (v.Result == office.ResultSenteWin || v.Result == office.ResultGoteWin) {
				games = append(games, decided{id, v.Version, v.Result})
			}
		}
		slices.SortFunc(games, func(a, b decided) int { return int(a.id - b.id) })
		if len(games) == 0 {
			t.Fatal("no decided game to correct")
		}
		next := 0
		return func(ctx context.Context) error {
			g := &games[next%len(games)]
			next++
			flip := office.ResultSenteWin
			if g.result == office.ResultSenteWin {
				flip = office.ResultGoteWin
			}
			v, err := o.RecordResult(ctx, admin, g.id, office.ResultInput{Result: flip, Reason: office.ReasonResignation,
				Note: "記録係の記入誤りを訂正", Version: g.version})
			if err != nil {
				return err
			}
			g.version, g.result = v.Version, v.Result
			return nil
		}
	}
	leagueGames, err := s.GameSetOfEvent(ctx, class.EventID)
	if err != nil {
		t.Fatal(err)
	}
	recordGames, err := s.GameSetOfPlayer(ctx, playerID)
	if err != nil {
		t.Fatal(err)
	}
	next := 0
	return map[string]func(context.Context) error{
		fmt.Sprintf("/events/%d/brackets", koID): func(ctx context.Context) error {
			if next >= len(quick) {
				return fmt.Errorf("round 2 has no undecided game left (%d entered)", next)
			}
			next++
			return o.QuickResult(ctx, admin, quick[next-1])
		},
		fmt.Sprintf("/league/%d", class.ID):         corrector(leagueGames),
		fmt.Sprintf("/players/%d/record", playerID): corrector(recordGames),
	}
}
