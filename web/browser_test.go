package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds a Chromium to drive: KISEN_CHROMIUM, then the usual
// names. Without one the browser tests skip, unless KISEN_TEST_BROWSER=
// required (CI), where they fail. Under -short (make test-short) they skip.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped under -short")
	}
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

// The package's one Chromium: started by the first browser test, shared
// by every later one, stopped when the package's tests end (TestMain).
// Starting Chromium costs about a second (more under load); the browser
// tests of this package are dozens. Each test still gets a browser of its
// own in all that matters — a new BrowserContext (its own cookies, storage
// and cache, like a private window) with a new tab — so tests neither see
// each other's sessions nor need to run one at a time.
var sharedBrowser struct {
	once   sync.Once
	ctx    context.Context // the browser; tests open contexts under it
	cancel func()
	err    error
}

func startSharedBrowser(path string) {
	sharedBrowser.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("no-first-run", true),
			chromedp.WindowSize(1200, 900),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelBrowser := chromedp.NewContext(actx)
		sharedBrowser.ctx = bctx
		sharedBrowser.cancel = func() { cancelBrowser(); cancelAlloc() }
		// The first Run starts the browser process and its first tab.
		sharedBrowser.err = chromedp.Do(bctx)
	})
}

// TestMain stops the shared Chromium once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedBrowser.cancel != nil {
		sharedBrowser.cancel()
	}
	os.Exit(code)
}

// newBrowser returns a context to run chromedp actions in for the test: a
// private browser context with its own tab in the package's Chromium
// (closed at cleanup), with a five-minute deadline. The deadline is there
// to end a hung tab, not to time the test: under `make test` on CI's 2
// cores, beside the other packages, a long flow (the knockout from draw to
// champion) took 128 s and ran out of the two minutes it had.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, 5*time.Minute)
}

// browserTests is how many tests drive the shared Chromium at once. The
// tests run in parallel (t.Parallel, go test -parallel 8), but on 2 cores
// eight tabs laying out pages at once, beside the race-enabled servers,
// take turns so slowly that a test runs into its deadline. A test waits
// for a turn before its deadline starts. The turn belongs to the top-level
// test, so its subtests (the two databases of eachBrowserDB) and a second
// tab of the same test (brackets_browser_test.go) never wait for it.
const browserTests = 2

var browserTurns = struct {
	mu   sync.Mutex
	cond *sync.Cond
	held map[string]int // top-level test name → tabs it has open
}{held: map[string]int{}}

func init() { browserTurns.cond = sync.NewCond(&browserTurns.mu) }

// browserTurn waits until the test (its top-level test) may drive Chromium,
// and gives the turn back when the test ends.
func browserTurn(t *testing.T) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	b := &browserTurns
	b.mu.Lock()
	for b.held[top] == 0 && len(b.held) >= browserTests {
		b.cond.Wait()
	}
	b.held[top]++
	b.mu.Unlock()
	t.Cleanup(func() {
		b.mu.Lock()
		if b.held[top]--; b.held[top] == 0 {
			delete(b.held, top)
			b.cond.Broadcast()
		}
		b.mu.Unlock()
	})
}

// newBrowserFor is newBrowser with the deadline d.
func newBrowserFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	path := chromiumPath(t)
	browserTurn(t)
	startSharedBrowser(path)
	if sharedBrowser.err != nil {
		t.Fatalf("start Chromium %s: %v", path, sharedBrowser.err)
	}
	tabCtx, cancelTab := chromedp.NewContext(sharedBrowser.ctx, chromedp.WithNewBrowserContext())
	tctx, cancelTimeout := context.WithTimeout(tabCtx, d)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
	})
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("open a browser tab: %v", err)
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
	dir := screenshotDir(t)
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
	t.Parallel()
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
