package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"kisen/config"
	"kisen/office"
	"kisen/office/seed"
	"kisen/web/site"
)

// withConfig is a second server over the same database whose
// configuration differs from the harness's as edit says.
func (a *testApp) withConfig(edit func(*config.Config)) *testApp {
	a.t.Helper()
	b := &testApp{t: a.t, store: a.store, now: a.now}
	cfg := config.Default()
	cfg.APIRate = 0
	edit(&cfg)
	srv, err := New(Deps{Config: cfg, Office: office.New(a.store, func() time.Time { return b.now })})
	if err != nil {
		a.t.Fatal(err)
	}
	srv.AskFuture = false
	b.srv = srv
	b.ts = httptest.NewServer(srv.Handler())
	a.t.Cleanup(b.ts.Close)
	b.client = b.newClient()
	return b
}

// Issue 21 item 12: /metrics names every route and its load; it is not on
// the main address unless --metrics-public says so (with --metrics-listen
// it is served on that address only).
func TestMetrics_NotOnTheMainAddressUnlessPublic(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		if resp, body := a.get("/metrics"); resp.StatusCode != http.StatusNotFound || strings.Contains(body, "kisen_http_requests_total") {
			t.Fatalf("default: /metrics answers %d", resp.StatusCode)
		}
		sep := a.withConfig(func(c *config.Config) { c.MetricsListen = "127.0.0.1:0" })
		if resp, _ := sep.get("/metrics"); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("with --metrics-listen: main-address /metrics answers %d", resp.StatusCode)
		}
		pub := a.withConfig(func(c *config.Config) { c.MetricsPublic = true })
		pub.get("/healthz") // a request to count
		if resp, body := pub.get("/metrics"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "kisen_http_requests_total") {
			t.Fatalf("--metrics-public: /metrics answers %d", resp.StatusCode)
		}
	})
}

// csrfCookieOf is the browser's CSRF cookie ("" when it has none).
func csrfCookieOf(a *testApp, c *http.Client) string {
	u, _ := url.Parse(a.ts.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == site.CSRFCookie {
			return ck.Value
		}
	}
	return ""
}

// Issue 21 item 12: a CSRF token planted in the browser before sign-in (a
// cookie set by a neighbouring site, a token seen on a shared computer)
// is worthless after it, and again after sign-out: the token rotates.
func TestCSRF_TokenRotatesAtSignInAndSignOut(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.addAccount("sato", "password-of-sato", false)
		u, _ := url.Parse(a.ts.URL)
		const planted = "planted-token-known-to-the-attacker"
		a.client.Jar.SetCookies(u, []*http.Cookie{{Name: site.CSRFCookie, Value: planted, Path: "/"}})
		// The sign-in form itself goes through with the planted token, as
		// the attacker's would.
		resp, _ := a.postForm("/login", url.Values{"_csrf": {planted}, "login": {"sato"}, "password": {"password-of-sato"}, "next": {"/"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign in: %d", resp.StatusCode)
		}
		signedIn := csrfCookieOf(a, a.client)
		if signedIn == "" || signedIn == planted {
			t.Fatalf("CSRF cookie after sign-in is %q: not rotated", signedIn)
		}
		if resp, _ := a.postForm("/logout", url.Values{"_csrf": {planted}}); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a write with the planted token after sign-in: %d, want 403", resp.StatusCode)
		}
		if resp, _ := a.get("/account"); resp.StatusCode != http.StatusOK {
			t.Fatalf("the refused write signed out: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm("/logout", url.Values{"_csrf": {signedIn}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign out with the new token: %d", resp.StatusCode)
		}
		if after := csrfCookieOf(a, a.client); after == "" || after == signedIn {
			t.Fatalf("CSRF cookie after sign-out is %q: not rotated", after)
		}
	})
}

// routePath fills a route template with the ids of the seeded fixture
// (every :param is 1, which exists for events, stages, classes, games and
// players) and the wildcard with a real static file.
func routePath(tmpl string) string {
	parts := strings.Split(tmpl, "/")
	for i, p := range parts {
		switch {
		case strings.HasPrefix(p, ":"):
			parts[i] = "1"
		case p == "*":
			parts[i] = "app.css"
		}
	}
	return strings.Join(parts, "/")
}

