package web

import (
	"bytes"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/store"
	"kisen/web/site"
)

// crawlIdentity is who crawls: the public or a signed-in user.
type crawlIdentity struct {
	name   string
	userID int64 // 0: the public
}

const (
	crawlPagesPerVisitor = 160 // cap per identity and language
	crawlPerPattern      = 3   // pages per path pattern (/games/:n …)
)

var reDigits = regexp.MustCompile(`\d+`)

// crawlPattern names a page by its path with numbers folded and its query
// keys (not values), so /games/3 and /games/4 count as one kind of page.
func crawlPattern(u *url.URL) string {
	keys := make([]string, 0, len(u.Query()))
	for k := range u.Query() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return reDigits.ReplaceAllString(u.Path, ":n") + "?" + strings.Join(keys, "&")
}

// crawlSkip: links that are not pages (downloads, the language switch,
// assets, probes).
func crawlSkip(u *url.URL) bool {
	p := u.Path
	if u.Query().Has("lang") { // an embed's language switch (each language names itself)
		return true
	}
	for _, pre := range []string{"/static/", "/lang", "/metrics", "/healthz", "/readyz", "/logout"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	for _, suf := range []string{".csv", ".ics", "/csv"} {
		if strings.HasSuffix(p, suf) {
			return true
		}
	}
	return false
}

// crawl visits every page reachable by links from start as client c and
// returns the offences and the number of pages seen.
func crawl(t *testing.T, a *testApp, c *http.Client, lang string, chk *pageChecker, start []string) ([]offence, int) {
	t.Helper()
	base, _ := url.Parse(a.ts.URL)
	queue := append([]string(nil), start...)
	visited := map[string]bool{}
	perPattern := map[string]int{}
	var out []offence
	pages := 0
	for len(queue) > 0 && pages < crawlPagesPerVisitor {
		ref := queue[0]
		queue = queue[1:]
		u, err := base.Parse(ref)
		if err != nil || u.Host != base.Host || crawlSkip(u) {
			continue
		}
		u.Fragment = ""
		key := u.RequestURI()
		if visited[key] {
			continue
		}
		visited[key] = true
		pat := crawlPattern(u)
		if perPattern[pat] >= crawlPerPattern {
			continue
		}
		perPattern[pat]++
		resp, body := a.do(c, http.MethodGet, key, nil, "")
		pages++
		switch {
		case resp.StatusCode == http.StatusSeeOther || resp.StatusCode == http.StatusFound:
			queue = append(queue, resp.Header.Get("Location"))
			continue
		case resp.StatusCode != http.StatusOK:
			out = append(out, offence{Kind: "status", URL: key, Text: fmt.Sprintf("linked page answered %d", resp.StatusCode)})
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			continue
		}
		out = append(out, chk.check(key, lang, body)...)
		d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			continue
		}
		d.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
			href, _ := s.Attr("href")
			if _, dl := s.Attr("download"); !dl && !strings.HasPrefix(href, "#") {
				queue = append(queue, href)
			}
		})
	}
	return out, pages
}

// crawlErrorRoutes adds routes that fail the way handlers fail, so every
// error page can be looked at: 422 (bad input a room refused), 500 and
// 503 (the database is gone).
func crawlErrorRoutes(a *testApp) map[int]string {
	e := a.srv.Echo
	e.GET("/crawl-test/422", func(echo.Context) error { return fmt.Errorf("crawl: %w", office.ErrInvalid) })
	e.GET("/crawl-test/429", func(echo.Context) error { return echo.NewHTTPError(http.StatusTooManyRequests) })
	e.GET("/crawl-test/500", func(echo.Context) error { return errors.New("crawl: a bug") })
	e.GET("/crawl-test/503", func(echo.Context) error { return fmt.Errorf("crawl: %w", store.ErrUnavailable) })
	return map[int]string{422: "/crawl-test/422", 429: "/crawl-test/429", 500: "/crawl-test/500", 503: "/crawl-test/503"}
}

// errorPages fetches 404, 405, 413 (a 9 MB upload), 422, 429, 500 and 503
// as client c and checks each: status, language, the visitor's navigation,
// no developer text.
func errorPages(t *testing.T, a *testApp, c *http.Client, id crawlIdentity, lang string, chk *pageChecker, routes map[int]string) []offence {
	t.Helper()
	var out []offence
	big := func() (*http.Response, string) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		part, _ := w.CreateFormFile("file", "players.csv")
		part.Write(bytes.Repeat([]byte("羽生 善治,はぶ よしはる\n"), 9<<20/32))
		w.Close()
		return a.postBodyAs(c, "/players/import", w.FormDataContentType(), &buf)
	}
	cases := []struct {
		status int
		fetch  func() (*http.Response, string)
	}{
		{404, func() (*http.Response, string) { return a.do(c, http.MethodGet, "/no/such/page", nil, "") }},
		{405, func() (*http.Response, string) { return a.do(c, http.MethodGet, "/logout", nil, "") }},
		{413, big},
	}
	for _, st := range []int{422, 429, 500, 503} {
		cases = append(cases, struct {
			status int
			fetch  func() (*http.Response, string)
		}{st, func() (*http.Response, string) { return a.do(c, http.MethodGet, routes[st], nil, "") }})
	}
	for _, tc := range cases {
		resp, body := tc.fetch()
		where := fmt.Sprintf("error %d (%s)", tc.status, id.name)
		if resp.StatusCode != tc.status {
			out = append(out, offence{Kind: "status", URL: where, Text: fmt.Sprintf("answered %d", resp.StatusCode)})
			continue
		}
		out = append(out, chk.check(where, lang, body)...)
		d, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		signedIn := d.Find(`[data-testid="nav-user"]`).Length() == 1
		if want := id.userID != 0; signedIn != want {
			out = append(out, offence{Kind: "status", URL: where, Text: fmt.Sprintf("signed-in navigation shown: %v, want %v", signedIn, want)})
		}
		if d.Find(`[data-testid="error-status"]`).Length() != 1 {
			out = append(out, offence{Kind: "status", URL: where, Text: "no error message on the page"})
		}
	}
	return out
}

