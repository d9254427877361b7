package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// embedHostPage is a page of "the organiser's own site": it frames src and
// keeps every message the frame posts, and whether the frame fired load.
const embedHostPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
window.kisenMessages = [];
window.frameLoaded = false;
window.addEventListener("message", function (e) { window.kisenMessages.push({origin: e.origin, data: e.data}); });
</script>
<iframe id="embed" src="%s" width="900" height="500" onload="window.frameLoaded = true"></iframe>
</body></html>`

// evalUntil evaluates expr in the page every 50 ms until it returns a
// non-empty string or the timeout passes ("" then).
func evalUntil(t *testing.T, ctx context.Context, expr string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		if s != "" || time.Now().After(deadline) {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowser_EmbedFramedOnlyByAllowedOrigins: Chromium opens a page of
// another origin (a second server, named localhost while Kisen is
// 127.0.0.1) that frames a bracket and a league table embed. With that
// origin in the organiser's list the framed documents load and post their
// load marker (embed.js); with only another origin listed Chromium refuses
// the frame — it fires load on an error document and no marker comes.
func TestBrowser_EmbedFramedOnlyByAllowedOrigins(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	x := newEmbedFixture(t, a)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, embedHostPage, a.ts.URL+r.URL.Query().Get("src"))
	}))
	defer host.Close()
	hostOrigin := strings.Replace(host.URL, "127.0.0.1", "localhost", 1)
	if hostOrigin == host.URL {
		t.Fatalf("host server %s is not on 127.0.0.1", host.URL)
	}
	embeds := map[string]string{
		"stage":  fmt.Sprintf("/embed/stages/%d", x.stage),
		"league": fmt.Sprintf("/embed/league/%d", x.class),
	}
	for _, allowed := range []bool{true, false} {
		list := "https://example.jp"
		if allowed {
			list += "\n" + hostOrigin
		}
		if err := a.srv.Office.SetOrganiserEmbedOrigins(context.Background(), x.f.Admin, x.f.Org.ID, list); err != nil {
			t.Fatal(err)
		}
		for kind, src := range embeds {
			do(t, ctx, chromedp.Navigate(hostOrigin+"/?src="+src), chromedp.WaitReady(chromedp.CSS("#embed")))
			const marker = `window.kisenMessages.length ? JSON.stringify(window.kisenMessages[0]) : ""`
			if !allowed {
				if loaded := evalUntil(t, ctx, `window.frameLoaded ? "yes" : ""`, 10*time.Second); loaded != "yes" {
					t.Fatalf("%s refused: the frame never finished (no load event)", kind)
				}
				time.Sleep(time.Second) // a framed document would have posted by now
				if msg := evalUntil(t, ctx, marker, 0); msg != "" {
					t.Errorf("%s: the embed loaded in a site not allowed: %s", kind, msg)
				}
				continue
			}
			msg := evalUntil(t, ctx, marker, 10*time.Second)
			if msg == "" {
				screenshot(t, ctx, "embed-"+kind+"-allowed")
				t.Fatalf("%s allowed: no load marker from the framed embed", kind)
			}
			var got struct {
				Origin string
				Data   struct {
					Type, Kind, ID string
					Height         int
				}
			}
			if err := json.Unmarshal([]byte(msg), &got); err != nil {
				t.Fatal(err)
			}
			if got.Origin != a.ts.URL || got.Data.Type != "kisen-embed" || got.Data.Kind != kind || got.Data.Height <= 0 ||
				!strings.HasSuffix(src, "/"+got.Data.ID) {
				t.Errorf("%s allowed: marker %+v; want kisen-embed of %s from %s with a height", kind, got, src, a.ts.URL)
			}
			if kind == "stage" {
				screenshot(t, ctx, "embed-stage-framed")
			}
		}
	}
}
