package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds a Chromium to drive: KISEN_CHROMIUM, then the usual
// names. Without one the browser tests skip, unless KISEN_TEST_BROWSER=
// required (CI), where they fail.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("KISEN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("KISEN_TEST_BROWSER") == "required" {
		t.Fatal("KISEN_TEST_BROWSER=required but no Chromium was found (set KISEN_CHROMIUM)")
	}
	t.Skip("no Chromium installed; browser tests skipped")
	return ""
}

// newBrowser starts a headless Chromium for the test and returns a context
// to run chromedp actions in (cancelled at cleanup).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	tctx, cancelTimeout := context.WithTimeout(bctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelBrowser()
		cancelAlloc()
	})
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("start Chromium %s: %v", path, err)
	}
	return tctx
}

// screenshot saves a full-page PNG into the test's temporary folder and
// logs where it is.
func screenshot(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("KISEN_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", p, len(buf))
	return p
}

// textOf reads the visible text of the first element matching css.
func textOf(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		t.Fatalf("read text of %s: %v", css, err)
	}
	return s
}

// do runs browser steps and fails the test on error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func TestBrowser_HomeAndLanguageSwitch(t *testing.T) {
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
	if h := textOf(t, ctx, "h1"); h != "棋戦の運営" {
		t.Fatalf("Japanese heading expected, got %q", h)
	}
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid="lang-switch"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="en"] h1`)),
	)
	if h := textOf(t, ctx, "h1"); h != "Shogi event administration" {
		t.Fatalf("English heading expected after the switch, got %q", h)
	}
	screenshot(t, ctx, "home-en")
}
