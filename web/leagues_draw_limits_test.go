package web

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLeagueWeb_DrawOutOfTimeIsLocalised: a draw whose search runs out of
// its time budget says so in the page's language (422), distinct from
// "no schedule exists", and draws nothing.
func TestLeagueWeb_DrawOutOfTimeIsLocalised(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		if resp.StatusCode != 303 {
			t.Fatalf("add class: %d", resp.StatusCode)
		}
		classURL := resp.Header.Get("Location")
		a.srv.office.SetLeagueDrawBudget(time.Nanosecond) // over before the first step
		for _, c := range []struct{ lang, want string }{
			{"", "制限時間"},
			{"?lang=en", "ran out of time"},
		} {
			resp, page := a.postForm(classURL+"/generate"+c.lang, url.Values{"seed": {"7"}, "draw_date": {"2026-05-01"}})
			msg := doc(t, page).Find(`[data-testid="league-conflicts"]`).Text()
			if resp.StatusCode != 422 || !strings.Contains(msg, c.want) {
				t.Fatalf("lang %q: %d %q", c.lang, resp.StatusCode, msg)
			}
		}
		_, page := a.get(classURL)
		if doc(t, page).Find(`[data-testid="league-no-schedule"]`).Length() != 1 {
			t.Fatal("a draw that ran out of time left a schedule")
		}
	})
}

// TestLeagueWeb_D_C1_ReportSaysRematchesProvenMinimal: a C1 draw's report
// says, in the page's language, that its rematch count is proven minimal.
func TestLeagueWeb_D_C1_ReportSaysRematchesProvenMinimal(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C1"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		if resp.StatusCode != 303 {
			t.Fatalf("add class: %d", resp.StatusCode)
		}
		classURL := resp.Header.Get("Location")
		if resp, body := a.postForm(classURL+"/generate", url.Values{"seed": {"7"}, "draw_date": {"2026-05-01"}}); resp.StatusCode != 303 {
			t.Fatalf("generate: %d %s", resp.StatusCode, body)
		}
		for _, c := range []struct{ lang, want string }{{"", "証明"}, {"?lang=en", "proven minimal"}} {
			_, page := a.get(classURL + c.lang)
			if got := doc(t, page).Find(`[data-testid="league-rematch-minimality"]`).Text(); !strings.Contains(got, c.want) {
				t.Errorf("lang %q: minimality %q, want %q", c.lang, got, c.want)
			}
		}
	})
}
