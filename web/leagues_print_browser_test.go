package web

import (
	"context"
	"net/url"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/store"
)

// printLayout is what the print check reads from the page.
type printLayout struct {
	Print       bool    `json:"print"`
	NavHidden   bool    `json:"navHidden"`
	FormsShown  int     `json:"formsShown"`
	Forms       int     `json:"forms"`
	TableRight  float64 `json:"tableRight"`
	TableWidth  float64 `json:"tableWidth"`
	Viewport    float64 `json:"viewport"`
	ScrollWidth float64 `json:"scrollWidth"`
	Rows        int     `json:"rows"`
	Rounds      int     `json:"rounds"`
}

// A4 landscape less the 10 mm margins of `@page league`, at 96 px per
// inch: 277 mm × 190 mm ≈ 1047 × 718 px.
const a4LandscapeW, a4LandscapeH = 1047, 718

// The public table of a 12-player B1 class (11 rounds), printed: with print
// media emulated on an A4-landscape page box, navigation and every form are
// hidden and the table fits the width. The screenshot is kept as
// league-print.png (KISEN_SCREENSHOT_DIR).
func TestBrowser_LeaguePrintA4Landscape(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f := newLeagueFixture(t, a, 12)
	a.signIn(a.client, f.sched.ID)
	resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"B1"}, "members": {f.memberLines()}})
	classURL := resp.Header.Get("Location")
	if resp, body := a.postForm(classURL+"/generate", url.Values{"seed": {"85"}, "draw_date": {"2026-05-01"}}); resp.StatusCode != 303 {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	if resp, _ := a.postForm(classURL+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != 303 {
		t.Fatalf("publish: %d", resp.StatusCode)
	}
	if err := a.store.DB(context.Background()).Model(&store.Event{}).Where("id = ?", f.eventID).Update("status", office.StatusPublished).Error; err != nil {
		t.Fatal(err)
	}
	printMedia := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})
	do(t, ctx, chromedp.EmulateViewport(a4LandscapeW, a4LandscapeH, chromedp.EmulateLandscape), printMedia,
		chromedp.Navigate(a.ts.URL+classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-table"]`)))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[printLayout](`(() => {
		const nav = document.querySelector('header.site nav');
		const forms = [...document.querySelectorAll('form')];
		const table = document.querySelector('table.league-table').getBoundingClientRect();
		return {
			print: matchMedia('print').matches,
			navHidden: !nav || getComputedStyle(nav).display === 'none',
			formsShown: forms.filter(f => getComputedStyle(f).display !== 'none').length,
			forms: forms.length,
			tableRight: table.right, tableWidth: table.width,
			viewport: document.documentElement.clientWidth,
			scrollWidth: document.documentElement.scrollWidth,
			rows: document.querySelectorAll('table.league-table tbody tr').length,
			rounds: document.querySelectorAll('table.league-table thead th').length - 4,
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "league-print")
	if !got.Print {
		t.Fatal("print media not emulated")
	}
	if got.Rows != 12 || got.Rounds != 11 {
		t.Fatalf("table has %d rows and %d rounds, want 12 and 11", got.Rows, got.Rounds)
	}
	if !got.NavHidden {
		t.Error("navigation shown in print")
	}
	if got.FormsShown != 0 {
		t.Errorf("%d of %d forms shown in print", got.FormsShown, got.Forms)
	}
	if got.TableRight > got.Viewport || got.TableWidth > a4LandscapeW || got.ScrollWidth > got.Viewport {
		t.Errorf("table does not fit A4 landscape: right %.0f, width %.0f, page %.0f, scroll width %.0f", got.TableRight, got.TableWidth, got.Viewport, got.ScrollWidth)
	}
	t.Logf("print: table %.0f px of %.0f", got.TableWidth, got.Viewport)
}
