package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/config"
)

func TestServer_HealthAndReadiness(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		resp, body := a.get("/healthz")
		if resp.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
			t.Fatalf("healthz: %d %s", resp.StatusCode, body)
		}
		resp, body = a.get("/readyz")
		if resp.StatusCode != 200 || !strings.Contains(body, string(a.store.Dialect())) {
			t.Fatalf("readyz: %d %s", resp.StatusCode, body)
		}
		if err := a.store.Close(); err != nil {
			t.Fatal(err)
		}
		resp, _ = a.get("/readyz")
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("readyz with the database closed: %d, want 503", resp.StatusCode)
		}
	})
}

func TestServer_SecurityHeadersAllowNoInlineScript(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		resp, body := a.get("/")
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Fatalf("CSP %q", csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("headers: %v", resp.Header)
		}
		// No inline script in the page: every <script> has a src.
		for _, part := range strings.Split(body, "<script")[1:] {
			if !strings.HasPrefix(strings.TrimSpace(part), "src=") {
				t.Fatalf("inline script found: <script%s", part[:min(len(part), 60)])
			}
		}
	})
}

func TestServer_RejectsPostWithoutCSRFToken(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.get("/") // gets the CSRF cookie
		resp, _ := a.do(a.client, http.MethodPost, "/lang", strings.NewReader(""), "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("POST without token: %d, want 403", resp.StatusCode)
		}
		form := url.Values{"_csrf": {"wrong"}}
		resp, _ = a.do(a.client, http.MethodPost, "/lang", strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("POST with a wrong token: %d, want 403", resp.StatusCode)
		}
	})
}

func TestServer_LanguageSwitchAndLocalisedErrors(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		_, body := a.get("/no-such-page")
		if !strings.Contains(body, "ページが見つかりません") {
			t.Fatalf("Japanese 404 expected, got %s", body)
		}
		resp, _ := a.get("/lang?to=en&back=/no-such-page")
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/no-such-page" {
			t.Fatalf("lang switch: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		resp, body = a.get("/no-such-page")
		if resp.StatusCode != 404 || !strings.Contains(body, "Page not found") || !strings.Contains(body, `lang="en"`) {
			t.Fatalf("English 404 expected, got %d %s", resp.StatusCode, body)
		}
		resp, _ = a.get("/lang?to=ja&back=//evil.example/")
		if resp.Header.Get("Location") != "/" {
			t.Fatalf("open redirect: %s", resp.Header.Get("Location"))
		}
	})
}

func TestServer_MetricsUseRouteTemplates(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a = a.withConfig(func(c *config.Config) { c.MetricsPublic = true })
		a.get("/static/app.css")
		a.get("/healthz")
		_, body := a.get("/metrics")
		if !strings.Contains(body, `kisen_http_requests_total{method="GET",route="/static/*",status="200"}`) {
			t.Fatalf("metrics lack the route template label:\n%s", body)
		}
		if strings.Contains(body, `route="/static/app.css"`) {
			t.Fatal("metrics labelled by raw path, not route template")
		}
	})
}

func TestServer_StaticAssets(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		resp, body := a.get("/static/htmx-2.0.11.min.js")
		if resp.StatusCode != 200 || !strings.Contains(body, "htmx") {
			t.Fatalf("htmx: %d", resp.StatusCode)
		}
		resp, _ = a.get("/static/../server.go")
		if resp.StatusCode != 404 {
			t.Fatalf("path escape: %d", resp.StatusCode)
		}
	})
}
