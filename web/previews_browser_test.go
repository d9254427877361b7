package web

import (
	"context"
	"strconv"

	"github.com/chromedp/chromedp"
)

// chooseFirst selects the first real option of a select (after its
// "choose" placeholder), as a person picking the upper player would.
func chooseFirst(sel string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`(function(){var s=document.querySelector(`+strconv.Quote(sel)+`); s.selectedIndex=1; return true})()`)(ctx, tg)
		return chromedp.Void{}, err
	}
}
