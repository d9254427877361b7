package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// sennichiteKIF is a KIF record in which both sides shuffle a rook back
// and forth (２八飛→３八飛, ８二飛→７二飛 and back) until the start
// position occurs for the 4th time at move 12 (D-S1). Each move is timed:
// sente spends 130 minutes in all, gote 70, so with a 180-minute allowance
// sente has 50 minutes left and gote 110.
const sennichiteKIF = `手合割：平手
手数----指手---------消費時間--
   1 ３八飛(28)   (10:00/00:10:00)
   2 ７二飛(82)   (10:00/00:10:00)
   3 ２八飛(38)   (10:00/00:20:00)
   4 ８二飛(72)   (10:00/00:20:00)
   5 ３八飛(28)   (10:00/00:30:00)
   6 ７二飛(82)   (10:00/00:30:00)
   7 ２八飛(38)   (10:00/00:40:00)
   8 ８二飛(72)   (10:00/00:40:00)
   9 ３八飛(28)   (10:00/00:50:00)
  10 ７二飛(82)   (10:00/00:50:00)
  11 ２八飛(38)   (80:00/02:10:00)
  12 ８二飛(72)   (20:00/01:10:00)
  13 千日手
`

func TestBrowser_D_S1_D_R1_D_R2_ArbiterEndsSennichiteAndRedoAppears(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, "{}")
	gameURL := a.ts.URL + "/games/" + strconv.FormatInt(g.game.ID, 10)

	// The arbiter signs in through the login form.
	// Each click that loads a new document waits for that document (submit),
	// not for an element the old page also has.
	do(t, ctx, steps(one(
		chromedp.Navigate(a.ts.URL+"/login?next=/games/"+strconv.FormatInt(g.game.ID, 10)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
		chromedp.SendKeys(chromedp.CSS(`#f-login`), "tachiai"),
		chromedp.SendKeys(chromedp.CSS(`#f-password`), arbiterPassword)),
		submit("login-submit"), one(
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="nav-user"]`)),
			chromedp.Navigate(gameURL),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="record-form"]`))))...,
	)
	if s := textOf(t, ctx, `[data-testid="game-sente"]`); s != "羽生 善治" {
		t.Fatalf("sente %q", s)
	}
	// Paste the record and check it: the 千日手 is found before saving.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#f-record`), sennichiteKIF),
		chromedp.Click(chromedp.CSS(`[data-testid="record-preview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="finding-sennichite"]`)),
	)
	if f := textOf(t, ctx, `[data-testid="finding-sennichite"]`); !strings.Contains(f, "12手目で千日手") {
		t.Fatalf("finding %q", f)
	}
	if f := textOf(t, ctx, `[data-testid="finding-remaining"]`); !strings.Contains(f, "先手50分") || !strings.Contains(f, "後手110分") {
		t.Fatalf("remaining from the record's times: %q", f)
	}
	screenshot(t, ctx, "game-record-preview")
	// Save it; the board shows the final position with the last move.
	do(t, ctx, steps(submit("record-save"), one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="last-move"]`))))...)
	if m := textOf(t, ctx, `[data-testid="last-move"]`); !strings.Contains(m, "８二飛") {
		t.Fatalf("last move %q", m)
	}
	// htmx board navigation swaps only the board.
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid="board-first"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="board"][data-ply="0"]`)),
	)
	// End the game as 千日手; the remaining times come from the record.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`[data-testid="end-kind"]`), "sennichite"),
		chromedp.Click(chromedp.CSS(`[data-testid="end-preview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="outcome-redo"]`)),
	)
	// Hand calculation (D-R2, 001 第6条): the allowance (180 min) is over an
	// hour; sente has 50 min, gote 110. The lower clock is 10 min short of
	// an hour, so both get +10: sente 60, gote 120 (not above 180). The
	// redo game swaps colours (D-R1): new sente 藤井 with 120, new gote
	// 羽生 with 60.
	redo := textOf(t, ctx, `[data-testid="outcome-redo"]`)
	for _, want := range []string{"先手 藤井 聡太", "後手 羽生 善治", "先手 120分", "後手 60分"} {
		if !strings.Contains(redo, want) {
			t.Fatalf("outcome %q lacks %q", redo, want)
		}
	}
	if r := textOf(t, ctx, `[data-testid="outcome-rules"]`); strings.Contains(r, "D-R2") || !strings.Contains(r, "対局規則 第8条第4項") {
		t.Fatalf("rules cited %q", r)
	}
	do(t, ctx, steps(submit("preview-confirm"), one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="redo-link"]`))))...)
	if r := textOf(t, ctx, `[data-testid="result-v1"] [data-testid="result-text"]`); r != "指し直し" {
		t.Fatalf("result %q", r)
	}
	screenshot(t, ctx, "game-ended-sennichite")
	do(t, ctx, steps(submit("redo-link"), one(chromedp.WaitVisible(chromedp.CSS(`[data-testid="redo-of"]`))))...)
	checks := map[string]string{
		`[data-testid="game-sente"]`:      "藤井 聡太",
		`[data-testid="game-gote"]`:       "羽生 善治",
		`[data-testid="allowance-sente"]`: "☗ 120分",
		`[data-testid="allowance-gote"]`:  "☖ 60分",
	}
	for css, want := range checks {
		if got := textOf(t, ctx, css); got != want {
			t.Fatalf("redo game %s = %q, want %q", css, got, want)
		}
	}
	screenshot(t, ctx, "redo-game")
}
