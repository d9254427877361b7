package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/store"
	"kisen/store/storetest"
)

// ratingRegistry is one seeded registry for the rating pages: a player
// with a long record (and the opponent they met first) and other
// players' records around them.
type ratingRegistry struct {
	player, opponent int64
}

// seedRatingRegistry registers a player with 15×scale games and
// 44×scale more rated players, rates everything as the worker would,
// then enters one more result so the stored ratings are stale.
func seedRatingRegistry(t *testing.T, a *testApp, scale int) ratingRegistry {
	t.Helper()
	ctx := context.Background()
	f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	me, err := f.Record(ctx, 15*scale)
	if err != nil {
		t.Fatal(err)
	}
	for range 4 * scale {
		if _, err := f.Record(ctx, 10); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Record(ctx, 1); err != nil {
		t.Fatal(err)
	}
	return ratingRegistry{player: me.ID, opponent: me.ID + 1}
}

// sqlLog records the SQL of every statement a store runs (a gorm callback
// beside the statement counter), for asserting what a page does not do.
type sqlLog struct {
	mu   sync.Mutex
	sqls []string
}

func logSQL(t *testing.T, s *store.Store) *sqlLog {
	t.Helper()
	l := &sqlLog{}
	rec := func(g *gorm.DB) {
		if g.DryRun {
			return
		}
		l.mu.Lock()
		l.sqls = append(l.sqls, g.Statement.SQL.String())
		l.mu.Unlock()
	}
	cb := s.DB(context.Background()).Callback()
	const name = "kisen:test_sql_log"
	for _, err := range []error{
		cb.Create().After("*").Register(name, rec), cb.Query().After("*").Register(name, rec),
		cb.Update().After("*").Register(name, rec), cb.Delete().After("*").Register(name, rec),
		cb.Row().After("*").Register(name, rec), cb.Raw().After("*").Register(name, rec),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l *sqlLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sqls
	l.sqls = nil
	return out
}

// TestRatingsWeb_GetNeverRecomputesNorScans (issue 12 part 4): reading the
// rating pages never recomputes nor works out the fingerprint — not even
// while the stored ratings are stale —, costs the same statements on a
// registry ten times larger, and leaves the rating state row as it was;
// the pages say the ratings are being brought up to date. It takes about
// 30 s on SQLite under -race (2 tests at once on 2 cores shared with other
// work; up to 120 s among the package's 8 at once): a registry and one ten
// times larger are seeded with their games and rated before the pages are
// read.
func TestRatingsWeb_GetNeverRecomputesNorScans(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, small *testApp) {
		var s2 *store.Store
		if small.store.Dialect() == store.Postgres {
			s2 = storetest.Postgres(t)
		} else {
			s2 = storetest.SQLite(t)
		}
		large := newTestApp(t, s2)
		rs, rl := seedRatingRegistry(t, small, 1), seedRatingRegistry(t, large, 10)
		logs := map[*testApp]*sqlLog{small: logSQL(t, small.store), large: logSQL(t, large.store)}
		paths := []struct {
			name string
			path func(r ratingRegistry) string
			htmx bool
		}{
			{"ratings", func(ratingRegistry) string { return "/ratings" }, false},
			{"ratings page 2", func(ratingRegistry) string { return "/ratings?page=2" }, false},
			{"ratings search", func(ratingRegistry) string { return "/ratings?q=" + "%E6%A3%8B%E5%A3%AB&kind=professional" }, true},
			{"ratings CSV", func(ratingRegistry) string { return "/ratings/export.csv" }, false},
			{"player record", func(r ratingRegistry) string { return fmt.Sprintf("/players/%d/record", r.player) }, false},
			{"player record CSV", func(r ratingRegistry) string { return fmt.Sprintf("/players/%d/record.csv", r.player) }, false},
			{"head to head", func(r ratingRegistry) string {
				return fmt.Sprintf("/players/%d/record/h2h?opponent=%d", r.player, r.opponent)
			}, true},
		}
		stateOf := func(a *testApp) store.RatingState {
			st, ok, err := a.store.RatingStateRow(context.Background())
			if err != nil || !ok {
				t.Fatalf("state row: %v (ok %v)", err, ok)
			}
			return st
		}
		before := map[*testApp]store.RatingState{small: stateOf(small), large: stateOf(large)}
		for a, st := range before {
			if !st.Stale() || !st.Computed() {
				t.Fatalf("fixture: state %+v, want computed and then stale", st)
			}
			_ = a
		}
		for _, p := range paths {
			count := func(a *testApp, r ratingRegistry) int64 {
				t.Helper()
				get := a.get
				if p.htmx {
					get = a.getHTMX
				}
				n0 := a.store.Statements()
				resp, body := get(p.path(r))
				n := a.store.Statements() - n0
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: %d\n%s", p.name, resp.StatusCode, body)
				}
				if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") && !p.htmx &&
					docOf(t, body).Find(`[data-testid="rating-stale"]`).Length() != 1 {
					t.Errorf("%s: no note that newer results are being included", p.name)
				}
				for _, q := range logs[a].take() {
					// The fingerprint's aggregates (RatingCounters,
					// RatingGamesDigest) and a recompute's writes.
					for _, bad := range []string{"max_result_id", "checksum2", "DELETE FROM", "INSERT INTO", "UPDATE "} {
						if strings.Contains(q, bad) {
							t.Errorf("%s: GET ran %q", p.name, q)
						}
					}
				}
				return n
			}
			ns, nl := count(small, rs), count(large, rl)
			t.Logf("%-18s small %3d large %3d", p.name, ns, nl)
			if ns != nl {
				t.Errorf("%s: %d statements on the small registry, %d on the ten times larger one", p.name, ns, nl)
			}
		}
		for _, a := range []*testApp{small, large} {
			if after := stateOf(a); !reflect.DeepEqual(after, before[a]) {
				t.Errorf("the rating state changed under GETs: %+v → %+v", before[a], after)
			}
		}
	})
}

