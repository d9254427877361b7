package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
)

// TestBrackets_DrawWithOneEntrantSaysSoInTheReadersLanguage: a draw with
// fewer than two entrants is refused (422) in the page's language. Found
// by the issue 11 probe: the Japanese page showed the pairing room's
// English message and its field name ("entrants").
func TestBrackets_DrawWithOneEntrantSaysSoInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		path := f.newStage(t, "一次予選")
		if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(f.players[2].ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add entrant: %d", resp.StatusCode)
		}
		for _, c := range []struct{ lang, want string }{
			{"", "2人以上の出場者が必要です（いまは1人）"},
			{"?lang=en", "at least 2 entrants (there are 1 now)"},
		} {
			resp, body := a.postForm(path+"/draw"+c.lang, url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}})
			main := doc(t, body).Find("main").Text()
			if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(main, c.want) ||
				strings.Contains(main, "need at least") || strings.Contains(main, "entrants)") {
				t.Fatalf("lang %q: %d %q", c.lang, resp.StatusCode, main)
			}
		}
		if st, _ := a.store.StageByID(context.Background(), stageIDOf(t, path)); st.Status != office.StageSetup {
			t.Fatalf("a refused draw moved the stage to %s", st.Status)
		}
	})
}
