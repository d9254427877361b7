package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
)

// Issue 23 §5: the start page tells an amateur day's desk in words — a
// run of check-ins as one line naming the players, the round confirmed
// with its number of games, a walk-in and a withdrawal by name — and
// names each waiting game's class, round and board, for the director and
// for a recorder of the event, in both languages.
func TestStart_DayDeskInWordsAndGamesByClassAndBoard(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := seedDay(t, a, 4, 1)
		if _, err := f.d.WalkIn(ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: "飛込 一郎", Reading: "とびこみ いちろう", Rank: "初段", ClassID: f.class.ID}); err != nil {
			t.Fatal(err)
		}
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		gone := v.Entrants[0]
		if _, err := f.d.Withdraw(ctx, f.admin, f.event.ID, gone.PlayerID); err != nil {
			t.Fatal(err)
		}
		rec := a.addUser("start-day-recorder", false)
		if err := a.srv.Office.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: rec.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"4人を出席にしました：選手4-003、選手4-002、選手4-001、選手4-000", // newest first
			"A級 1回戦の組み合わせを確定しました（2局）",
			"A級 に当日受付で 飛込 一郎 を登録しました（出席）",
			"A級 で " + gone.Name + " の棄権を記録しました",
		}
		for _, who := range []int64{f.admin.UserID, rec.ID} {
			a.signIn(a.client, who)
			resp, body := a.get("/start")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("start: %d", resp.StatusCode)
			}
			changes := body[strings.Index(body, `data-testid="start-changes"`):]
			for _, w := range want {
				if !strings.Contains(changes, w) {
					t.Errorf("user %d: recent changes miss %q:\n%s", who, w, changes)
				}
			}
			// Each waiting game names class, round and board (withdrawal
			// forfeited one board, so one is still waiting).
			waiting := body[strings.Index(body, `data-testid="start-waiting"`):strings.Index(body, `data-testid="start-confirm"`)]
			n := 0
			for _, b := range v.Rounds[0].Boards {
				if strings.Contains(waiting, fmt.Sprintf("A級 1回戦 %d番盤：", b.Board)) {
					n++
				}
			}
			if n == 0 || strings.Count(waiting, `data-testid="start-waiting-result"`) != n {
				t.Errorf("user %d: %d waiting games named by class and board:\n%s", who, n, waiting)
			}
		}
		u, _ := url.Parse(a.ts.URL)
		a.client.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: "en", Path: "/"}})
		_, body := a.get("/start")
		for _, w := range []string{"marked 4 players of", "present: 選手4-003, 選手4-002", "round 1 (2 games)", "registered 飛込 一郎 at the desk", "A級 round 1, board"} {
			if !strings.Contains(body, w) {
				t.Errorf("English start page misses %q", w)
			}
		}
	})
}

// The start page with amateur days costs the same number of statements for
// a day of 4 entrants and one more of 40.
func TestQueryCount_StartPageWithDaysCostsTheSame(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedDay(t, a, 4, 1)
		a.signIn(a.client, small.admin.UserID)
		ns := statementsOf(t, a, a.store, "/start")
		seedDay(t, a, 40, 1)
		nl := statementsOf(t, a, a.store, "/start")
		t.Logf("start page with days: small %d large %d", ns, nl)
		if ns != nl || nl > 30 {
			t.Errorf("start page: %d statements small, %d large (want equal, at most 30)", ns, nl)
		}
	})
}
