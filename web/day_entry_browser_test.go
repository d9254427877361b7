package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"kisen/store"
)

// TestBrowser_DayEntryFormOnAPhone: on a 390 px screen the entry form fits
// the width, a reading typed in kanji is refused with the message under
// the field (the other fields kept), and the corrected entry lands on the
// private link's page, which names the state and the link to keep; the
// director's list and a paste's preview fit the same screen.
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

		// The director's list of that entry, and a paste's preview, on the
		// same phone: nothing wider than the screen but the preview's
		// table, which scrolls in its own box.
		a.signIn(a.client, f.admin.UserID)
		u, _ := url.Parse(a.ts.URL)
		var session string
		for _, c := range a.client.Jar.Cookies(u) {
			if c.Name == "kisen_session" {
				session = c.Value
			}
		}
		do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "kisen_session", Value: session, URL: a.ts.URL})
			return err
		}),
			chromedp.Navigate(fmt.Sprintf("%s/events/%d/day/entries", a.ts.URL, f.event.ID)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="entry-row"]`)),
			chromedp.SendKeys(chromedp.CSS(`#f-lines`), "渡辺あおい,わたなべあおい,初段\n新人,しんじん,5級,駅前道場将棋クラブ\n"),
			chromedp.Click(chromedp.CSS(`[data-testid="entries-bulk-preview"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="entries-bulk-table"]`)))
		if w := width(); w > 390 {
			t.Fatalf("the director's list with a preview is %.0f px wide", w)
		}
		screenshot(t, ctx, "entries-list-phone")
	})
}
