package main

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/store"
	"kisen/store/storetest"
)

// TestLiveLoad (issue 15, "Performance and limits"): one `kisen serve`
// holds 2,000 open streams of one event; the test reports the server
// process's memory per stream and the time from the director's result
// POST being sent until the last stream has heard of it (the result's
// own transaction included).
// It runs in the suite (both databases; PostgreSQL required in CI), where
// it checks that all 2,000 streams stay open and every one hears the change,
// and reports the figures. The targets (< 20 KB per stream, < 250 ms to
// reach all) are checked only as a benchmark, on a quiet machine:
// `make bench-live` (KISEN_BENCH_LIVE=1). KISEN_LIVE_STREAMS changes the
// count.
//
// Slow (tens of seconds under -race: 2,000 streams per database, the
// figure issue 15 names, read by race-instrumented goroutines). It stays
// sequential: it sets GOGC for the server it starts (t.Setenv), and its
// figures mean more with no other test running beside it.
func TestLiveLoad(t *testing.T) {
	bench := os.Getenv("KISEN_BENCH_LIVE") != ""
	n := 2000
	if testing.Short() && !bench {
		n = 200 // make test-short; make test (CI) keeps the 2,000
	}
	if v, err := strconv.Atoi(os.Getenv("KISEN_LIVE_STREAMS")); err == nil && v > 0 {
		n = v
	}
	bin := buildKisen(t)
	// The servers collect garbage often, so "in use" is what the streams
	// hold rather than what the 2,000 requests left behind (RSS is
	// reported as well: the runtime keeps freed pages for a while).
	t.Setenv("GOGC", "10")
	storetest.Dialects(t, func(t *testing.T, opts store.Options) {
		seed := seedLiveStage(t, opts)
		db := []string{"--database-url", opts.URL}
		if opts.URL == "" {
			db = []string{"--data-dir", filepath.Dir(opts.SQLitePath)}
		}
		limit := strconv.Itoa(n + 100)
		base, cmd := startServeCmd(t, bin, append(db, "--live-max-streams", limit, "--live-max-per-address", limit, "--metrics-public", "true")...)
		pid := cmd.Process.Pid
		ev := "/events/" + strconv.FormatInt(seed.eventID, 10)
		host := strings.TrimPrefix(base, "http://")

		// Warm the server (pages, the watcher, the pool) before measuring.
		for range 3 {
			if _, code := getDoc(t, newJarClient(), base+ev+"/brackets"); code != http.StatusOK {
				t.Fatalf("brackets: %d", code)
			}
		}
		if bench { // let the warm-up's garbage go before the baseline figures
			time.Sleep(500 * time.Millisecond)
		}
		rss0, heap0 := procRSS(t, pid), serverMem(t, base)
		stat0 := serverStats(t, base)

		// n streams, each a bare TCP connection read by a small goroutine
		// that notes when "event: changed" arrives.
		got := make([]time.Time, n)
		var ready, heard sync.WaitGroup
		ready.Add(n)
		heard.Add(n)
		conns := make([]net.Conn, n)
		for i := range n {
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatalf("stream %d: %v", i, err)
			}
			conns[i] = c
			if _, err := c.Write([]byte("GET " + ev + "/stream HTTP/1.1\r\nHost: " + host + "\r\nAccept: text/event-stream\r\n\r\n")); err != nil {
				t.Fatal(err)
			}
			go func(i int, c net.Conn) {
				r := bufio.NewReaderSize(c, 512)
				first, changed := false, false
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						if !first {
							ready.Done()
						}
						if !changed {
							heard.Done()
						}
						return
					}
					if !first && strings.HasPrefix(line, "id: ") {
						first = true
						ready.Done()
					}
					if !changed && line == "event: changed\n" {
						got[i] = time.Now()
						changed = true
						heard.Done()
					}
				}
			}(i, c)
		}
		t.Cleanup(func() {
			for _, c := range conns {
				_ = c.Close()
			}
		})
		openStart := time.Now()
		waitGroup(t, &ready, 60*time.Second, "streams to open")
		t.Logf("%d streams open in %v", n, time.Since(openStart))
		if bench { // the same once the streams are open
			time.Sleep(time.Second)
		}
		rss1, heap1 := procRSS(t, pid), serverMem(t, base)
		stat1 := serverStats(t, base)
		// What the RSS delta is made of (the clients are another process:
		// this is the server alone).
		per := func(k string) float64 { return (stat1[k] - stat0[k]) / float64(n) / 1024 }
		t.Logf("per stream, KB: RSS %.1f = heap in use %.1f + heap idle not returned %.1f + stacks %.1f + runtime (spans, GC, other) %.1f; goroutines %+.0f",
			float64(rss1-rss0)/float64(n)/1024, per("go_memstats_heap_inuse_bytes"),
			per("go_memstats_heap_idle_bytes")-per("go_memstats_heap_released_bytes"), per("go_memstats_stack_inuse_bytes"),
			per("go_memstats_mspan_inuse_bytes")+per("go_memstats_mcache_inuse_bytes")+per("go_memstats_gc_sys_bytes")+per("go_memstats_other_sys_bytes")+per("go_memstats_buck_hash_sys_bytes"),
			stat1["go_goroutines"]-stat0["go_goroutines"])
		// The director enters a result; every stream must hear it.
		director := signIn(t, base, seed)
		vals := quickResultForm(t, director, base, seed.stageID)
		sent := time.Now()
		resp, err := director.PostForm(base+"/stages/"+strconv.FormatInt(seed.stageID, 10)+"/result", vals)
		if err != nil || resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("result: %v %v", err, resp)
		}
		resp.Body.Close()
		t.Logf("the result's POST answered after %v", time.Since(sent).Round(time.Millisecond))
		waitGroup(t, &heard, 30*time.Second, "every stream to hear the change")
		lat := make([]time.Duration, 0, n)
		for _, at := range got {
			if at.IsZero() {
				t.Fatal("a stream ended without hearing the change")
			}
			lat = append(lat, at.Sub(sent))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		perRSS := float64(rss1-rss0) / float64(n) / 1024
		perHeap := float64(heap1-heap0) / float64(n) / 1024
		t.Logf("%s, %d CPUs: %d streams; server memory per stream: %.1f KB (Go heap+stacks in use), %.1f KB (RSS); "+
			"from the result's POST: first %v, median %v, last %v",
			dbName(opts), runtime.NumCPU(), n, perHeap, perRSS, lat[0].Round(time.Millisecond), lat[n/2].Round(time.Millisecond), lat[n-1].Round(time.Millisecond))
		if !bench {
			return // the suite checks that every stream heard the change; figures are the benchmark's
		}
		// Later (after the fan-out, so that the wait does not change it), once the runtime has given freed pages back.
		settle := settleRSS()
		time.Sleep(settle)
		rss2, heap2 := procRSS(t, pid), serverMem(t, base)
		t.Logf("after %v more: RSS %.1f KB, heap+stacks %.1f KB per stream", settle,
			float64(rss2-rss0)/float64(n)/1024, float64(heap2-heap0)/float64(n)/1024)

		if perHeap >= 20 {
			t.Errorf("memory per stream %.1f KB, target < 20 KB", perHeap)
		}
		if lat[n-1] >= 250*time.Millisecond {
			t.Errorf("the last stream heard the change after %v, target < 250 ms", lat[n-1])
		}
	})
}

