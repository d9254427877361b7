package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office/seed"
	"kisen/store"
	"kisen/web/knockouts"
)

// TestBrowser_BracketOnAPhone: on a 390 px wide screen the public bracket
// of 16 players, three rounds played, names the final's two players above
// the tree (the final column itself is off-screen), offers a link per
// round, and the final's link brings the final's column whole into view.
func TestBrowser_BracketOnAPhone(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		bg := context.Background()
		f, err := seed.New(bg, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		ev, st, err := f.Knockout(bg, 16, 3)
		if err != nil {
			t.Fatal(err)
		}
		eb, err := a.srv.Office.EventBrackets(bg, f.Admin, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		final := eb.Stages[0].Rounds[3][0]
		want := [2]string{eb.PlayerName(final.Players[0]), eb.PlayerName(final.Players[1])}
		do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(fmt.Sprintf("%s/events/%d/brackets", a.ts.URL, ev.ID)), chromedp.WaitVisible(chromedp.CSS(`.bracket`)))
		line := textOf(t, ctx, fmt.Sprintf(`[data-testid="final-line-%d"]`, st.ID))
		if !strings.Contains(line, want[0]) || !strings.Contains(line, want[1]) {
			t.Fatalf("final line %q does not name %s and %s", line, want[0], want[1])
		}
		rect := func(id, side string) float64 {
			t.Helper()
			v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById(`+"`"+id+"`"+`).getBoundingClientRect().`+side))
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		finalCol := knockouts.BracketColID(st.ID, 3)
		if l := rect(finalCol, "left"); l < 390 {
			t.Fatalf("the final's column starts at %.0f px: expected it off a 390 px screen before scrolling", l)
		}
		screenshot(t, ctx, "bracket-phone-top")
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="bracket-rounds-%d"] a[href="#%s"]`, st.ID, finalCol))), chromedp.Sleep(800*1e6))
		if l, r := rect(finalCol, "left"), rect(finalCol, "right"); l < 0 || r > 390 {
			t.Fatalf("after the final's link its column spans %.0f–%.0f px, want it whole on the 390 px screen", l, r)
		}
		screenshot(t, ctx, "bracket-phone-final")
	})
}
