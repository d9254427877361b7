package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/store"
)

// TestBrowser_HTMXErrorShownInPlace (issue 13): 確認 on a pasted record of
// 9 MB is refused by the body limit (413); the message appears in the
// record's preview slot, in the page's language, and the page stays.
func TestBrowser_HTMXErrorShownInPlace(t *testing.T) {
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		g := newGameSetup(t, a, "{}")
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="record-form"]`)
		for _, lang := range Languages {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back="+gp), chromedp.WaitVisible(chromedp.CSS(`[data-testid="record-form"]`)))
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){document.querySelector('#f-record').value = '1 ７六歩(77)\n'.repeat(700000); return true})()`)); err != nil {
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
			// The text box is emptied before the screenshot (a 9 MB box
			// would make it tall and slow).
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){document.querySelector('#f-record').value=''; document.getElementById('record').scrollIntoView(); return true})()`)); err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, "htmx-413-in-place-"+lang)
		}
	})
}
