package web

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/config"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
	"kisen/web/site"
)

// testApp is one server over its own database, with a browser-like client
// (cookie jar, no automatic redirects) for handler tests.
type testApp struct {
	t      *testing.T
	srv    *Server
	store  *store.Store
	ts     *httptest.Server
	client *http.Client
	now    time.Time
}

// eachApp runs fn against a fresh app on SQLite and on PostgreSQL, the two
// at the same time (each app has its own database and server; every call
// is the last statement of its test, so nothing in the test runs after it).
func eachApp(t *testing.T, fn func(t *testing.T, a *testApp)) {
	t.Helper()
	storetest.EachParallel(t, func(t *testing.T, s *store.Store) { fn(t, newTestApp(t, s)) })
}

func newTestApp(t *testing.T, s *store.Store) *testApp {
	t.Helper()
	a := &testApp{t: t, store: s, now: time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)}
	cfg := config.Default()
	// The clock is fixed, so no API rate bucket would ever refill: no limit
	// here; TestAPI_RateLimitAnswers429WithRetryAfter sets its own.
	cfg.APIRate = 0
	srv, err := New(Deps{Config: cfg, Office: office.New(s, func() time.Time { return a.now })})
	if err != nil {
		t.Fatal(err)
	}
	// Handler tests enter results on dates before the games' (the clock
	// is fixed); the question that raises is tested on its own
	// (result_future_test.go), which turns it back on.
	srv.AskFuture = false
	// Accounts the tests make through the pages (setup, users, password
	// change) are hashed cheaply; the strong default is office's own test.
	srv.Office.UsePasswordParams(cheapParams)
	a.srv = srv
	a.ts = httptest.NewServer(srv.Handler())
	t.Cleanup(a.ts.Close)
	a.client = a.newClient()
	return a
}

// newClient is a separate browser (its own cookies).
func (a *testApp) newClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       30 * time.Second,
	}
}

// get fetches path and returns the response and its body.
func (a *testApp) get(path string) (*http.Response, string) {
	a.t.Helper()
	return a.do(a.client, http.MethodGet, path, nil, "")
}

// postForm submits a form with the CSRF token the browser holds.
func (a *testApp) postForm(path string, form url.Values) (*http.Response, string) {
	a.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if form.Get("_csrf") == "" {
		form.Set("_csrf", a.csrfToken(a.client))
	}
	return a.do(a.client, http.MethodPost, path, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

// postMultipart submits a multipart body (file uploads) with the token.
func (a *testApp) postBody(path, contentType string, body io.Reader) (*http.Response, string) {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodPost, a.ts.URL+path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-CSRF-Token", a.csrfToken(a.client))
	return a.send(a.client, req)
}

func (a *testApp) do(c *http.Client, method, path string, body io.Reader, contentType string) (*http.Response, string) {
	a.t.Helper()
	req, err := http.NewRequest(method, a.ts.URL+path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return a.send(c, req)
}

func (a *testApp) send(c *http.Client, req *http.Request) (*http.Response, string) {
	a.t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	// Every HTML answer of every handler test, previews and error pages
	// included, is checked for rule ids in its visible text (issue 13: D-ids
	// live in code, tests and logs, never on a page).
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		if m := ruleIDOnPage(string(b)); m != "" {
			a.t.Errorf("%s %s shows the rule id %q", req.Method, req.URL.Path, m)
		}
	}
	return resp, string(b)
}

// ruleIDOnPage finds a rule id (D-A1 …) in the visible text of a page.
func ruleIDOnPage(page string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		return ""
	}
	doc.Find("script, style").Remove()
	return reRuleID.FindString(doc.Text())
}

// csrfToken returns the browser's CSRF cookie, fetching a page first if
// the browser has none yet.
func (a *testApp) csrfToken(c *http.Client) string {
	a.t.Helper()
	u, _ := url.Parse(a.ts.URL)
	for range 2 {
		for _, ck := range c.Jar.Cookies(u) {
			if ck.Name == "kisen_csrf" {
				return ck.Value
			}
		}
		a.do(c, http.MethodGet, "/", nil, "")
	}
	a.t.Fatal("no CSRF cookie was set")
	return ""
}

// signIn makes the test browser signed in as the user with id, by writing
// a session the way the session manager does.
func (a *testApp) signIn(c *http.Client, userID int64) {
	a.t.Helper()
	ctx := context.Background()
	token := "test-session-" + url.QueryEscape(time.Now().Format(time.RFC3339Nano))
	// The cookie jar compares the expiry with the wall clock, so the
	// deadline must lie in the real future, not the test clock's.
	deadline := time.Now().Add(time.Hour)
	b, err := a.srv.Sessions.Codec.Encode(deadline, map[string]interface{}{site.SessionUserKey: userID})
	if err != nil {
		a.t.Fatal(err)
	}
	if err := store.NewSessionStore(a.store, func() time.Time { return a.now }).CommitCtx(ctx, token, b, deadline); err != nil {
		a.t.Fatal(err)
	}
	u, _ := url.Parse(a.ts.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "kisen_session", Value: token, Path: "/"}})
}

// addUser inserts a user row directly (password hashing is the accounts
// code's business; this is for handler tests of other areas).
func (a *testApp) addUser(login string, admin bool) store.User {
	a.t.Helper()
	u := store.User{Login: login, DisplayName: login, PasswordHash: "x", IsAdmin: admin, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.DB(context.Background()).Create(&u).Error; err != nil {
		a.t.Fatal(err)
	}
	return u
}

// storetestSQLite is a fresh SQLite store (browser tests need one server).
func storetestSQLite(t *testing.T) *store.Store { return storetest.SQLite(t) }
