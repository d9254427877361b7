package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// A database outage answers 503 with Retry-After and a localised page
// (issue 11 part 7), never 500; when the database is back, 200 again.

func outagePlayerForm(name string) url.Values {
	return url.Values{"name": {name}, "reading": {"てすと"}, "kind": {"professional"}, "rank": {"五段"}}
}

// assertUnavailable checks one answer given during an outage.
func assertUnavailable(t *testing.T, what string, resp *http.Response, body, wantText string) {
	t.Helper()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("%s: status %d, want 503\n%.400s", what, resp.StatusCode, body)
	}
	if got := resp.Header.Get("Retry-After"); got != "5" {
		t.Errorf("%s: Retry-After %q, want 5", what, got)
	}
	if wantText != "" && !strings.Contains(body, wantText) {
		t.Errorf("%s: body lacks %q:\n%.600s", what, wantText, body)
	}
}

func TestOutagePostgresAnswers503(t *testing.T) {
	t.Parallel()
	o := storetest.PostgresOptions(t)
	s, err := store.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	a := newTestApp(t, s)
	a.signInAdmin()
	if resp, body := a.postForm("/players", outagePlayerForm("停電前 一郎")); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create before the outage: %d %.300s", resp.StatusCode, body)
	}
	public := a.newClient()
	publicToken := a.csrfToken(public)

	outage := storetest.PostgresOutage(t, o)
	outage.Begin()

	ja := a.srv.Msgs.For("ja").T("error.unavailable")
	en := a.srv.Msgs.For("en").T("error.unavailable")
	// Signed in: the session is read from the database first.
	resp, body := a.get("/players")
	assertUnavailable(t, "GET /players (signed in)", resp, body, ja)
	// The public: no session to read, the handler's query fails.
	resp, body = a.do(public, http.MethodGet, "/players?lang=en", nil, "")
	assertUnavailable(t, "GET /players?lang=en (public)", resp, body, en)
	if !strings.Contains(body, `data-testid="error-unavailable"`) || !strings.Contains(body, "<html") {
		t.Errorf("full page expected:\n%.600s", body)
	}
	// A write.
	resp, body = a.postForm("/players", outagePlayerForm("停電中 二郎"))
	assertUnavailable(t, "POST /players", resp, body, ja)
	// Signing in (reads the account, writes the attempt).
	login := url.Values{"login": {"admin"}, "password": {"x"}, "_csrf": {publicToken}}
	resp, body = a.do(public, http.MethodPost, "/login", strings.NewReader(login.Encode()), "application/x-www-form-urlencoded")
	assertUnavailable(t, "POST /login", resp, body, ja)
	// htmx: a fragment, not a whole page.
	resp, body = a.getHTMX("/players")
	assertUnavailable(t, "htmx GET /players", resp, body, ja)
	if strings.Contains(body, "<html") {
		t.Errorf("htmx answer is a whole page:\n%.400s", body)
	}
	// JSON.
	req, _ := http.NewRequest(http.MethodGet, a.ts.URL+"/players", nil)
	req.Header.Set("Accept", "application/json")
	resp, body = a.send(public, req)
	assertUnavailable(t, "JSON GET /players", resp, body, `"code":"error.unavailable"`)
	// readyz.
	resp, body = a.do(public, http.MethodGet, "/readyz", nil, "")
	assertUnavailable(t, "GET /readyz", resp, body, "unavailable")

	outage.End()
	if resp, body := a.get("/players"); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /players after the outage: %d %.300s", resp.StatusCode, body)
	}
	if resp, body := a.postForm("/players", outagePlayerForm("復旧後 三郎")); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create after the outage: %d %.300s", resp.StatusCode, body)
	}
	if resp, _ := a.do(public, http.MethodGet, "/readyz", nil, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz after the outage: %d", resp.StatusCode)
	}
	_, body = a.get("/players")
	for _, name := range []string{"停電前 一郎", "復旧後 三郎"} {
		if !strings.Contains(body, name) {
			t.Errorf("player %s missing after the outage", name)
		}
	}
	if strings.Contains(body, "停電中 二郎") {
		t.Error("the write refused during the outage was stored")
	}
}

