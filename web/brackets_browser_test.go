package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/store"
)

// TestBrowser_KnockoutDrawToChampion_D_A1: a director builds a 12-player
// first preliminary with two 師弟 pairs in the browser, draws it (D-A1 holds
// in round 1), publishes, records every result, and the public bracket page
// shows the champion. The public bracket is screenshotted.
func TestBrowser_KnockoutDrawToChampion_D_A1(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	bg := context.Background()
	const pw = "a long enough passphrase"
	h, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	admin := store.User{Login: "director", DisplayName: "大会 責任者", PasswordHash: h, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateUser(bg, &admin); err != nil {
		t.Fatal(err)
	}
	act := office.Actor{UserID: admin.ID, Login: admin.Login, Admin: true}
	o := office.New(a.store, func() time.Time { return a.now })
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(bg, &org); err != nil {
		t.Fatal(err)
	}
	ev, err := o.CreateEvent(bg, act, office.EventInput{OrganiserID: org.ID, Name: "新人王戦", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	kana := []string{"あ", "い", "う", "え", "お", "か", "き", "く", "け", "こ", "さ", "し"}
	var ids []int64
	for i := range 12 {
		p, err := o.CreatePlayer(bg, act, office.PlayerInput{Name: fmt.Sprintf("棋士%02d", i+1), Reading: "きし " + kana[i], Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	for _, pair := range [][2]int{{0, 1}, {2, 3}} {
		if err := o.AddMasterPeriod(bg, act, ids[pair[1]], office.MasterRef{PlayerID: ids[pair[0]]}, "2010-04-01", ""); err != nil {
			t.Fatal(err)
		}
	}

	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "director"), fill("password", pw)),
		submit("login-submit"),
	)...)
	// Stage.
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/events/"+strconv.FormatInt(ev.ID, 10)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="event-brackets"]`))),
		submit("event-brackets"),
		one(fill("name", "一次予選"), chromedp.SetValue(chromedp.CSS(`[name="kind"]`), "first_preliminary"), fill("round_dates", "2026-12-10 2027-01-10 2027-02-10 2027-03-10")),
		submit("stage-submit"),
	)...)
	if got := textOf(t, ctx, `[data-testid="stage-name"]`); got != "一次予選" {
		t.Fatalf("stage page shows %q", got)
	}
	stageURL, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	stageURL = strings.SplitN(stageURL, "#", 2)[0]
	// Entrants through the search.
	for _, id := range ids {
		do(t, ctx, steps(
			one(chromedp.Navigate(stageURL+"?q="+"きし"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="add-`+strconv.FormatInt(id, 10)+`"]`))),
			submit("add-"+strconv.FormatInt(id, 10)+`"] button[type="submit`),
		)...)
	}
	if n := strings.Count(textOf(t, ctx, `[data-testid="entrants"] tbody`), "棋士"); n < 12 {
		t.Fatalf("%d entrants listed, want 12", n)
	}
	// Draw with the witnesses' number, review, publish.
	do(t, ctx, steps(
		one(fill("seed", "20261201"), fill("draw_date", "2026-11-21")),
		submit("draw-submit"),
	)...)
	if got := textOf(t, ctx, `[data-testid="no-violations"]`); got == "" {
		t.Fatal("no constraint report")
	}
	slot := map[string]int{}
	for s := 1; s <= 16; s++ {
		slot[textOf(t, ctx, `[data-testid="slot-`+strconv.Itoa(s)+`"]`)] = s
	}
	for _, pair := range [][2]string{{"棋士01", "棋士02"}, {"棋士03", "棋士04"}} {
		if (slot[pair[0]]-1)/2 == (slot[pair[1]]-1)/2 {
			t.Fatalf("D-A1: %s and %s meet in round 1 (slots %d, %d)", pair[0], pair[1], slot[pair[0]], slot[pair[1]])
		}
	}
	// Oracle: the quick form offers no default winner (issue 13); the test
	// chooses the upper player every time, so the champion is whoever
	// holds the first line of the bracket.
	top := textOf(t, ctx, `[data-testid="slot-1"]`)
	if top == "不戦（シード）" {
		top = textOf(t, ctx, `[data-testid="slot-2"]`)
	}
	do(t, ctx, submit("publish-submit")...)
	do(t, ctx, submit("preview-confirm")...)
	// Every result through the quick form, the upper player winning.
	for range 20 {
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`form.quick-result[data-testid^="result-"] button`), chromedp.AtLeast(0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 0 {
			break
		}
		id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "result-submit-")
		do(t, ctx, chooseFirst(`[data-testid="winner-`+id+`"]`))
		do(t, ctx, submit("result-submit-"+id)...)
		do(t, ctx, submit("preview-confirm")...)
	}
	// The public sees the champion.
	pub := newBrowser(t)
	do(t, pub, chromedp.Navigate(a.ts.URL+"/events/"+strconv.FormatInt(ev.ID, 10)+"/brackets"), chromedp.WaitVisible(chromedp.CSS(`.bracket`)))
	champ := textOf(t, pub, `[data-testid^="champion-"] strong`)
	if champ != top {
		t.Fatalf("public champion %q, want %q", champ, top)
	}
	screenshot(t, pub, "knockout-public-bracket")
}