// postBodyAs posts body from client c with the CSRF token c holds.
func (a *testApp) postBodyAs(c *http.Client, path, contentType string, body *bytes.Buffer) (*http.Response, string) {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodPost, a.ts.URL+path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-CSRF-Token", a.csrfToken(c))
	return a.send(c, req)
}

// setLang makes client c ask for lang, as the language switch does.
func (a *testApp) setLang(c *http.Client, lang string) {
	a.t.Helper()
	u, _ := url.Parse(a.ts.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: lang, Path: "/"}})
}

// TestCrawl_NoDeveloperTextOnAnyPage (issue 13): as the public, the
// administrator, the knockout event's director, arbiter and recorder, and
// the league's scheduler, in Japanese and in English, visit every page the
// navigation leads to, and every error page, and fail on developer text:
// raw message ids, rule ids (D-A1 …), code slugs, bare player ids, raw
// JSON, English sentences on Japanese pages, Japanese UI words on English
// pages. Plain HTTP does the bulk; Chromium renders a sample (SQLite).
// About 30 s per database under -race (the two at once, 2 tests at once on
// 2 cores shared with other work; about 100 s among the package's 8 at
// once): every page the navigation leads to, for six principals in two
// languages.
func TestCrawl_NoDeveloperTextOnAnyPage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		started := time.Now()
		f := newCrawlFixture(t, a)
		routes := crawlErrorRoutes(a)
		var ids []int64
		for _, p := range f.players {
			ids = append(ids, p.ID)
		}
		chk := newPageChecker(a.srv.Msgs, f.data, ids)
		identities := []crawlIdentity{{"public", 0}, {"administrator", f.root.ID}, {"director", f.director.ID},
			{"arbiter", f.arbiter.ID}, {"recorder", f.recorder.ID}, {"scheduler", f.scheduler.ID}}
		start := []string{"/", fmt.Sprintf("/events/%d", f.knockout), fmt.Sprintf("/events/%d", f.leagueEvent),
			fmt.Sprintf("/events/%d/brackets", f.ranking),
			fmt.Sprintf("/games/%d", f.recorded),
			// embeds (issue 15): linked from no page, only pasted elsewhere
			fmt.Sprintf("/embed/stages/%d", f.stage), fmt.Sprintf("/embed/league/%d", f.class)}
		var all []offence
		total := 0
		for _, id := range identities {
			for _, lang := range site.Languages {
				c := a.newClient()
				a.setLang(c, lang)
				if id.userID != 0 {
					a.signIn(c, id.userID)
				}
				offs, n := crawl(t, a, c, lang, chk, start)
				t.Logf("%s/%s: %d pages", id.name, lang, n)
				total += n
				for i := range offs {
					offs[i].URL = id.name + "/" + lang + " " + offs[i].URL
				}
				all = append(all, offs...)
				ep := errorPages(t, a, c, id, lang, chk, routes)
				for i := range ep {
					ep[i].URL = lang + " " + ep[i].URL
				}
				all = append(all, ep...)
			}
		}
		t.Logf("crawled %d pages in %s", total, time.Since(started).Round(time.Millisecond))
		if total < 100 {
			t.Errorf("the crawl reached only %d pages; the navigation is broken or the fixture too small", total)
		}
		report(t, all)
	})
}

// report fails with every offence, grouped by kind, and a count per kind.
func report(t *testing.T, all []offence) {
	t.Helper()
	if len(all) == 0 {
		return
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Kind < all[j].Kind })
	counts := map[string]int{}
	distinct := map[string]bool{}
	var b strings.Builder
	for _, o := range all {
		counts[o.Kind]++
		k := o.Kind + "\x00" + o.Text
		if distinct[k] {
			continue
		}
		distinct[k] = true
		b.WriteString(o.String() + "\n")
	}
	t.Errorf("%d offences (%v), distinct:\n%s", len(all), counts, b.String())
}

// TestCrawl_BrowserSample renders a sample of the crawled pages in
// Chromium (both languages) and checks the text the browser shows, with
// screenshots of the stage, game and error pages.
func TestCrawl_BrowserSample(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		f := newCrawlFixture(t, a)
		var ids []int64
		for _, p := range f.players {
			ids = append(ids, p.ID)
		}
		chk := newPageChecker(a.srv.Msgs, f.data, ids)
		pages := map[string]string{
			"stage":  fmt.Sprintf("/stages/%d", f.stage),
			"game":   fmt.Sprintf("/games/%d", f.recorded),
			"league": fmt.Sprintf("/league/%d", f.class),
			"404":    "/no/such/page",
		}
		// Sign the browser in as an administrator through the login form.
		const pw = "crawl administrator passphrase"
		a.addAccount("crawler", pw, true)
		chk.data = append(chk.data, "名 crawler")
		do(t, ctx, steps(
			one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
				fill("login", "crawler"), fill("password", pw)),
			submit("login-submit"))...)
		var all []offence
		for _, lang := range site.Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back=/"))
			for _, name := range []string{"stage", "game", "league", "404"} {
				do(t, ctx, chromedp.Navigate(a.ts.URL+pages[name]), chromedp.WaitVisible(chromedp.CSS("main")))
				html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, chk.check("chromium "+lang+" "+pages[name], lang, html)...)
				screenshot(t, ctx, "crawl-"+name+"-"+lang)
			}
		}
		report(t, all)
	})
}
