package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
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
// sub-benchmark also reports statements per page. KISEN_BENCH_PAGES=league
// seeds and runs the league class only (the knockout's seeding is most of
// the set-up time); KISEN_BENCH_BODY_DIR=dir writes each page's body there,
// so a change can be checked byte for byte against the body before it.
func BenchmarkComputedPages(b *testing.B) {
	var s *store.Store
	if os.Getenv("KISEN_BENCH_POSTGRES") == "1" {
		s = storetest.Postgres(b)
	} else {
		s = storetest.SQLite(b)
	}
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	srv, err := New(Deps{Config: config.Default(), Office: office.New(s, func() time.Time { return now })})
	if err != nil {
		b.Fatal(err)
	}
	srv.Pages = nil
	srv.Office.KeepNoViews()
	f, err := seed.New(ctx, srv.Office, s, now)
	if err != nil {
		b.Fatal(err)
	}
	type page struct{ name, path string }
	var pages []page
	if os.Getenv("KISEN_BENCH_PAGES") != "league" {
		ko, _, err := f.Knockout(ctx, 1024, 1)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, page{"bracket_1024", fmt.Sprintf("/events/%d/brackets", ko.ID)})
	}
	_, class, err := f.League(ctx, 61, 305)
	if err != nil {
		b.Fatal(err)
	}
	pages = append(pages, page{"league_class_61", fmt.Sprintf("/league/%d", class.ID)})
	h := srv.Handler()
	for _, p := range pages {
		get := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p.path, nil))
			return rec
		}
		first := get()
		if first.Code != http.StatusOK {
			b.Fatalf("%s: %d", p.path, first.Code)
		}
		if dir := os.Getenv("KISEN_BENCH_BODY_DIR"); dir != "" {
			if err := os.WriteFile(filepath.Join(dir, p.name+".html"), first.Body.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
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
