package web

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser_LiveBracketUpdatesItself (issue 15): a public bracket page
// open in Chromium shows a result entered over HTTP by a director, without
// being reloaded (the same document, its live region fetched again).
func TestBrowser_LiveBracketUpdatesItself(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	lb := newLiveBracket(t, a)
	// live.js marks the body once the event stream is open.
	do(t, ctx, chromedp.Navigate(a.ts.URL+lb.f.eventPath()+"/brackets"), chromedp.WaitReady(chromedp.CSS("body[data-live-open]")))
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(window.kisenSameDocument = true,
		document.querySelectorAll('#live-brackets .bracket-side.winner').length)`))
	if err != nil {
		t.Fatal(err)
	}
	_, winner := lb.enterResult(t, a, 0)
	start := time.Now()
	shown := `(() => { const w = [...document.querySelectorAll('#live-brackets .bracket-side.winner')];
		return w.length > ` + strconv.Itoa(before) + ` && w.some(e => e.textContent.includes(` + strconv.Quote(winner) + `)); })()`
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](shown))
		if err == nil && ok {
			break
		}
		if tctx.Err() != nil {
			screenshot(t, ctx, "live-bracket-not-updated")
			t.Fatalf("the open page did not show %s as the winner: %v", winner, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.kisenSameDocument === true`))
	if err != nil || !same {
		t.Fatalf("the page was reloaded instead of updated (%v)", err)
	}
	t.Logf("result over HTTP → shown in Chromium: %v", time.Since(start))
}
