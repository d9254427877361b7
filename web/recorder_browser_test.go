package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// recTap taps the centre of a square (file digit, rank letter: "7g") on
// the recorder page's board, as a finger would.
func recTap(sq string) chromedp.Action[chromedp.Void] {
	file, rank := int(sq[0]-'0'), strings.IndexByte("abcdefghi", sq[1])
	return recEval(fmt.Sprintf(`(function(){
		var svg = document.querySelector("#rec-panel .board-svg");
		var r = svg.getBoundingClientRect();
		var x = r.left + (20 + (9 - %d) * 40 + 20) * r.width / 420;
		var y = r.top + (20 + %d * 40 + 20) * r.height / 420;
		svg.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: x, clientY: y}));
		return true;
	})()`, file, rank))
}

// recEval runs a script in the page as a step.
func recEval(js string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](js)(ctx, tg)
		return chromedp.Void{}, err
	}
}

func recWaitPlies(n int) chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#rec-panel[data-plies="%d"]`, n)))
}

// TestBrowser_RecorderTapsMovesThroughTheLink: a tablet without an
// account opens the recorder link and enters moves by tapping (a
// promotion asked 成/不成, a drop from the hand buttons) and by typing;
// the stored live record is exactly those moves (issue 26).
func TestBrowser_RecorderTapsMovesThroughTheLink(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, "{}")
	token, err := a.srv.Office.IssueRecorderLink(context.Background(), g.admin, g.game.ID)
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx,
		chromedp.Navigate(a.ts.URL+"/rec/"+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="rec-board"]`)),
		recEval(`localStorage.clear(); true`),
	)
	// The byoyomi calls under a test clock (no waiting): 30 seconds past
	// the allowance the page shows 「30秒」, at 51 seconds 「1」.
	for _, c := range []struct {
		secs int
		want string
	}{{30, "30秒"}, {51, "1"}} {
		do(t, ctx, recEval(fmt.Sprintf(`(function(){
			var off = Number(document.getElementById("rec-panel").dataset.offset);
			window.kisenRecorderNow = null;
			window.kisenRecorderTick(); // the move's start, on the real clock
			var t0 = JSON.parse(localStorage.getItem("kisen.recorder.start.%d")).at;
			window.kisenRecorderNow = function () { return t0 + (off + %d) * 1000 + 100; };
			window.kisenRecorderTick();
			return true;
		})()`, g.game.ID, c.secs)))
		if got := textOf(t, ctx, `[data-testid="rec-call"]`); got != c.want {
			t.Errorf("call at %d s into byoyomi: %q, want %q", c.secs, got, c.want)
		}
	}
	do(t, ctx,
		recEval(`window.kisenRecorderNow = null; true`),
		recTap("7g"), recTap("7f"), recWaitPlies(1),
		recTap("3c"), recTap("3d"), recWaitPlies(2),
		recTap("8h"), recTap("2b"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="rec-promote-yes"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="rec-promote-yes"]`)), recWaitPlies(3),
		recTap("3a"), recTap("2b"), recWaitPlies(4),
		chromedp.Click(chromedp.CSS(`[data-testid="rec-drop-B"]`)), recTap("4e"), recWaitPlies(5),
		chromedp.SendKeys(chromedp.CSS(`#rec-move`), "８四歩"),
		chromedp.Click(chromedp.CSS(`[data-testid="rec-move-send"]`)), recWaitPlies(6),
	)
	// Undo the last move and enter it again by typing.
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid="rec-undo"]`)), recWaitPlies(5),
		chromedp.SendKeys(chromedp.CSS(`#rec-move`), "8c8d"),
		chromedp.Click(chromedp.CSS(`[data-testid="rec-move-send"]`)), recWaitPlies(6),
	)
	r, err := a.srv.Office.LiveRecord(context.Background(), g.admin, g.game.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Moves {
		got = append(got, m.USI)
	}
	if want := "7g7f 3c3d 8h2b+ 3a2b B*4e 8c8d"; strings.Join(got, " ") != want {
		t.Errorf("stored %q, want %q", strings.Join(got, " "), want)
	}
	screenshot(t, ctx, "recorder-page")
	rows := textOf(t, ctx, `[data-testid="rec-moves"]`)
	if !strings.Contains(rows, "▲２二角成") || !strings.Contains(rows, "▲４五角") {
		t.Errorf("the page's record: %q", rows)
	}
	// An illegal typed move is refused in words and leaves the queue.
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#rec-move`), "5i5g"),
		chromedp.Click(chromedp.CSS(`[data-testid="rec-move-send"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="rec-error"]`)),
	)
	if e := textOf(t, ctx, `[data-testid="rec-error"]`); !strings.Contains(e, "7手目") {
		t.Errorf("refusal %q", e)
	}
	left, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`localStorage.getItem("kisen.recorder.queue.%d")`, g.game.ID)))
	if err != nil {
		t.Fatal(err)
	}
	if left != "[]" {
		t.Errorf("queue after the refusal: %q", left)
	}
}
