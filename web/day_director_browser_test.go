package web

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// phoneLayout is what the director's view check reads on a phone.
type phoneLayout struct {
	Viewport    float64 `json:"viewport"`
	ScrollWidth float64 `json:"scrollWidth"`
	Classes     int     `json:"classes"`
	Playing     int     `json:"playing"`
	Start       int     `json:"start"`
	Disabled    int     `json:"disabled"`
}

// The director's view on a 390 px phone: nothing wider than the screen;
// the pools class, still playing, shows its boards and a disabled start
// button; the Swiss class, whose round 1 is complete, offers "start round
// 2", which leads to the day's draw preview and its confirmation, and
// back on the view the new round is playing.
func TestBrowser_DayDirectorOnAPhone(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f := seedPaperDay(t, a, 8, 4) // every Swiss board of round 1 decided
	u, _ := url.Parse(a.ts.URL)
	var session string
	for _, c := range a.client.Jar.Cookies(u) {
		if c.Name == "kisen_session" {
			session = c.Value
		}
	}
	director := a.ts.URL + f.paperPages()["director"]
	read := func() phoneLayout {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[phoneLayout](`(() => ({
			viewport: document.documentElement.clientWidth,
			scrollWidth: document.documentElement.scrollWidth,
			classes: document.querySelectorAll('[data-testid=director-class]').length,
			playing: document.querySelectorAll('[data-testid=director-playing-row]').length,
			start: document.querySelectorAll('[data-testid=director-start]').length,
			disabled: document.querySelectorAll('[data-testid=director-start-disabled]').length,
		}))()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "kisen_session", Value: session, URL: a.ts.URL})
			return err
		}),
		chromedp.Navigate(director), chromedp.WaitVisible(chromedp.CSS(`[data-testid="director-title"]`)))
	got := read()
	screenshot(t, ctx, "day-director-phone")
	if got.ScrollWidth > got.Viewport {
		t.Errorf("director's view is %.0f px wide on a %.0f px phone", got.ScrollWidth, got.Viewport)
	}
	if got.Classes != 2 || got.Playing != 4 || got.Start != 1 || got.Disabled != 1 {
		t.Fatalf("director's view: %+v; want 2 classes, 4 boards playing, one start button and one disabled", got)
	}
	do(t, ctx, submit("director-start")...)
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-draw-confirm"]`)))
	do(t, ctx, submit("day-draw-confirm")...)
	do(t, ctx, chromedp.Navigate(director), chromedp.WaitVisible(chromedp.CSS(`[data-testid="director-title"]`)))
	got = read()
	if got.Playing != 8 || got.Start != 0 {
		t.Fatalf("after starting round 2: %+v; want 8 boards playing and no start button", got)
	}
	rounds := textOf(t, ctx, `[data-testid="director-class"]:nth-of-type(2) [data-testid="director-round"]`)
	if !strings.Contains(rounds, "2") {
		t.Errorf("Swiss class shows %q, not round 2", rounds)
	}
}