// Issue 21 item 12: HEAD works wherever GET does. Every GET route of the
// router (no list to keep up) is asked with GET and with HEAD by an
// anonymous client over a seeded database: the status is the same, and a
// HEAD answer carries no body (checked on the handler's own output, not
// what net/http lets through).
func TestHEAD_EveryGetRouteAnswersHeadLikeGet(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.Knockout(ctx, 4, 1); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.League(ctx, 11, 3); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		n := 0
		for _, rt := range a.srv.Echo.Routes() {
			if rt.Method != http.MethodGet || seen[rt.Path] {
				continue
			}
			seen[rt.Path] = true
			path := routePath(rt.Path)
			get := httptest.NewRequest(http.MethodGet, path, nil)
			gctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			gw := newStatusRecorder()
			go func() { // a stream: its status is enough
				select {
				case <-gw.headerSent:
					cancel()
				case <-gctx.Done():
				}
			}()
			a.srv.Handler().ServeHTTP(gw, get.WithContext(gctx))
			cancel()
			hw := httptest.NewRecorder()
			hctx, hcancel := context.WithTimeout(ctx, 5*time.Second)
			a.srv.Handler().ServeHTTP(hw, httptest.NewRequest(http.MethodHead, path, nil).WithContext(hctx))
			hcancel()
			if hw.Code != gw.code {
				t.Errorf("%s (%s): GET %d, HEAD %d", rt.Path, path, gw.code, hw.Code)
			}
			if hw.Body.Len() != 0 {
				t.Errorf("%s: HEAD sent a body of %d bytes", rt.Path, hw.Body.Len())
			}
			n++
		}
		if n < 50 {
			t.Fatalf("only %d GET routes found", n)
		}
		// Over a real connection too.
		req, _ := http.NewRequest(http.MethodHead, a.ts.URL+"/players", nil)
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(b) != 0 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("HEAD /players over HTTP: %d, %d bytes, %s", resp.StatusCode, len(b), resp.Header.Get("Content-Type"))
		}
	})
}

// statusRecorder records the status and signals when the header is sent
// (a stream's handler keeps running until its context ends).
type statusRecorder struct {
	h          http.Header
	code       int
	headerSent chan struct{}
}

func newStatusRecorder() *statusRecorder {
	return &statusRecorder{h: http.Header{}, headerSent: make(chan struct{})}
}

func (w *statusRecorder) Header() http.Header { return w.h }
func (w *statusRecorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
		close(w.headerSent)
	}
}
func (w *statusRecorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}
func (w *statusRecorder) Flush() {}

// chunkedBody is a body of n bytes whose length is not known in advance,
// so the client sends it chunked (no Content-Length).
type chunkedBody struct{ left int }

func (b *chunkedBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), b.left)
	for i := range n {
		p[i] = 'a'
	}
	b.left -= n
	return n, nil
}

// Issue 21 item 12: a chunked body (no Content-Length) over the limit is
// 413, like one that declares its length (it was 400: the limit's error
// was taken for a malformed form).
func TestBodyLimit_ChunkedBodyOverTheLimitIs413(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		big := site.BodyLimitBytes + 1<<20
		filePart := "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n"
		for _, tc := range []struct {
			path, ctype string
			body        io.Reader
		}{
			{"/login", "application/x-www-form-urlencoded", io.MultiReader(strings.NewReader("login=x&password="), &chunkedBody{left: big})},
			{"/players/import", "multipart/form-data; boundary=x", io.MultiReader(strings.NewReader(filePart), &chunkedBody{left: big})},
		} {
			// A body of unknown length: the client sends it chunked.
			req, _ := http.NewRequest(http.MethodPost, a.ts.URL+tc.path, tc.body)
			req.Header.Set("Content-Type", tc.ctype)
			req.Header.Set("X-CSRF-Token", a.csrfToken(a.client))
			resp, err := a.client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", tc.path, err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%s: chunked %s body over %d bytes: %d, want 413", tc.path, tc.ctype, big, resp.StatusCode)
			}
		}
		// Under the limit, chunked, is read as usual.
		req, _ := http.NewRequest(http.MethodPost, a.ts.URL+"/login", io.MultiReader(strings.NewReader(url.Values{"login": {"x"}, "password": {"y"}, "_csrf": {a.csrfToken(a.client)}}.Encode())))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("a small chunked sign-in: %d, want 422 (wrong password)", resp.StatusCode)
		}
	})
}
