package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
	"kisen/web/site"
)

// BenchmarkDayDesk is issue 23 §2's day: 600 entrants in six classes,
// served by the real handler to a signed-in director — the reception page,
// the search (server side; the page filters in the browser), the row a
// check-in answers with htmx, and one check-in transaction on its own
// (office). Each reports its p95 beside the mean. PostgreSQL when
// KISEN_TEST_DATABASE_URL is set, else SQLite:
// `go test -run '^$' -bench DayDesk -benchtime 200x ./web/`.
func BenchmarkDayDesk(b *testing.B) {
	var s *store.Store
	if os.Getenv("KISEN_TEST_DATABASE_URL") != "" {
		s = storetest.Postgres(b)
	} else {
		s = storetest.SQLite(b)
	}
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	srv, err := New(Deps{Config: config.Default(), Office: office.New(s, func() time.Time { return now })})
	if err != nil {
		b.Fatal(err)
	}
	u := store.User{Login: "desk", DisplayName: "desk", PasswordHash: "x", IsAdmin: true, CreatedAt: now, UpdatedAt: now}
	if err := s.DB(ctx).Create(&u).Error; err != nil {
		b.Fatal(err)
	}
	admin := office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
	org := store.Organiser{Name: "県連", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: now, UpdatedAt: now}
	if err := s.CreateOrganiser(ctx, &org); err != nil {
		b.Fatal(err)
	}
	d := day.New(srv.Office)
	e, err := d.CreateDay(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: "県名人戦", StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		b.Fatal(err)
	}
	var classes []int64
	for i := range 6 {
		in := day.InputOf(e.ID, fmt.Sprintf("%c級", 'A'+i), "", i, day.FormatSwiss, day.DefaultSettings())
		in.Fee = "1000"
		c, err := d.CreateClass(ctx, admin, in)
		if err != nil {
			b.Fatal(err)
		}
		classes = append(classes, c.ID)
	}
	kana := []rune("あいうえおかきくけこさしすせそたちつてとなにぬねの")
	var ids []int64
	for i := range 600 {
		reading := string([]rune{kana[i%25], kana[(i/25)%25]}) + "やまだ" + fmt.Sprint(i)
		p := store.Player{Name: fmt.Sprintf("山田%03d", i), Reading: reading, Kind: store.PlayerAmateur, Rank: "初段", CreatedAt: now, UpdatedAt: now}
		if err := s.CreatePlayer(ctx, &p); err != nil {
			b.Fatal(err)
		}
		if _, err := d.Enter(ctx, admin, day.EntryInput{EventID: e.ID, PlayerID: p.ID, ClassID: classes[i%6]}); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(ts.Close)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	deadline := time.Now().Add(time.Hour)
	enc, err := srv.Sessions.Codec.Encode(deadline, map[string]interface{}{site.SessionUserKey: u.ID})
	if err != nil {
		b.Fatal(err)
	}
	if err := store.NewSessionStore(s, func() time.Time { return now }).CommitCtx(ctx, "bench-session", enc, deadline); err != nil {
		b.Fatal(err)
	}
	base, _ := url.Parse(ts.URL)
	jar.SetCookies(base, []*http.Cookie{{Name: "kisen_session", Value: "bench-session", Path: "/"}})
	send := func(b *testing.B, req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %d", req.Method, req.URL, resp.StatusCode)
		}
	}
	get := func(path string) func(b *testing.B, i int) {
		return func(b *testing.B, i int) {
			req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
			send(b, req)
		}
	}
	csrf := func() string {
		for _, c := range jar.Cookies(base) {
			if c.Name == "kisen_csrf" {
				return c.Value
			}
		}
		return ""
	}
	states := []string{store.CheckinPresent, store.CheckinExpected}
	pathOf := fmt.Sprintf("/events/%d/day", e.ID)
	cases := []struct {
		name string
		op   func(b *testing.B, i int)
	}{
		{"page", get(pathOf + "/reception")},
		{"search", get(pathOf + "/reception/search?q=" + url.QueryEscape("かい"))},
		{"checkin-htmx", func(b *testing.B, i int) {
			form := url.Values{"player_id": {fmt.Sprint(ids[0])}, "state": {states[i%2]}}
			req, _ := http.NewRequest(http.MethodPost, ts.URL+pathOf+"/checkin", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("HX-Request", "true")
			req.Header.Set("X-CSRF-Token", csrf())
			send(b, req)
		}},
		{"checkin-tx", func(b *testing.B, i int) {
			if err := d.CheckInSeen(ctx, admin, day.DeskWrite{EventID: e.ID, PlayerID: ids[1], Version: day.Unchecked}, states[i%2]); err != nil {
				b.Fatal(err)
			}
		}},
	}
	get(pathOf+"/reception")(b, 0) // the CSRF cookie, warm caches
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			c.op(b, 1)
			var took []time.Duration
			st0 := s.Statements()
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				t0 := time.Now()
				c.op(b, i)
				took = append(took, time.Since(t0))
				i++
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
			b.ReportMetric(float64(s.Statements()-st0)/float64(b.N), "stmts/op")
		})
	}
}
