package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/day"
)

// TestBrowser_DayPublicFindMyBoardOnAPhone (issue 23 §4): on a 390 px
// screen a player opens the round's public page, types their name into the
// filter and sees their one line with their board and opponent; the page
// does not scroll sideways. The result is entered at the desk: the open
// page shows it without a reload, and the filter still holds.
func TestBrowser_DayPublicFindMyBoardOnAPhone(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	bg := context.Background()
	f := seedDay(t, a, 12, 1)
	startLive(t, a) // the change watcher, as `kisen serve` runs it
	if err := a.srv.Office.SetEventStatus(bg, f.admin, f.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	v, err := f.d.ClassView(bg, f.admin, f.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	target := v.Rounds[0].Boards[3]
	me, opponent := v.Names[target.Gote], v.Names[target.Sente]
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(a.ts.URL+fmt.Sprintf("/day/classes/%d/rounds/1", f.class.ID)),
		chromedp.WaitReady(chromedp.CSS("body[data-live-open]")))
	width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(window.kisenSameDocument = true, document.documentElement.scrollWidth)`))
	if err != nil {
		t.Fatal(err)
	}
	if width > 390 {
		screenshot(t, ctx, "day-public-round-too-wide")
		t.Fatalf("the round page is %.0f px wide on a 390 px screen", width)
	}
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="day-name-filter"]`), me))
	shown := func() []string {
		t.Helper()
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#day-by-name tr[data-testid=day-name-row]')].filter(r => !r.hidden).map(r => r.innerText)`))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := shown()
	if len(rows) != 1 || !strings.Contains(rows[0], me) || !strings.Contains(rows[0], strconv.Itoa(target.Board)) || !strings.Contains(rows[0], opponent) {
		t.Fatalf("after typing %s: lines %q, want theirs with board %d against %s", me, rows, target.Board, opponent)
	}
	screenshot(t, ctx, "day-public-find-my-board-phone")
	if err := f.d.EnterBoardResult(bg, f.admin, day.BoardResultInput{ClassID: f.class.ID, Round: 1, Board: target.Board, GameID: target.Last.ID, Version: target.Version, Result: office.ResultGoteWin}); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.WaitReady(chromedp.CSS(`#day-by-name tr[data-testid=day-name-row][data-outcome=win]`))); err != nil {
		screenshot(t, ctx, "day-public-result-not-shown")
		t.Fatalf("the open page did not show the result: %v", err)
	}
	rows = shown()
	if len(rows) != 1 || !strings.Contains(rows[0], me) || !strings.Contains(rows[0], "勝ち") {
		t.Fatalf("after the result: lines %q, want %s's with 勝ち", rows, me)
	}
	same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.kisenSameDocument === true`))
	if err != nil || !same {
		t.Fatalf("the page was reloaded instead of updated (%v)", err)
	}
	screenshot(t, ctx, "day-public-result-live-phone")
}
