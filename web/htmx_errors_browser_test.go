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
)

// TestBrowser_HTMXErrorShownInPlace (issue 13): two clicks on 確認 of the
// game page's record form that used to pass in silence now answer, in the
// page's language: a pasted record of 9 MB (over the body limit) shows the
// server's 413 message — or, when the connection is dropped before the
// answer, the page's own "could not be sent" — in the record's preview
// slot; a click after the user signed out in another tab loads the login
// page as a whole (not inside the slot), coming back to the game.
func TestBrowser_HTMXErrorShownInPlace(t *testing.T) {
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		g := newGameSetup(t, a, "{}")
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		slot := `#record-preview [data-testid="error-fragment"]`
		js := func(src string) {
			t.Helper()
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){`+src+`; return true})()`)); err != nil {
				t.Fatal(err)
			}
		}
		for _, lang := range Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back=/"))
			browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="record-form"]`)

			// 9 MB pasted into the record box.
			js(`document.querySelector('#f-record').value = '1 ７六歩(77)\n'.repeat(700000)`)
			do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="record-preview"]`)), chromedp.WaitVisible(chromedp.CSS(slot)))
			msg := textOf(t, ctx, slot)
			want := map[string]string{"ja": "大きすぎます", "en": "too large"}[lang]
			if !strings.Contains(msg, want) || !strings.Contains(msg, "8 MB") {
				t.Fatalf("%s: 9 MB record: message in place %q, want %q", lang, msg, want)
			}
			js(`document.querySelector('#f-record').value = ''; document.getElementById('record').scrollIntoView()`)
			screenshot(t, ctx, "htmx-9mb-in-place-"+lang)

			// Signed out in another tab, then 確認 on this page.
			js(`fetch('/logout', {method: 'POST', headers: {'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]').content}})`)
			waitSignedOut(t, a)
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
			screenshot(t, ctx, "htmx-signed-out-login-"+lang)
		}
	})
}

// waitSignedOut polls until the session the browser held is gone.
func waitSignedOut(t *testing.T, a *testApp) {
	t.Helper()
	for range 50 {
		var n int64
		if err := a.store.DB(context.Background()).Table("sessions").Count(&n).Error; err == nil && n == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the browser's session was never ended")
}
