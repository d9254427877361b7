package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/store"
)

// TestBrowser_DayBoardsOnAPhone: the desk enters a result by board number
// on a 390 px wide screen. The page does not scroll sideways, each row's
// two buttons are big enough to tap and on screen; typing a board number
// shows that board's row; one tap shows the one result with the players'
// names, and confirming stores it and returns to the row.
func TestBrowser_DayBoardsOnAPhone(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	bg := context.Background()
	f := seedDay(t, a, 10, 1)
	const pw = "a long enough passphrase"
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	desk := store.User{Login: "desk", DisplayName: "受付 係", PasswordHash: h, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(bg, &desk); err != nil {
		t.Fatal(err)
	}
	v, err := f.d.ClassView(bg, f.admin, f.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	target := v.Rounds[0].Boards[3]
	path := fmt.Sprintf("/day/classes/%d/rounds/1/boards", f.class.ID)
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	browserLogin(t, ctx, a, "desk", pw, path, `[data-testid="day-board-find"]`)
	width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if width > 390 {
		t.Fatalf("the board page is %.0f px wide on a 390 px screen", width)
	}
	box := func(sel, side string) float64 {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect().`+side))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, r := range []string{"sente_win", "gote_win"} {
		sel := fmt.Sprintf(`[data-testid="day-board-%d"] [data-testid="day-%s"]`, v.Rounds[0].Boards[0].Board, r)
		if hgt := box(sel, "height"); hgt < 44 {
			t.Errorf("%s button %.0f px high, want at least 44", r, hgt)
		}
		if right := box(sel, "right"); right > 390 {
			t.Errorf("%s button ends at %.0f px, off the 390 px screen", r, right)
		}
	}
	screenshot(t, ctx, "day-boards-phone")
	do(t, ctx, steps(one(fill("board", strconv.Itoa(target.Board))), submit("day-board-go"))...)
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.day-board-row').length`))
	if err != nil || rows != 1 {
		t.Fatalf("after typing board %d: %d rows shown, %v", target.Board, rows, err)
	}
	do(t, ctx, steps(submit("day-gote_win"))...)
	if got := textOf(t, ctx, `[data-testid="day-preview-result"]`); !strings.Contains(got, v.Names[target.Gote]) {
		t.Fatalf("preview %q does not name gote %s", got, v.Names[target.Gote])
	}
	screenshot(t, ctx, "day-board-preview-phone")
	do(t, ctx, steps(submit("day-board-confirm"))...)
	got := textOf(t, ctx, fmt.Sprintf(`[data-testid="day-board-%d"] [data-testid="day-board-result"]`, target.Board))
	if !strings.Contains(got, v.Names[target.Gote]) {
		t.Fatalf("row after saving shows %q", got)
	}
	rv, ok, err := a.store.EffectiveResult(bg, target.Last.ID)
	if err != nil || !ok || rv.Result != office.ResultGoteWin {
		t.Fatalf("stored %+v %v %v", rv, ok, err)
	}
}
