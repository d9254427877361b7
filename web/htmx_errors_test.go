package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/web/site"
)

// TestWords_HTMXErrorAnswersAreMessagesInPlace (issue 13): an htmx
// request that fails with a status the handlers do not answer themselves
// (404, 403 for an expired form, 413 for a body over the limit) gets the
// localised message as a fragment — no page, no navigation — so app.js
// can show it where the answer would have gone; signed out, it is sent to
// the login page as a whole. A plain request still gets the whole error
// page.
func TestWords_HTMXErrorAnswersAreMessagesInPlace(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		hx := func(method, path, body, token string) (*http.Response, string) {
			t.Helper()
			req, err := http.NewRequest(method, a.ts.URL+path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("HX-Request", "true")
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if token != "" {
				req.Header.Set("X-CSRF-Token", token)
			}
			return a.send(a.client, req)
		}
		preview := site.GameURL(g.game.ID) + "/record/preview"
		cases := []struct {
			name         string
			status       int
			method, path string
			body, token  string
			ja, en       string
		}{
			{"gone", http.StatusNotFound, http.MethodGet, "/no/such/page", "", "", "ページが見つかりません", "not found"},
			{"expired form", http.StatusForbidden, http.MethodPost, preview, "record=x", "not-the-token", "有効期限が切れました", "expired"},
			{"too large", http.StatusRequestEntityTooLarge, http.MethodPost, preview, "record=" + strings.Repeat("x", 9<<20), "", "大きすぎます", "too large"},
		}
		for _, lang := range site.Languages {
			a.setLang(a.client, lang)
			for _, tc := range cases {
				tok := tc.token
				if tok == "" {
					tok = a.csrfToken(a.client)
				}
				resp, body := hx(tc.method, tc.path, tc.body, tok)
				if resp.StatusCode != tc.status {
					t.Fatalf("%s %s: %d, want %d", lang, tc.name, resp.StatusCode, tc.status)
				}
				if strings.Contains(body, "<html") || strings.Contains(body, `data-testid="nav-user"`) {
					t.Errorf("%s %s: a whole page for an htmx request", lang, tc.name)
				}
				want := tc.ja
				if lang == "en" {
					want = tc.en
				}
				if msg := testid(t, body, "error-status"); !strings.Contains(strings.ToLower(msg), want) {
					t.Errorf("%s %s: message %q, want %q", lang, tc.name, msg, want)
				}
			}
		}
		// Signed out (elsewhere): an htmx click is told to load the login
		// page whole, coming back to the page it was on — never the login
		// page inside the slot.
		anon := a.newClient()
		req, err := http.NewRequest(http.MethodPost, a.ts.URL+preview, strings.NewReader("record=x"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", a.ts.URL+site.GameURL(g.game.ID)+"#record")
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", a.csrfToken(anon))
		resp, body := a.send(anon, req)
		if want := "/login?next=" + url.QueryEscape(site.GameURL(g.game.ID)); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("HX-Redirect") != want || strings.Contains(body, "<html") {
			t.Errorf("signed out htmx click: %d, HX-Redirect %q (want %q)", resp.StatusCode, resp.Header.Get("HX-Redirect"), want)
		}
		// Without htmx the same failure is the whole localised page.
		a.setLang(a.client, "ja")
		resp, body = a.get("/no/such/page")
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "<html") || !strings.Contains(body, `data-testid="nav-user"`) {
			t.Errorf("plain 404: %d, whole page with navigation: %v", resp.StatusCode, strings.Contains(body, "<html"))
		}
	})
}
