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
	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// BenchmarkPlayerRecordPage renders page 1 of the record of a player with
// 1,000 decided games through the real handler, anonymously (issue 12): as
// served (render cache and views kept by revision, filled by the first
// request) and computed on every request (neither). It runs on PostgreSQL
// when KISEN_TEST_DATABASE_URL is set, else on SQLite. Profile with
// `go test -run '^$' -bench PlayerRecordPage -cpuprofile cpu.out -memprofile mem.out ./web/`.
func BenchmarkPlayerRecordPage(b *testing.B) {
	var s *store.Store
	if os.Getenv("KISEN_TEST_DATABASE_URL") != "" {
		s = storetest.Postgres(b)
	} else {
		s = storetest.SQLite(b)
	}
	ctx := context.Background()
	now := time.Now()
	srv, err := New(Deps{Config: config.Default(), Office: office.New(s, func() time.Time { return now })})
	if err != nil {
		b.Fatal(err)
	}
	f, err := seed.New(ctx, srv.Office, s, now)
	if err != nil {
		b.Fatal(err)
	}
	player, err := f.Record(ctx, 1000)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ratings.New(srv.Office).RecomputeRatings(ctx); err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	path := fmt.Sprintf("/players/%d/record", player.ID)
	get := func(b *testing.B) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d", path, rec.Code)
		}
	}
	for _, pass := range []string{"served", "computed"} {
		if pass == "computed" {
			srv.Pages = nil
			srv.Office.KeepNoViews()
		}
		b.Run(pass, func(b *testing.B) {
			get(b) // fills what is kept
			st0 := s.Statements()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				get(b)
			}
			b.ReportMetric(float64(s.Statements()-st0)/float64(b.N), "stmts/op")
		})
	}
}
