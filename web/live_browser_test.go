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
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	lb := newLiveBracket(t, a)
	page := a.ts.URL + lb.f.eventPath() + "/brackets"
	if err := chromedp.Run(ctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible(`#live-brackets`, chromedp.ByQuery),
		// live.js marks the body once the event stream is open.
		chromedp.WaitReady(`body[data-live-open]`, chromedp.ByQuery),
		chromedp.Evaluate(`window.kisenSameDocument = true`, nil),
	); err != nil {
		t.Fatalf("open the bracket: %v", err)
	}
	var winnersBefore int
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll('#live-brackets .bracket-side.winner').length`, &winnersBefore)); err != nil {
		t.Fatal(err)
	}
	_, winner := lb.enterResult(t, a, 0)
	start := time.Now()
	wait := `(() => { const w = [...document.querySelectorAll('#live-brackets .bracket-side.winner')];
		return w.length > ` + strconv.Itoa(winnersBefore) + ` && w.some(e => e.textContent.includes(` + strconv.Quote(winner) + `)); })()`
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Run(tctx, chromedp.Poll(wait, nil, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		screenshot(t, ctx, "live-bracket-not-updated")
		t.Fatalf("the open page did not show %s as the winner: %v", winner, err)
	}
	var same bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.kisenSameDocument === true`, &same)); err != nil || !same {
		t.Fatalf("the page was reloaded instead of updated (%v)", err)
	}
	t.Logf("result over HTTP → shown in Chromium: %v", time.Since(start))
}
