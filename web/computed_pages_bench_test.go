package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"kisen/config"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// BenchmarkComputedPages renders the two event pages of issue 12 the way
// the first reader after a write pays for them: no render cache and no
// view kept by revision (Office.KeepNoViews). The fixtures are
// TestBenchWeb's: a published 1,024-entrant stage with round 1 played and
// a 順位戦 class of 61 players with 305 games decided, seeded through
// office's own use cases. It runs on SQLite, or PostgreSQL when
// KISEN_BENCH_POSTGRES=1 and KISEN_TEST_DATABASE_URL are set:
// `go test -run '^$' -bench ComputedPages -benchmem ./web/`. Each
// sub-benchmark also reports statements per page.
func BenchmarkComputedPages(b *testing.B) {
	var s *store.Store
	if os.Getenv("KISEN_BENCH_POSTGRES") == "1" {
		s = storetest.Postgres(b)
	} else {
		s = storetest.SQLite(b)
	}
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	srv, err := New(Deps{Config: config.Default(), Store: s, Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	srv.pages = nil
	srv.office.KeepNoViews()
	f, err := seed.New(ctx, srv.office, s, now)
	if err != nil {
		b.Fatal(err)
	}
	ko, _, err := f.Knockout(ctx, 1024, 1)
	if err != nil {
		b.Fatal(err)
	}
	_, class, err := f.League(ctx, 61, 305)
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	for _, p := range []struct{ name, path string }{
		{"bracket_1024", fmt.Sprintf("/events/%d/brackets", ko.ID)},
		{"league_class_61", fmt.Sprintf("/league/%d", class.ID)},
	} {
		get := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p.path, nil))
			return rec
		}
		first := get()
		if first.Code != http.StatusOK {
			b.Fatalf("%s: %d", p.path, first.Code)
		}
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(first.Body.Len()))
			st0, n := s.Statements(), 0
			for b.Loop() {
				if r := get(); r.Code != http.StatusOK {
					b.Fatal(r.Code)
				}
				n++
			}
			b.ReportMetric(float64(s.Statements()-st0)/float64(n), "stmts/op")
		})
	}
}