func waitGroup(t *testing.T, wg *sync.WaitGroup, d time.Duration, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// procRSS is the resident memory of process pid in bytes (Linux).
func procRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc to read memory from: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "kB")), 10, 64)
			return kb * 1024
		}
	}
	t.Fatal("VmRSS not found")
	return 0
}

// settleRSS is how long the load test waits before reading RSS a second
// time (the runtime's scavenger returns freed pages in the background);
// KISEN_LIVE_SETTLE changes it.
func settleRSS() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("KISEN_LIVE_SETTLE")); err == nil && d > 0 {
		return d
	}
	return 10 * time.Second
}

// serverStats is every gauge of the server's /metrics whose name starts
// with go_.
func serverStats(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), " ")
		if ok && strings.HasPrefix(name, "go_") && !strings.Contains(name, "{") {
			out[name], _ = strconv.ParseFloat(v, 64)
		}
	}
	return out
}

// serverMem is the server's Go heap and goroutine stacks in use, from its
// own /metrics.
func serverMem(t *testing.T, base string) int64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var total int64
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		for _, name := range []string{"go_memstats_heap_inuse_bytes ", "go_memstats_stack_inuse_bytes "} {
			if v, ok := strings.CutPrefix(l, name); ok {
				f, _ := strconv.ParseFloat(v, 64)
				total += int64(f)
			}
		}
	}
	return total
}

func signIn(t *testing.T, base string, seed liveSeed) *http.Client {
	t.Helper()
	c := newJarClient()
	login, _ := getDoc(t, c, base+"/login")
	csrf, _ := login.Find(`input[name="_csrf"]`).Attr("value")
	resp, err := c.PostForm(base+"/login", url.Values{"_csrf": {csrf}, "login": {seed.login}, "password": {seed.password}})
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %v %v", err, resp)
	}
	resp.Body.Close()
	return c
}

// quickResultForm fills the first quick-result form of the stage page:
// the last player offered wins by resignation.
func quickResultForm(t *testing.T, c *http.Client, base string, stageID int64) url.Values {
	t.Helper()
	sp, code := getDoc(t, c, base+"/stages/"+strconv.FormatInt(stageID, 10))
	if code != http.StatusOK {
		t.Fatalf("stage page: %d", code)
	}
	form := sp.Find("form.quick-result").First()
	vals := url.Values{"confirm": {"1"}, "reason": {"resignation"}}
	form.Find("input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
		n, _ := s.Attr("name")
		v, _ := s.Attr("value")
		vals.Set(n, v)
	})
	winner, _ := form.Find(`select[name="winner"] option[value!=""]`).Last().Attr("value")
	vals.Set("winner", winner)
	return vals
}

func dbName(o store.Options) string {
	if o.URL != "" {
		return "PostgreSQL"
	}
	return "SQLite"
}
