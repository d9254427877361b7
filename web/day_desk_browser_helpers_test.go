package web

import (
	"context"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"
)

// swapAt clicks a button inside a reception row (css) and waits until the
// row was swapped in place (htmx): the row's old element, marked before
// the click, is gone and a new one with its id is there. No page load.
func swapAt(css string) []chromedp.Action[chromedp.Void] {
	q := strconv.Quote(css)
	return []chromedp.Action[chromedp.Void]{
		func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[bool](`(function(){var b=document.querySelector(`+q+`); var r=b.closest(".desk-row"); r.setAttribute("data-old",""); window.__deskSwapID=r.id; return true})()`)(ctx, tg)
			return chromedp.Void{}, err
		},
		chromedp.Click(chromedp.CSS(css)),
		waitJS(`(function(){var r=document.getElementById(window.__deskSwapID); return !!r && !r.hasAttribute("data-old") && !document.querySelector(".htmx-request")})()`),
	}
}

// waitJS waits until the expression is true.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for {
			done, err := chromedp.Evaluate[bool](expr)(ctx, tg)
			if err == nil && done {
				return chromedp.Void{}, nil
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}
