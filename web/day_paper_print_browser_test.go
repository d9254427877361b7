package web

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"kisen/web/day"
	"kisen/web/site"
)

// A4 portrait less the 10 mm margins of the paper's @page, at 96 px per
// inch: 190 mm × 277 mm ≈ 718 × 1047 px.
const a4PortraitW, a4PortraitH = 718, 1047

// sheetLayout is what the print check reads from a sheet.
type sheetLayout struct {
	Print       bool      `json:"print"`
	HeaderShown bool      `json:"headerShown"`
	FormsShown  int       `json:"formsShown"`
	Viewport    float64   `json:"viewport"`
	ScrollWidth float64   `json:"scrollWidth"`
	Widest      float64   `json:"widest"`
	Items       int       `json:"items"`
	PageHeights []float64 `json:"pageHeights"`
	PerPage     []int     `json:"perPage"`
	SlipWidths  []float64 `json:"slipWidths"`
	QR          int       `json:"qr"`
	QRSizes     []float64 `json:"qrSizes"`
	// QRHalves is, per QR code, whether it sits inside its player's half
	// of the slip, and Clipped the slips whose content overflows their box
	// (print hides the overflow, so a cut signature line would go unseen).
	QRHalves []bool `json:"qrHalves"`
	Clipped  int    `json:"clipped"`
}

const sheetLayoutJS = `(() => {
	const vis = e => getComputedStyle(e).display !== 'none';
	const header = document.querySelector('header.site');
	const all = [...document.querySelectorAll('main *')];
	return {
		print: matchMedia('print').matches,
		headerShown: !!header && vis(header),
		formsShown: [...document.querySelectorAll('form')].filter(vis).length,
		viewport: document.documentElement.clientWidth,
		scrollWidth: document.documentElement.scrollWidth,
		widest: Math.max(0, ...all.filter(vis).map(e => e.getBoundingClientRect().right)),
		items: document.querySelectorAll('[data-testid=paper-pairing-row], [data-testid=paper-slip], [data-testid=paper-checkin-row], [data-testid=paper-block], [data-testid=paper-standings-row]').length,
		pageHeights: [...document.querySelectorAll('.slip-page')].map(p => p.getBoundingClientRect().height),
		perPage: [...document.querySelectorAll('.slip-page')].map(p => p.querySelectorAll('.slip').length),
		slipWidths: [...document.querySelectorAll('.slip')].map(s => s.getBoundingClientRect().width),
		qr: document.querySelectorAll('[data-testid=paper-slip-qr] svg').length,
		qrSizes: [...document.querySelectorAll('[data-testid=paper-slip-qr] svg')].map(s => s.getBoundingClientRect().width),
		qrHalves: [...document.querySelectorAll('[data-testid=paper-slip-qr]')].map(q => !!q.closest('[data-testid=paper-slip-half]')),
		clipped: [...document.querySelectorAll('.slip')].filter(s => s.scrollHeight > s.clientHeight + 1).length,
	};
})()`

var rePDFPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// printPDF prints the current page as Chromium would on A4 with the
// page's own @page size, keeps the PDF beside the screenshots and
// returns its page count.
func printPDF(t *testing.T, ctx context.Context, name string) int {
	t.Helper()
	var pdf []byte
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		yes := true
		res, err := cdp.Call(ctx, tg, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes, PrintBackground: &yes})
		pdf = res.Data
		return err
	}))
	if !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Fatalf("%s: not a PDF (%d bytes)", name, len(pdf))
	}
	dir := screenshotDir(t)
	if err := os.WriteFile(filepath.Join(dir, name+".pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	return len(rePDFPage.FindAll(pdf, -1))
}

// The day's paper printed in Chromium: with print media emulated on an
// A4-portrait page box, the site's header and every form are hidden and
// nothing is wider than the page; the slips sit eight to a sheet (two
// columns of four), each sheet no taller than the page and each slip half
// its width, so no page break cuts a slip; the slips made with QR codes
// carry one code per undecided board, at least 2 cm wide. Chromium's own
// PDF of each sheet has the expected number of A4 pages. Screenshots and
// PDFs, in Japanese and English, are kept in KISEN_SCREENSHOT_DIR.
func TestBrowser_DayPaperPrintsOnA4(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f := seedPaperDay(t, a, 20, 0)
	u, _ := url.Parse(a.ts.URL)
	var session string
	for _, c := range a.client.Jar.Cookies(u) {
		if c.Name == "kisen_session" {
			session = c.Value
		}
	}
	printMedia := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "kisen_session", Value: session, URL: a.ts.URL}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})
	do(t, ctx, chromedp.EmulateViewport(a4PortraitW, a4PortraitH), printMedia)
	pages := f.paperPages()
	sheets := []struct {
		name, path string
		items      int
		pdfPages   int
	}{
		{"day-pairings", pages["pools pairings"], 10, 1},
		{"day-slips", pages["swiss slips"], 10, 2},
		{"day-checkin", pages["check-in list"], 40, 2},
		{"day-blocks", pages["block sheets"], 5, 2},
		{"day-standings", pages["swiss standings"], 20, 1},
	}
	for _, lang := range site.Languages {
		do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "lang", Value: lang, URL: a.ts.URL})
			return err
		}))
		for _, sh := range sheets {
			name := sh.name + "-" + lang
			do(t, ctx, chromedp.Navigate(a.ts.URL+sh.path), chromedp.WaitReady(chromedp.CSS(`main`)))
			got, err := chromedp.Run(ctx, chromedp.Evaluate[sheetLayout](sheetLayoutJS))
			if err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, name)
			checkSheet(t, name, got, sh.items)
			n := printPDF(t, ctx, name)
			t.Logf("%s: %d items, widest %.0f of %.0f px, %d PDF pages", name, got.Items, got.Widest, got.Viewport, n)
			if n != sh.pdfPages {
				t.Errorf("%s: %d PDF pages, want %d", name, n, sh.pdfPages)
			}
		}
	}
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "lang", Value: "ja", URL: a.ts.URL})
		return err
	}))
	// Slips with QR codes: the director asks for them on the slips page.
	do(t, ctx, chromedp.EmulateViewport(1000, 900))
	do(t, ctx, emulateScreen(), chromedp.Navigate(a.ts.URL+pages["swiss slips"]), chromedp.WaitVisible(chromedp.CSS(`[data-testid="paper-issue-qr"]`)))
	do(t, ctx, submit("paper-issue-qr")...)
	do(t, ctx, chromedp.EmulateViewport(a4PortraitW, a4PortraitH), printMedia)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[sheetLayout](sheetLayoutJS))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "day-slips-qr")
	checkSheet(t, "day-slips-qr", got, 10)
	if got.QR != 20 { // one per player: two on each of the 10 slips
		t.Errorf("%d QR codes on the slips, want 20", got.QR)
	}
	for i, in := range got.QRHalves {
		if !in {
			t.Errorf("QR code %d is not on a player's half of its slip", i+1)
		}
	}
	if got.Clipped != 0 {
		t.Errorf("%d slips with QR codes overflow their 68 mm", got.Clipped)
	}
	for i, w := range got.QRSizes {
		if w < 75 { // 2 cm at 96 px per inch
			t.Errorf("QR code %d is %.0f px wide, under 2 cm", i+1, w)
		}
	}
	if n := printPDF(t, ctx, "day-slips-qr"); n != 2 {
		t.Errorf("slips with QR codes: %d PDF pages, want 2", n)
	}
}

func emulateScreen() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "screen"})
		return err
	})
}

func checkSheet(t *testing.T, name string, got sheetLayout, items int) {
	t.Helper()
	if !got.Print {
		t.Fatalf("%s: print media not emulated", name)
	}
	if got.HeaderShown || got.FormsShown != 0 {
		t.Errorf("%s: header shown %v, %d forms shown in print", name, got.HeaderShown, got.FormsShown)
	}
	if got.Items != items {
		t.Errorf("%s: %d items, want %d", name, got.Items, items)
	}
	if got.ScrollWidth > got.Viewport || got.Widest > got.Viewport+0.5 {
		t.Errorf("%s: wider than A4: scroll width %.0f, widest element ends at %.0f, page %.0f", name, got.ScrollWidth, got.Widest, got.Viewport)
	}
	for i, h := range got.PageHeights {
		if h > a4PortraitH {
			t.Errorf("%s: sheet %d of slips is %.0f px tall, more than the %d px of an A4 page", name, i+1, h, a4PortraitH)
		}
		if got.PerPage[i] > day.SlipsPerPage {
			t.Errorf("%s: sheet %d holds %d slips", name, i+1, got.PerPage[i])
		}
	}
	for i, w := range got.SlipWidths {
		if w > got.Viewport/2+1 {
			t.Errorf("%s: slip %d is %.0f px wide, more than half the page", name, i+1, w)
		}
	}
}
