package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/store"
)

// TestBrowser_DayEntryFormOnAPhone: on a 390 px screen the entry form fits
// the width, a reading typed in kanji is refused with the message under
// the field (the other fields kept), and the corrected entry lands on the
// private link's page, which names the state and the link to keep.
func TestBrowser_DayEntryFormOnAPhone(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		f := seedEntryDay(t, a, true)
		width := func() float64 {
			t.Helper()
			w, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
		do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(fmt.Sprintf("%s/events/%d/day/entry", a.ts.URL, f.event.ID)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="entry-form"]`)))
		if w := width(); w > 390 {
			t.Fatalf("the form is %.0f px wide on a 390 px screen", w)
		}
		do(t, ctx,
			chromedp.SendKeys(chromedp.CSS(`#f-name`), "渡辺 あおい"),
			chromedp.SendKeys(chromedp.CSS(`#f-reading`), "渡辺"),
			chromedp.SendKeys(chromedp.CSS(`#f-rank`), "初段"),
			chromedp.SendKeys(chromedp.CSS(`#f-contact`), "aoi@example.jp"),
			chromedp.Click(chromedp.CSS(`[data-testid="entry-submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="error-reading"]`)))
		if msg := textOf(t, ctx, `[data-testid="error-reading"]`); !strings.Contains(msg, "ひらがなかカタカナ") {
			t.Fatalf("reading message %q", msg)
		}
		if w := width(); w > 390 {
			t.Fatalf("the refused form is %.0f px wide", w)
		}
		screenshot(t, ctx, "entry-form-phone-422")
		do(t, ctx,
			chromedp.SetValue(chromedp.CSS(`#f-reading`), "わたなべ あおい"),
			chromedp.Click(chromedp.CSS(`[data-testid="entry-submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="entry-received"]`)))
		if st := textOf(t, ctx, `[data-testid="entry-status"]`); !strings.Contains(st, "受付待ち") {
			t.Fatalf("status %q", st)
		}
		if link := textOf(t, ctx, `[data-testid="entry-link"]`); !strings.Contains(link, "/day/entries/") {
			t.Fatalf("link %q", link)
		}
		if w := width(); w > 390 {
			t.Fatalf("the link page is %.0f px wide", w)
		}
		screenshot(t, ctx, "entry-link-phone")
	})
}
