package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/office/seed"
	"kisen/store/storetest"
)

// BenchmarkAPI reads the API's largest resources of the query-count
// fixture at ten times its size (a 61-player 順位戦 class, 305 games; a
// knockout of 80) through the real handler, on SQLite: the full answer,
// and the 304 of a conditional GET. `go test -run '^$' -bench API ./web/`.
func BenchmarkAPI(b *testing.B) {
	s := storetest.SQLite(b)
	now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	cfg := config.Default()
	cfg.APIRate = 0
	srv, err := New(Deps{Config: cfg, Office: office.New(s, func() time.Time { return now })})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	f, err := seed.New(ctx, srv.Office, s, now)
	if err != nil {
		b.Fatal(err)
	}
	ek, _, err := f.Knockout(ctx, 80, 1)
	if err != nil {
		b.Fatal(err)
	}
	el, cl, err := f.League(ctx, 61, 100)
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	for _, p := range []struct{ name, path string }{
		{"league_class_61", fmt.Sprintf("/api/v1/league-classes/%d", cl.ID)},
		{"games_305", fmt.Sprintf("/api/v1/events/%d/games?limit=200", el.ID)},
		{"stages_80", fmt.Sprintf("/api/v1/events/%d/stages", ek.ID)},
	} {
		get := func(etag string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(http.MethodGet, p.path, nil)
			if etag != "" {
				req.Header.Set("If-None-Match", etag)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec
		}
		first := get("")
		if first.Code != 200 {
			b.Fatalf("%s: %d", p.path, first.Code)
		}
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(first.Body.Len()))
			for b.Loop() {
				if r := get(""); r.Code != 200 {
					b.Fatal(r.Code)
				}
			}
		})
		b.Run(p.name+"_304", func(b *testing.B) {
			etag := first.Header().Get("ETag")
			for b.Loop() {
				if r := get(etag); r.Code != http.StatusNotModified {
					b.Fatal(r.Code)
				}
			}
		})
	}
}
