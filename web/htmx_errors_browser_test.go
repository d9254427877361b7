package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/store"
	"kisen/web/site"
)

// TestBrowser_HTMXSignedOutClickLoadsTheLoginPage (issue 13): 確認 on the
// game page's record form after the user signed out in another tab used to
// put the login page inside the preview slot (htmx followed the redirect);
// now the browser loads the login page as a whole, in the page's language,
// and it comes back to the game.
func TestBrowser_HTMXSignedOutClickLoadsTheLoginPage(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		g := newGameSetup(t, a, "{}")
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		js := func(src string) {
			t.Helper()
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){`+src+`; return true})()`)); err != nil {
				t.Fatal(err)
			}
		}
		for _, lang := range site.Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back=/"))
			browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="record-form"]`)

			// Signed out in another tab, then 確認 on this page.
			js(`window.__signedOut = 0; fetch('/logout', {method: 'POST', headers: {'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]').content}}).then(function (r) { window.__signedOut = r.status })`)
			waitSignedOut(t, ctx)
			js(`document.querySelector('#f-record').value = 'position startpos moves 7g7f'`)
			do(t, ctx, submit("record-preview")...)
			do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)))
			loc, err := chromedp.Run(ctx, chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			if u, err := url.Parse(loc); err != nil || u.Path != "/login" || u.Query().Get("next") != gp {
				t.Fatalf("%s: signed out: the click led to %s, want the login page coming back to %s", lang, loc, gp)
			}
			if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); err != nil || got != lang {
				t.Fatalf("the login page is in %q, want %q (%v)", got, lang, err)
			}
			screenshot(t, ctx, "htmx-signed-out-login-"+lang)
		}
	})
}

// waitSignedOut waits until the page's sign-out request (started by the
// test, as another tab would) has been answered.
func waitSignedOut(t *testing.T, ctx context.Context) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__signedOut`))
		if err != nil {
			t.Fatal(err)
		}
		if st != 0 {
			if st != 200 {
				t.Fatalf("sign-out answered %d", st)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the sign-out request was never answered")
}

// TestBrowser_HTMXErrorShownInPlace (issue 13): 確認 sending a record over
// the body limit is refused (413); the message appears in the record's
// preview slot, in the page's language, and the page stays. The server's
// limit is set to 64 KB here and the record is about 480 KB URL-encoded:
// the same path as a 9 MB record against the 8 MB default (the body is
// drained before the 413, body_limit.go), without the race-enabled server
// reading 30 MB per language (that took 150 s a database on CI's 2 cores
// and ran into the test's deadline).
func TestBrowser_HTMXErrorShownInPlace(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		a.srv.BodyLimit = 64 << 10
		g := newGameSetup(t, a, "{}")
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="record-form"]`)
		for _, lang := range site.Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back="+gp), chromedp.WaitVisible(chromedp.CSS(`[data-testid="record-form"]`)))
			// The pasted record goes into the request, not into the text
			// box: what is tested is the answer to the request. The box holds one line;
			// htmx's own htmx:configRequest (the event app.js adds the CSRF
			// header in) replaces the record field of this one request.
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){
				document.querySelector('#f-record').value = '1 ７六歩(77)';
				document.addEventListener('htmx:configRequest', function (e) {
					e.detail.parameters['record'] = '1 ７六歩(77)\n'.repeat(12000);
				}, {once: true});
				return true})()`)); err != nil {
				t.Fatal(err)
			}
			do(t, ctx,
				chromedp.Click(chromedp.CSS(`[data-testid="record-preview"]`)),
				chromedp.WaitVisible(chromedp.CSS(`#record-preview [data-testid="error-fragment"]`)),
			)
			msg := textOf(t, ctx, `#record-preview [data-testid="error-status"]`)
			want := map[string]string{"ja": "大きすぎます", "en": "too large"}[lang]
			if !strings.Contains(msg, want) {
				t.Fatalf("%s: message in place %q, want %q", lang, msg, want)
			}
			if n := textOf(t, ctx, `[data-testid="record-form"] label[for="f-record"]`); n == "" {
				t.Fatalf("%s: the game page is gone", lang)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){document.querySelector('#f-record').value=''; document.getElementById('record').scrollIntoView(); return true})()`)); err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, "htmx-413-in-place-"+lang)
		}
	})
}