// SQLite: a writer that finds the file locked beyond the busy timeout gets
// 503; plain readers go on (WAL); the write succeeds once the lock is gone.
func TestOutageSQLiteLockedAnswers503(t *testing.T) {
	t.Parallel()
	o := storetest.SQLiteOptions(t)
	o.SQLiteBusyTimeout = 150 * time.Millisecond
	ctx := context.Background()
	s, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	a := newTestApp(t, s)
	a.signInAdmin()
	a.csrfToken(a.client)

	holder, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Close() })
	conn, err := holder.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	resp, body := a.postForm("/players", outagePlayerForm("施錠中 一郎"))
	assertUnavailable(t, "POST /players while locked", resp, body, a.srv.Msgs.For("ja").T("error.unavailable"))
	// Signed in, every request re-saves the session (idle timeout): a write.
	resp, body = a.get("/players")
	assertUnavailable(t, "GET /players while locked (signed in)", resp, body, "")
	if n := strings.Count(body, "<html"); n != 1 {
		t.Errorf("the 503 answer holds %d documents, want 1:\n%.800s", n, body)
	}
	// The public only reads, and readers go on under WAL.
	public := a.newClient()
	if resp, body := a.do(public, http.MethodGet, "/players", nil, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("public GET /players while locked: %d %.300s", resp.StatusCode, body)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if resp, body := a.postForm("/players", outagePlayerForm("解錠後 二郎")); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create after the lock: %d %.300s", resp.StatusCode, body)
	}
}

// PostgreSQL goes away during a burst of writes: every write answers 303
// (stored) or 503 (not stored, try again), never 500, and every write that
// was acknowledged is there once the database is back.
func TestOutagePostgresDuringAWriteBurst(t *testing.T) {
	t.Parallel()
	o := storetest.PostgresOptions(t)
	s, err := store.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	a := newTestApp(t, s)
	a.signInAdmin()
	token := a.csrfToken(a.client)
	outage := storetest.PostgresOutage(t, o)

	type answer struct {
		status     int
		retryAfter string
		location   string
		err        error
	}
	const writers, each = 4, 12
	answers := make(chan answer, writers*each)
	started := make(chan struct{}, writers*each)
	for w := range writers {
		go func() {
			for i := range each {
				form := outagePlayerForm(fmt.Sprintf("連射 %d-%d", w, i))
				form.Set("_csrf", token)
				req, _ := http.NewRequest(http.MethodPost, a.ts.URL+"/players", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				started <- struct{}{}
				resp, err := a.client.Do(req)
				if err != nil {
					answers <- answer{err: err}
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				answers <- answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), location: resp.Header.Get("Location")}
			}
		}()
	}
	for range writers * 3 {
		<-started
	}
	outage.Begin()
	var stored []string
	refused := 0
	for range writers * each {
		an := <-answers
		switch {
		case an.err != nil:
			t.Errorf("transport error: %v", an.err)
		case an.status == http.StatusSeeOther:
			stored = append(stored, an.location)
		case an.status == http.StatusServiceUnavailable:
			refused++
			if an.retryAfter == "" {
				t.Error("503 without Retry-After")
			}
		default:
			t.Errorf("status %d during the outage, want 303 or 503", an.status)
		}
	}
	outage.End()
	if refused == 0 {
		t.Error("no write met the outage; the test proves nothing")
	}
	for _, loc := range stored {
		if resp, _ := a.get(loc); resp.StatusCode != http.StatusOK {
			t.Errorf("acknowledged player %s: %d after the outage", loc, resp.StatusCode)
		}
	}
	t.Logf("%d stored, %d refused with 503", len(stored), refused)
}
