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
	"kisen/office/ratings"
	"kisen/store"
)

// TestBrowser_ResultMovesRatings: a director signs in through the login
// form, ends a game by resignation on the game page, and both players'
// record pages say newer results are coming until the background refresh
// runs, then show the new ratings (Elo, K 32: 1500 → 1516 and 1484) and
// the chart; the rating list orders them.
func TestBrowser_ResultMovesRatings(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	bg := context.Background()
	o := a.srv.Office
	const pw = "rating director passphrase"
	hash, err := office.HashPassword(pw, cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := store.User{Login: "kantoku", DisplayName: "大会 監督", PasswordHash: hash, IsAdmin: true, CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.DB(bg).Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	admin := office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: true}
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(bg, &org); err != nil {
		t.Fatal(err)
	}
	ev, err := o.CreateEvent(bg, admin, office.EventInput{OrganiserID: org.ID, Name: "第1期レーティング杯", Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2026-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.SetEventStatus(bg, admin, ev.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	sente, err := o.CreatePlayer(bg, admin, office.PlayerInput{Name: "先手 太郎", Reading: "せんて たろう", Kind: "professional", Rank: "七段"})
	if err != nil {
		t.Fatal(err)
	}
	gote, err := o.CreatePlayer(bg, admin, office.PlayerInput{Name: "後手 花子", Reading: "ごて はなこ", Kind: "professional", Rank: "六段"})
	if err != nil {
		t.Fatal(err)
	}
	game, err := o.CreateGame(bg, admin, office.GameInput{EventID: ev.ID, Label: "決勝", SenteID: &sente.ID, GoteID: &gote.ID, ScheduledOn: "2026-11-20", AllowanceMinutes: 180})
	if err != nil {
		t.Fatal(err)
	}
	recordURL := func(p store.Player) string { return fmt.Sprintf("%s/players/%d/record", a.ts.URL, p.ID) }

	// Before the game: no rated games.
	do(t, ctx, chromedp.Navigate(recordURL(sente)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="record-unrated"]`)))

	// Sign in and end the game: gote resigns.
	do(t, ctx,
		chromedp.Navigate(a.ts.URL+"/login?next=/games/"+strconv.FormatInt(game.ID, 10)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
		chromedp.SendKeys(chromedp.CSS(`#f-login`), "kantoku"),
		chromedp.SendKeys(chromedp.CSS(`#f-password`), pw),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="end-form"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid="end-kind"]`), "resign"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="end-by"]`), "gote"),
		chromedp.Click(chromedp.CSS(`[data-testid="end-preview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="preview-confirm"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="preview-confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="results-table"]`)),
	)

	// The ratings are recomputed in the background (the worker of `kisen
	// serve`); until then the record page says newer results are coming.
	do(t, ctx, chromedp.Navigate(recordURL(sente)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="rating-stale"]`)))
	if _, err := ratings.New(o).RefreshRatingsIfStale(bg); err != nil {
		t.Fatal(err)
	}

	// Both players' pages show the moved ratings and a chart.
	for _, c := range []struct {
		p      store.Player
		rating string
		change string
		shot   string
	}{{sente, "1516", "+16", "rating-record-winner"}, {gote, "1484", "−16", "rating-record-loser"}} {
		do(t, ctx, chromedp.Navigate(recordURL(c.p)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="rating-chart"]`)))
		if got := textOf(t, ctx, `[data-testid="record-rating-value"]`); got != c.rating {
			t.Errorf("%s: rating %q, want %s", c.p.Name, got, c.rating)
		}
		if got := textOf(t, ctx, `[data-testid="record-games"] [data-testid="record-change"]`); got != c.change {
			t.Errorf("%s: change %q, want %s", c.p.Name, got, c.change)
		}
		screenshot(t, ctx, c.shot)
	}

	// Head-to-head through the picker (htmx swaps the fragment in).
	// SetValue fires no change event, so the button submits the form as a
	// plain GET: wait until that navigation (and its redirect to the record
	// page with the opponent) has finished before reading the page.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`[data-testid="h2h-opponent"]`), strconv.FormatInt(sente.ID, 10)),
		chromedp.Click(chromedp.CSS(`#h2h button[type="submit"]`)),
	)
	for i := 0; ; i++ {
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err == nil && strings.Contains(loc, "opponent=") {
			if ready, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === "complete"`)); err == nil && ready {
				break
			}
		}
		if i == 100 {
			t.Fatalf("the head-to-head form did not load the record with the opponent (at %q)", loc)
		}
		do(t, ctx, chromedp.Sleep(50*time.Millisecond))
	}
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="h2h-summary"]`)))
	if got := textOf(t, ctx, `[data-testid="h2h-summary"]`); got == "" {
		t.Error("head-to-head summary empty")
	}

	// The public list, highest first.
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/ratings"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="rating-table"]`)))
	if got := textOf(t, ctx, `[data-testid="rating-row"]:first-child [data-testid="rating-name"]`); got != sente.Name {
		t.Errorf("top of the list: %q", got)
	}
	screenshot(t, ctx, "rating-list")
}
