package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowser_LeagueTerm_D_A2_D_B1 walks a 順位戦 term in a real browser: a
// scheduler (also the event's director) signs in, adds a C2 class of 11
// players with a 師弟 pair, draws it with the witnesses' number and a
// calendar, publishes (confirming that the event becomes public too),
// enters every result with the quick form; the public table shows ○/● and the promotion marks; the
// scheduler rolls the term over. The table is saved as a screenshot.
func TestBrowser_LeagueTerm_D_A2_D_B1(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	f := newLeagueFixture(t, a, 11)

	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "sched"), fill("password", leaguePW)),
		submit("login-submit"),
	)...)
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/events/"+strconv.FormatInt(f.eventID, 10)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="event-league-link"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="event-league-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-class-form"]`)))
	do(t, ctx, steps(
		one(chromedp.SetValue(chromedp.CSS(`[name="class"]`), "C2"),
			chromedp.SetValue(chromedp.CSS(`[name="members"]`), f.memberLines()),
			fill("games_per_player", "4"), fill("allowance", "360")),
		submit("league-class-submit"),
	)...)
	if got := textOf(t, ctx, `[data-testid="league-class-title"]`); !strings.Contains(got, "C2組") {
		t.Fatalf("class page title %q", got)
	}
	dates := []string{"2026-06-09", "2026-07-07 2026-07-08", "2026-08-04", "2026-09-01", "2026-10-06"}
	gen := one(fill("seed", "20260401"), fill("draw_date", "2026-05-01"))
	for i, d := range dates {
		gen = append(gen, chromedp.SetValue(chromedp.CSS(`#f-round_date-`+strconv.Itoa(i+1)), d))
	}
	do(t, ctx, steps(gen, submit("league-generate-submit"))...)
	if got := textOf(t, ctx, `[data-testid="league-seed"]`); !strings.Contains(got, "20260401") {
		t.Fatalf("seed shown as %q", got)
	}
	if got := textOf(t, ctx, `[data-testid="league-report"]`); !strings.Contains(got, "すべての規定を満たしています") {
		t.Fatalf("constraint report: %q", got)
	}
	sched := textOf(t, ctx, `[data-testid="league-schedule"]`)
	for _, line := range strings.Split(sched, "\n") {
		if strings.Contains(line, f.players[0].Name) && strings.Contains(line, f.players[1].Name) {
			t.Fatalf("D-A2: the 師弟 pair meets: %q", line)
		}
	}
	do(t, ctx, submit("league-publish")...)
	// The confirmation says the draft event becomes public with the schedule.
	if got := textOf(t, ctx, `[data-testid="publish-event-public"]`); !strings.Contains(got, "公開") {
		t.Fatalf("confirmation: %q", got)
	}
	do(t, ctx, submit("publish-confirm")...)

	// Every game: the quick form, sente wins (22 games).
	for k := range 22 {
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`[data-testid="league-sente-win"]`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 0 {
			t.Fatalf("no quick result form left after %d results", k)
		}
		do(t, ctx, submit("league-sente-win")...)
		do(t, ctx, submit("preview-confirm")...) // the preview asks once (issue 13)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`[data-testid="league-sente-win"]`), chromedp.AtLeast(0))); len(n) != 0 {
		t.Fatalf("%d games still open after 22 results", len(n))
	}

	// Publishing the schedule published the event; the public table shows it.
	classURL := ""
	_, body := a.get(f.base())
	if href, ok := doc(t, body).Find(`[data-testid="league-class-C2組"]`).Attr("href"); ok {
		classURL = href
	} else {
		t.Fatal("the public league page lists no C2 class")
	}
	do(t, ctx, chromedp.Navigate(a.ts.URL+classURL), chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-table"]`)))
	table := textOf(t, ctx, `[data-testid="league-table"]`)
	if strings.Count(table, "○") != 22 || strings.Count(table, "●") != 22 || strings.Count(table, "抜け番") != 11 {
		t.Fatalf("table: %d ○, %d ●, %d rests", strings.Count(table, "○"), strings.Count(table, "●"), strings.Count(table, "抜け番"))
	}
	if strings.Count(table, "昇級") < 3 || !strings.Contains(table, "★降級点") {
		t.Fatalf("promotion or demotion-point marks missing: %q", table)
	}
	screenshot(t, ctx, "league-table")
	// The public (no cookies) sees the same table.
	_, pub := a.do(a.newClient(), "GET", classURL, nil, "")
	if strings.Count(doc(t, pub).Find(`[data-testid="league-table"]`).Text(), "○") != 22 {
		t.Fatal("the public table differs")
	}

	// Roll over to the next term.
	do(t, ctx, chromedp.Navigate(a.ts.URL+f.base()), chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-rollover-form"]`)))
	do(t, ctx, steps(
		one(fill("name", "第86期順位戦"), fill("start_date", "2027-06-01"), fill("end_date", "2028-03-31")),
		submit("league-rollover-submit"),
	)...)
	classes := textOf(t, ctx, `[data-testid="league-classes"]`)
	if !strings.Contains(classes, "C1組") || !strings.Contains(classes, "C2組") {
		t.Fatalf("next term classes: %q", classes)
	}
}
