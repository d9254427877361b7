package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/store"
)

// chooseFirst selects the first real option of a select (after its
// "choose" placeholder), as a person picking the upper player would.
func chooseFirst(sel string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`(function(){var s=document.querySelector(`+strconv.Quote(sel)+`); s.selectedIndex=1; return true})()`)(ctx, tg)
		return chromedp.Void{}, err
	}
}

// browserLogin signs the browser in and lands on next.
func browserLogin(t *testing.T, ctx context.Context, a *testApp, login, pw, next, wait string) {
	t.Helper()
	do(t, ctx,
		chromedp.Navigate(a.ts.URL+"/login?next="+next),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
		chromedp.SendKeys(chromedp.CSS(`#f-login`), login),
		chromedp.SendKeys(chromedp.CSS(`#f-password`), pw),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(wait)),
	)
}

// The arbiter's flows on a game page (issue 13): a refused htmx preview
// shows its message in place; ending a game, a foul claim (D-X3) and
// 取り消す each show what will be stored and ask once.
func TestBrowser_Previews_EndClaimUndo_D_X3(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		g := newGameSetup(t, a, "{}")
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		browserLogin(t, ctx, a, "tachiai", arbiterPassword, gp, `[data-testid="end-form"]`)

		// 詰み without the mated side: the 422 answer appears in the slot.
		do(t, ctx,
			chromedp.SetValue(chromedp.CSS(`[data-testid="end-kind"]`), "mate"),
			chromedp.Click(chromedp.CSS(`[data-testid="end-preview"]`)),
			chromedp.WaitVisible(chromedp.CSS(`#end-preview [data-testid="preview-errors"]`)),
		)
		if m := textOf(t, ctx, `#end-preview [data-testid="preview-errors"]`); !strings.Contains(m, "詰まされた側") {
			t.Fatalf("message in place %q", m)
		}
		screenshot(t, ctx, "previews-end-422-in-place")

		// 投了 by gote: the preview, then the one button.
		do(t, ctx,
			chromedp.SetValue(chromedp.CSS(`[data-testid="end-kind"]`), "resign"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="end-by"]`), "gote"),
			chromedp.Click(chromedp.CSS(`[data-testid="end-preview"]`)),
			chromedp.WaitVisible(chromedp.CSS(`#end-preview [data-testid="preview-confirm"]`)),
		)
		if r := textOf(t, ctx, `#end-preview [data-testid="preview-result"]`); !strings.Contains(r, g.sente.Name+" の勝ち") {
			t.Fatalf("end preview %q", r)
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 0 {
			t.Fatalf("the preview stored %d versions", n)
		}
		screenshot(t, ctx, "previews-end")
		do(t, ctx, submit("preview-confirm")...)
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="result-v1"]`)))

		// A foul claim found after the game reverses it: shown first.
		do(t, ctx,
			chromedp.SetValue(chromedp.CSS(`#c-foul`), "two_moves"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="claim-offender"]`), "sente"),
			chromedp.Click(chromedp.CSS(`[data-testid="claim-save"]`)),
			chromedp.WaitVisible(chromedp.CSS(`#claim-preview [data-testid="preview-result"]`)),
		)
		if r := textOf(t, ctx, `#claim-preview [data-testid="preview-result"]`); !strings.Contains(r, g.gote.Name+" の勝ち") || !strings.Contains(r, "これまでの結果") {
			t.Fatalf("claim preview %q", r)
		}
		screenshot(t, ctx, "previews-claim")
		do(t, ctx, chromedp.Click(chromedp.CSS(`#claim-preview [data-testid="preview-confirm"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="result-v2"]`)))

		// 取り消す: the page says what comes back and asks for the reason.
		do(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="undo-reason"]`), "申し立ては記録係の誤認"))
		do(t, ctx, submit("undo-submit")...)
		if l := textOf(t, ctx, `[data-testid="preview-lead"]`); !strings.Contains(l, "v2") {
			t.Fatalf("undo lead %q", l)
		}
		screenshot(t, ctx, "previews-undo")
		do(t, ctx, submit("preview-confirm")...)
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="result-v3"]`)))
		if m := textOf(t, ctx, `[data-testid="result-undo-of"]`); !strings.Contains(m, "v2") {
			t.Fatalf("undo mark %q", m)
		}
		screenshot(t, ctx, "previews-game-after-undo")
	})
}

// The director's flows on a stage page: publishing the draw lists the
// games first; taking it back lists the games made void; a quick result
// has no winner until one is picked and shows who goes on.
func TestBrowser_Previews_PublishQuickResultUnpublish_D_A1(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		f := newBracketFixture(t, a)
		const pw = "stage director passphrase"
		a.addAccount("kantoku", pw, true)
		path := f.newStage(t, "一次予選")
		for _, p := range f.players {
			a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}})
		}
		if resp, _ := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != 303 {
			t.Fatalf("draw: %d", resp.StatusCode)
		}
		browserLogin(t, ctx, a, "kantoku", pw, path, `[data-testid="publish-form"]`)
		do(t, ctx, submit("publish-submit")...)
		screenshot(t, ctx, "previews-publish-draw")
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="preview-created"]').length`)); err != nil || n != 4 {
			t.Fatalf("publish preview lists %d games (%v)", n, err)
		}
		do(t, ctx, submit("preview-confirm")...)

		// Unpublish: the preview, then back without saving.
		do(t, ctx, submit("unpublish-submit")...)
		screenshot(t, ctx, "previews-unpublish-draw")
		do(t, ctx, submit("preview-back")...)

		// A quick result: nothing chosen; pick the upper player.
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`form.quick-result[data-testid^="result-"]`), chromedp.AtLeast(1)))
		if err != nil {
			t.Fatal(err)
		}
		id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "result-")
		if v, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`[data-testid="winner-`+id+`"]`))); err != nil || v != "" {
			t.Fatalf("winner starts as %q (%v), want none", v, err)
		}
		do(t, ctx, chooseFirst(`[data-testid="winner-`+id+`"]`))
		do(t, ctx, submit("result-submit-"+id)...)
		if r := textOf(t, ctx, `[data-testid="preview-advance"]`); !strings.Contains(r, "予選決勝") {
			t.Fatalf("quick result preview %q", r)
		}
		screenshot(t, ctx, "previews-quick-result")
		do(t, ctx, submit("preview-confirm")...)
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="unpublish-refused"]`)))
		screenshot(t, ctx, "previews-stage-after-result")
	})
}
