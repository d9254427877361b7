package web

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/store"
)

// TestBrowser_LivePagesLeaveTheirConnections: a director adds eight
// entrants one form at a time. Each page opens its event stream; a page
// left must give its connection back (live.js closes it on pagehide), or
// the browser, at six connections to one server over HTTP/1.1, would wait
// forever for the seventh page.
func TestBrowser_LivePagesLeaveTheirConnections(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f := newBracketFixture(t, a)
	path := f.newStage(t, "本戦")
	h, _ := office.HashPassword("a long enough passphrase", cheapParams, nil)
	u := store.User{Login: "dir2", DisplayName: "d", PasswordHash: h, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(context.Background(), &u); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "dir2"), fill("password", "a long enough passphrase")),
		submit("login-submit"),
	)...)
	for i, p := range f.players {
		start := time.Now()
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		id := strconv.FormatInt(p.ID, 10)
		err := chromedp.Do(tctx, steps(one(chromedp.Navigate(a.ts.URL+path+"?q=きし"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="add-`+id+`"]`))),
			submit("add-"+id+`"] button[type="submit`))...)
		cancel()
		if err != nil {
			t.Fatalf("page %d after %v: %v", i+1, time.Since(start), err)
		}
	}
	es, _ := a.store.EntrantsOfStage(context.Background(), stageIDOf(t, path))
	if len(es) != len(f.players) {
		t.Fatalf("%d entrants added, want %d", len(es), len(f.players))
	}
}
