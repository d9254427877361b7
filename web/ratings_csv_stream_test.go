package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/web/players"
)

// seedLongRecord registers a player with n games (and the other players
// of seed.Record) and rates them.
func seedLongRecord(t *testing.T, a *testApp, n int) int64 {
	t.Helper()
	ctx := context.Background()
	f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	me, err := f.Record(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
		t.Fatal(err)
	}
	return me.ID
}

// Issue 12: the streamed record CSV is the record's pages, 100 games a
// page newest first, concatenated — checked against the pages' own
// function (PlayerRecord), not the export's.
func TestRecordCSV_StreamedEqualsThePagesConcatenated(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		id := seedLongRecord(t, a, 230)
		want := [][]string{players.RecordCSVHeader}
		r := ratings.New(a.srv.Office)
		for page := 1; ; page++ {
			rec, err := r.PlayerRecord(ctx, id, page)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range rec.Games {
				want = append(want, players.RecordCSVRecord(g))
			}
			if page >= rec.Pages {
				if rec.Pages != 3 {
					t.Fatalf("230 games in %d pages, want 3", rec.Pages)
				}
				break
			}
		}
		resp, body := a.get(fmt.Sprintf("/players/%d/record.csv", id))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("record.csv: %d", resp.StatusCode)
		}
		got, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 231 || !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("CSV (%d lines) is not the pages concatenated (%d lines)", len(got), len(want))
		}
	})
}

// An error from the callback stops EachRecordGame at once and comes back
// unchanged; an unknown player is ErrNotFound before any call.
func TestRecordCSV_EachRecordGameStopsAtTheFirstError(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	ctx := context.Background()
	id := seedLongRecord(t, a, 30)
	r := ratings.New(a.srv.Office)
	stop := errors.New("client gone")
	calls := 0
	err := r.EachRecordGame(ctx, id, func(ratings.PlayerGame) error {
		calls++
		if calls == 7 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 7 {
		t.Fatalf("stopped after %d calls with %v; want 7 and the callback's error", calls, err)
	}
	called := false
	if err := r.EachRecordGame(ctx, 987654, func(ratings.PlayerGame) error { called = true; return nil }); err == nil || called {
		t.Fatalf("unknown player: %v, called %v", err, called)
	}
}

// failingWriter accepts limit bytes, then fails every write, as a client
// that went away.
type failingWriter struct {
	header http.Header
	status int
	got    bytes.Buffer
	limit  int
	writes int // writes tried after the failure began
}

func (w *failingWriter) Header() http.Header { return w.header }
func (w *failingWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *failingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.got.Len()+len(b) > w.limit {
		w.writes++
		return 0, errors.New("connection reset")
	}
	return w.got.Write(b)
}
func (w *failingWriter) Flush() {}

// A write that fails mid-stream ends the download: the handler stops
// writing (no error page can follow a sent status), and what the client
// got is a prefix of the whole CSV — whole rows up to the last flush. An
// unknown player gets the error page, never a CSV. It takes about 45 s
// under -race (2 tests at once on 2 cores shared with other work; about
// 170 s among the package's 8 at once), nearly all of it seeding and
// rating the 1,200-game record: the cut must fall in the middle of a
// stream of many flushes (csvFlushRows rows each).
func TestRecordCSV_FailedWriteEndsTheStream(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	id := seedLongRecord(t, a, 1200)
	path := fmt.Sprintf("/players/%d/record.csv", id)
	_, full := a.get(path)
	if n := strings.Count(full, "\n"); n != 1201 {
		t.Fatalf("whole CSV: %d lines", n)
	}
	w := &failingWriter{header: http.Header{}, limit: len(full) / 2}
	a.srv.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if w.status != http.StatusOK || !strings.HasPrefix(full, w.got.String()) || w.got.Len() == 0 {
		t.Fatalf("cut stream: status %d, %d bytes, a prefix of the CSV: %v", w.status, w.got.Len(), strings.HasPrefix(full, w.got.String()))
	}
	// The bytes before the failure end on a row (flushes come every
	// csvFlushRows rows, and the failing flush sent nothing).
	if got := w.got.String(); !strings.HasSuffix(got, "\n") {
		t.Errorf("the client got a half row: …%q", got[max(0, len(got)-40):])
	}
	if w.writes > 2 {
		t.Errorf("%d writes after the client went away; want the stream to stop", w.writes)
	}
	if resp, body := a.get("/players/987654/record.csv"); resp.StatusCode != http.StatusNotFound || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("unknown player: %d %q %.60s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) WriteHeader(int)             {}
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) Flush()                      {}

// TestRecordCSV_Figures reports the bytes allocated per record.csv
// request for a 1,000-game record (docs/ratings.md), the body discarded:
//
// KISEN_BENCH_REPORT=1 go test -run TestRecordCSV_Figures -v ./web/
func TestRecordCSV_Figures(t *testing.T) {
	// not parallel: an env-gated benchmark report: its figures need the machine to itself
	if os.Getenv("KISEN_BENCH_REPORT") == "" {
		t.Skip("set KISEN_BENCH_REPORT=1 to measure")
	}
	eachApp(t, func(t *testing.T, a *testApp) {
		id := seedLongRecord(t, a, 1000)
		path := fmt.Sprintf("/players/%d/record.csv", id)
		h := a.srv.Handler()
		serve := func() {
			h.ServeHTTP(discard{h: http.Header{}}, httptest.NewRequest(http.MethodGet, path, nil))
		}
		serve()
		const n = 20
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range n {
			serve()
		}
		runtime.ReadMemStats(&after)
		t.Logf("record.csv, 1,000 games: %.0f KiB allocated, %.0f allocations per request",
			float64(after.TotalAlloc-before.TotalAlloc)/n/1024, float64(after.Mallocs-before.Mallocs)/n)
	})
}
