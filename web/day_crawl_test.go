package web

import (
	"context"
	"fmt"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/site"
)

// TestCrawl_DayPagesHaveNoDeveloperText (issue 13's crawl over the amateur
// day): every day page reachable from the day page — classes, reception,
// standings, draw results, the board page — as the public and as the
// director, in Japanese and English, passes the same checks as the site
// crawl (no message ids, rule ids, player ids, JSON or the wrong
// language).
func TestCrawl_DayPagesHaveNoDeveloperText(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 9, 2)
		ctx := context.Background()
		data := []string{f.event.Name, fmt.Sprintf("県連%d", 9), "A級", "B級", "初段", "二段", "3級", "5級", "平手", "香落ち", "角落ち"}
		var ids []int64
		es, err := a.store.DayEntrantsOfEvent(ctx, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			data = append(data, e.Name, e.Reading, e.Affiliation)
			ids = append(ids, e.PlayerID)
		}
		// A pools class with a walk-in, an absentee and a withdrawal.
		in := day.InputOf(f.event.ID, "B級", "", 1, day.FormatPools, day.DefaultSettings())
		in.Handicap = day.HandicapMixed
		b, err := f.d.CreateClass(ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		for i, rank := range []string{"初段", "二段", "3級", "初段", "二段", "初段", "5級"} {
			w, err := f.d.WalkIn(ctx, f.admin, day.WalkInInput{EventID: f.event.ID, Name: fmt.Sprintf("当日%d", i), Reading: "とうじつ", Rank: rank, Club: "駅前道場", ClassID: b.ID})
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, fmt.Sprintf("当日%d", i), "とうじつ", "駅前道場")
			ids = append(ids, w.PlayerID)
		}
		p, err := f.d.PreviewRound(ctx, f.admin, b.ID, 5)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.ConfirmRound(ctx, f.admin, day.ConfirmInput{ClassID: b.ID, Round: 1, Seed: 5, Fingerprint: p.Fingerprint}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.d.Withdraw(ctx, f.admin, f.event.ID, p.Boards[0].Sente); err != nil {
			t.Fatal(err)
		}
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		chk := newPageChecker(a.srv.Msgs, data, ids)
		start := []string{fmt.Sprintf("/events/%d", f.event.ID), fmt.Sprintf("/events/%d/day", f.event.ID),
			fmt.Sprintf("/events/%d/day/reception", f.event.ID), fmt.Sprintf("/day/classes/%d/edit", b.ID),
			fmt.Sprintf("/day/classes/%d/rounds/1/boards", b.ID), fmt.Sprintf("/day/classes/%d/rounds/1/boards?board=99", b.ID),
			fmt.Sprintf("/day/classes/%d/standings", b.ID),
			// The public day (issue 23 §4): a round by board and by name, the projector.
			fmt.Sprintf("/day/classes/%d/rounds/1", b.ID), fmt.Sprintf("/events/%d/projector", f.event.ID)}
		var all []offence
		total := 0
		for _, id := range []crawlIdentity{{"public", 0}, {"director", f.admin.UserID}} {
			for _, lang := range site.Languages {
				c := a.newClient()
				a.setLang(c, lang)
				if id.userID != 0 {
					a.signIn(c, id.userID)
				}
				offs, n := crawl(t, a, c, lang, chk, start)
				total += n
				for i := range offs {
					offs[i].URL = id.name + "/" + lang + " " + offs[i].URL
				}
				all = append(all, offs...)
			}
		}
		if total < 20 {
			t.Errorf("the crawl reached only %d pages", total)
		}
		report(t, all)
	})
}
