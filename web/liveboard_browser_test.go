package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowser_LiveBoardStepsAndFollows (issue 26 item 5): in Chromium the
// live board steps back with the arrow key and the step links without a
// reload, goes back to following with "last", and shows a move stored by
// the recorder by itself (the game's stream, the region fetched again).
func TestBrowser_LiveBoardStepsAndFollows(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, liveBoardSettings)
	playLive(t, a, g.arbiter, g.game.ID, 4)
	startLive(t, a)
	path := fmt.Sprintf("/games/%d/live", g.game.ID)
	wait := func(css, what string) {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(tctx, chromedp.WaitReady(chromedp.CSS(css))); err != nil {
			screenshot(t, ctx, "liveboard-"+what)
			t.Fatalf("%s: %v", what, err)
		}
	}
	do(t, ctx, chromedp.Navigate(a.ts.URL+path), chromedp.WaitReady(chromedp.CSS("body[data-live-open]")))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.kisenSameDocument = true`)); err != nil {
		t.Fatal(err)
	}
	wait(`#liveboard[data-ply="4"] [data-testid="liveboard-following"]`, "following at 4")
	do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	wait(`#liveboard[data-ply="3"] [data-testid="liveboard-held"]`, "arrow left to 3")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#liveboard a[data-testid="board-first"]`)))
	wait(`#liveboard[data-ply="0"]`, "first")
	// Held at the start, a stored move extends the record but not the board.
	playLive(t, a, g.arbiter, g.game.ID, 5)
	wait(`#liveboard[data-ply="0"][data-plies="5"]`, "held while a move arrives")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#liveboard a[data-testid="board-last"]`)))
	wait(`#liveboard[data-ply="5"] [data-testid="liveboard-following"]`, "last: following again")
	start := time.Now()
	playLive(t, a, g.arbiter, g.game.ID, 6)
	wait(`#liveboard[data-ply="6"] tr[data-ply="6"][aria-current="step"]`, "the new move shown by itself")
	t.Logf("move stored → shown in Chromium: %v", time.Since(start))
	same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.kisenSameDocument === true`))
	if err != nil || !same {
		t.Fatalf("the page was reloaded instead of updated (%v)", err)
	}
}