// TestRatingsWeb_ListAndRecordPages: the list pages by 50 with links and
// the total, keeps the search and filters in its links and CSV; the
// record pages by 100, newest first, with totals over every game and a
// CSV of them all; the as-of time shows, the stale note goes once the
// refresh ran.
func TestRatingsWeb_ListAndRecordPages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		me, err := f.Record(ctx, 130)
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			if _, err := f.Record(ctx, 10); err != nil {
				t.Fatal(err)
			}
		}
		_, body := a.get("/ratings")
		doc := docOf(t, body)
		if doc.Find(`[data-testid="rating-stale"]`).Length() != 1 || doc.Find(`[data-testid="rating-row"]`).Length() != 0 {
			t.Fatalf("before the first refresh: want the note and no rows")
		}
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
			t.Fatal(err)
		}

		// 55 rated players: 50 on page 1, 5 on page 2.
		_, body = a.get("/ratings")
		doc = docOf(t, body)
		if doc.Find(`[data-testid="rating-stale"]`).Length() != 0 {
			t.Error("stale note after the refresh")
		}
		if got := doc.Find(`[data-testid="rating-asof"]`).Text(); got != "2026-11-21 12:00 時点のレーティング" {
			t.Errorf("as of %q", got)
		}
		if n := doc.Find(`[data-testid="rating-row"]`).Length(); n != 50 {
			t.Errorf("page 1 has %d rows, want 50", n)
		}
		if got := doc.Find(`[data-testid="rating-count"]`).Text(); got != "該当 55人" {
			t.Errorf("count %q", got)
		}
		next, _ := doc.Find(`[data-testid="page-next"]`).Attr("href")
		if next != "/ratings?page=2" || doc.Find(`[data-testid="page-prev"]`).Length() != 0 {
			t.Errorf("page 1 links: next %q, prev %d", next, doc.Find(`[data-testid="page-prev"]`).Length())
		}
		_, body = a.get(next)
		doc = docOf(t, body)
		if n := doc.Find(`[data-testid="rating-row"]`).Length(); n != 5 || doc.Find(`[data-testid="page-next"]`).Length() != 0 {
			t.Errorf("page 2: %d rows, next link %d; want 5 and none", n, doc.Find(`[data-testid="page-next"]`).Length())
		}
		if got := doc.Find(`[data-testid="page-of"]`).Text(); got != "2 / 2 ページ" {
			t.Errorf("page of %q", got)
		}
		// Search by number, kept in the form, the pager and the CSV link.
		num := *me.Number
		_, body = a.get("/ratings?q=" + strings.ToLower(num) + "&kind=professional")
		doc = docOf(t, body)
		if rows := doc.Find(`[data-testid="rating-row"]`); rows.Length() != 1 || rows.AttrOr("data-player", "") != strconv.FormatInt(me.ID, 10) {
			t.Errorf("search by number: %d rows", rows.Length())
		}
		if v := doc.Find(`[data-testid="rating-filter-q"]`).AttrOr("value", ""); v != strings.ToLower(num) {
			t.Errorf("search box keeps %q", v)
		}
		if href := doc.Find(`[data-testid="rating-export"]`).AttrOr("href", ""); href != "/ratings/export.csv?kind=professional&q="+strings.ToLower(num) {
			t.Errorf("CSV link %q", href)
		}
		_, body = a.get("/ratings/export.csv")
		recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || len(recs) != 56 {
			t.Fatalf("CSV: %d lines (%v), want header + 55", len(recs), err)
		}

		// The record: 130 games, 100 on page 1 newest first, 30 on page 2.
		path := fmt.Sprintf("/players/%d/record", me.ID)
		_, body = a.get(path)
		doc = docOf(t, body)
		rows := doc.Find(`[data-testid="record-game"]`)
		if rows.Length() != 100 {
			t.Fatalf("record page 1: %d games, want 100", rows.Length())
		}
		if first := rows.First().Find("td").First().Text(); first != "2020-05-09" { // day 130 from 2020-01-01
			t.Errorf("newest game first: %q", first)
		}
		// Record(130): game i is won when sente (even i) wins, i.e. i%3 != 2 and i even, or i%3 == 2 and i odd.
		wins := 0
		for i := range 130 {
			if (i%2 == 0) == (i%3 != 2) {
				wins++
			}
		}
		wantTotals := fmt.Sprintf("公開棋戦 130局（%d勝%d敗）", wins, 130-wins)
		if got := doc.Find(`[data-testid="record-totals"]`).Text(); got != wantTotals {
			t.Errorf("totals %q, want %q", got, wantTotals)
		}
		if got := doc.Find(`[data-testid="rating-asof"]`).Length(); got != 1 {
			t.Error("record page without the as-of time")
		}
		next, _ = doc.Find(`[data-testid="page-next"]`).Attr("href")
		if next != path+"?page=2#games" {
			t.Errorf("record next link %q", next)
		}
		_, body = a.get(strings.TrimSuffix(next, "#games"))
		doc = docOf(t, body)
		if n := doc.Find(`[data-testid="record-game"]`).Length(); n != 30 || doc.Find(`[data-testid="page-prev"]`).AttrOr("href", "") != path+"#games" {
			t.Errorf("record page 2: %d games, prev %q", n, doc.Find(`[data-testid="page-prev"]`).AttrOr("href", ""))
		}
		if href := doc.Find(`[data-testid="record-export"]`).AttrOr("href", ""); href != path+".csv" {
			t.Errorf("record CSV link %q", href)
		}
		resp, body := a.get(path + ".csv")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("record CSV: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		recs, err = csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || len(recs) != 131 {
			t.Fatalf("record CSV: %d lines (%v), want header + 130", len(recs), err)
		}
		if strings.Join(recs[0], ",") != "date,game_id,event_id,event,opponent_id,opponent,colour,result,reason,rating_before,rating_after" {
			t.Errorf("record CSV header %v", recs[0])
		}
		// Oldest game last: day 1, sente, won by resignation, rated from 1500.
		last := recs[130]
		if last[0] != "2020-01-01" || last[6] != "sente" || last[7] != "win" || last[8] != office.ReasonResignation || last[9] != "1500.0" || last[10] != "1516.0" {
			t.Errorf("oldest game %v", last)
		}
		if resp, _ := a.get("/players/999999/record.csv"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("record CSV of an unknown player: %d", resp.StatusCode)
		}
	})
}
