package web

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/store"
)

// TestBrowser_HTMXSignedOutClickLoadsTheLoginPage (issue 13): 確認 on the
// game page's record form after the user signed out in another tab used to
// put the login page inside the preview slot (htmx followed the redirect);
// now the browser loads the login page as a whole, in the page's language,
// and it comes back to the game.
func TestBrowser_HTMXSignedOutClickLoadsTheLoginPage(t *testing.T) {
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
		for _, lang := range Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back=/"))
			browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="record-form"]`)

			// Signed out in another tab, then 確認 on this page.
			before := sessionCount(t, a)
			js(`fetch('/logout', {method: 'POST', headers: {'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]').content}})`)
			waitSignedOut(t, a, before)
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

// sessionCount is the number of stored sessions.
func sessionCount(t *testing.T, a *testApp) int64 {
	t.Helper()
	var n int64
	if err := a.store.DB(context.Background()).Table("sessions").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// waitSignedOut polls until one of the before sessions is gone (the
// browser's, ended by its sign-out).
func waitSignedOut(t *testing.T, a *testApp, before int64) {
	t.Helper()
	for range 50 {
		if sessionCount(t, a) < before {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the browser's session was never ended")
}
