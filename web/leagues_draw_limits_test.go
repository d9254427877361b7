package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"kisen/league"
	"kisen/store"
)

// TestLeagueWeb_DrawTooManyPlayersIsLocalised (issue 11 part 7): the web
// draw refuses a round-robin class over league.MaxRoundRobinPlayers before
// searching, with a 422 in the page's language naming both numbers, and
// draws nothing.
func TestLeagueWeb_DrawTooManyPlayersIsLocalised(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 12)
		over := league.MaxRoundRobinPlayers + 1
		for i := len(f.players); i < over; i++ {
			num := fmt.Sprintf("X%02d", i+1)
			p := store.Player{Number: &num, Name: fmt.Sprintf("追加 %02d", i+1), Reading: "ついか", Kind: store.PlayerProfessional,
				Class: store.PlayerClassC2, CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			f.players = append(f.players, p)
		}
		a.signIn(a.client, f.sched.ID)
		resp, body := a.postForm(f.base()+"/classes", url.Values{"class": {"A"}, "members": {f.memberLines()}, "allowance": {"360"}})
		if resp.StatusCode != 303 {
			t.Fatalf("add an A class of %d: %d %s", over, resp.StatusCode, body)
		}
		classURL := resp.Header.Get("Location")
		for _, c := range []struct{ lang, count, max string }{
			{"", fmt.Sprintf("%d人", over), fmt.Sprintf("%d人まで", league.MaxRoundRobinPlayers)},
			{"?lang=en", fmt.Sprintf("%d players", over), fmt.Sprintf("at most %d", league.MaxRoundRobinPlayers)},
		} {
			resp, page := a.postForm(classURL+"/generate"+c.lang, url.Values{"seed": {"7"}, "draw_date": {"2026-05-01"}})
			msg := doc(t, page).Find(`[data-testid="league-conflicts"]`).Text()
			if resp.StatusCode != 422 || !strings.Contains(msg, c.count) || !strings.Contains(msg, c.max) {
				t.Fatalf("lang %q: %d %q", c.lang, resp.StatusCode, msg)
			}
		}
		_, page := a.get(classURL)
		if doc(t, page).Find(`[data-testid="league-no-schedule"]`).Length() != 1 {
			t.Fatal("a class over the limit was drawn")
		}
	})
}

// TestLeagueWeb_DrawOutOfTimeIsLocalised: a draw whose search runs out of
// its time budget says so in the page's language (422), distinct from
// "no schedule exists", and draws nothing.
func TestLeagueWeb_DrawOutOfTimeIsLocalised(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		resp, _ := a.postForm(f.base()+"/classes", url.Values{"class": {"C2"}, "members": {f.memberLines()}, "games_per_player": {"4"}})
		if resp.StatusCode != 303 {
			t.Fatalf("add class: %d", resp.StatusCode)
		}
		classURL := resp.Header.Get("Location")
		a.srv.Office.SetLeagueDrawBudget(time.Nanosecond) // over before the first step
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
	t.Parallel()
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
