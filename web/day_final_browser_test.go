package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/store"
	dayroom "kisen/web/day"
)

// TestBrowser_DayFinalFromClassPageToPublishedBracket: the director opens
// the class's final from the class page after a 2勝通過2敗失格
// preliminary, checks the placement, builds it with a 交流戦, lands on
// the stage's review page and publishes it; the event's bracket shows the
// final. Each click that loads a page waits for the new document.
func TestBrowser_DayFinalFromClassPageToPublishedBracket(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	const pw = "a long enough passphrase"
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: h, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(context.Background(), &u); err != nil {
		t.Fatal(err)
	}
	f := seedDayFinalAs(t, a, 12, "B", u)
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "director"), fill("password", pw)),
		submit("login-submit"),
		one(chromedp.Navigate(a.ts.URL+dayroom.DayClassURL(f.class.ID)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-final-link"]`))),
		submit("day-final-link"),
	)...)
	if got := textOf(t, ctx, `[data-testid="day-final-title"]`); !strings.Contains(got, "決勝トーナメント") {
		t.Fatalf("final page title %q", got)
	}
	games := textOf(t, ctx, `[data-testid="day-final-games"]`)
	if n := strings.Count(games, "不戦勝"); n != 2 {
		t.Fatalf("round 1 shows %d byes, want 2 (6 qualifiers in 8):\n%s", n, games)
	}
	screenshot(t, ctx, "day-final-preview")
	do(t, ctx, steps(
		one(chromedp.Click(chromedp.CSS(`[data-testid="day-final-consolation"]`))),
		submit("day-final-build"),
	)...)
	if got := textOf(t, ctx, `[data-testid="stage-name"]`); !strings.Contains(got, "決勝トーナメント") {
		t.Fatalf("after the build the page shows %q", got)
	}
	do(t, ctx, submit("publish-submit")...)
	do(t, ctx, submit("preview-confirm")...)
	// Round 1 of the final: two games (the block winners on lines 1 and 2
	// have byes); the upper player wins each through the quick form.
	for range 2 {
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`form.quick-result[data-testid^="result-"] button`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 0 {
			t.Fatal("no round-1 game to enter")
		}
		id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "result-submit-")
		if !strings.HasPrefix(id, "R1-") {
			t.Fatalf("next game to enter is %s, want a round-1 game", id)
		}
		do(t, ctx, chooseFirst(`[data-testid="winner-`+id+`"]`))
		do(t, ctx, submit("result-submit-"+id)...)
		do(t, ctx, submit("preview-confirm")...)
	}
	do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/events/%d/brackets", a.ts.URL, f.event.ID)), chromedp.WaitReady(chromedp.CSS("footer.site")))
	body := textOf(t, ctx, "main")
	if !strings.Contains(body, "A級 決勝トーナメント") {
		t.Fatal("bracket page lacks the final")
	}
	// The two round-1 losers meet in the 交流戦 (its round 2, after the
	// byes the other two round-1 games gave).
	cons := textOf(t, ctx, fmt.Sprintf(`[data-testid="consolation-%d"]`, onlyStageOf(t, a, f.event.ID)))
	n := 0
	for _, name := range f.names {
		if strings.HasPrefix(name, "決勝B選手") && strings.Contains(cons, name) {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("the 交流戦 shows %d players, want the 2 round-1 losers:\n%s", n, cons)
	}
	screenshot(t, ctx, "day-final-bracket")
}

func onlyStageOf(t *testing.T, a *testApp, eventID int64) int64 {
	t.Helper()
	sts, err := a.store.StagesOfEvent(context.Background(), eventID)
	if err != nil || len(sts) != 1 {
		t.Fatalf("%d stages, %v", len(sts), err)
	}
	return sts[0].ID
}
