package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fill types a value into the input with the given name.
func fill(name, value string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(chromedp.CSS(`[name="`+name+`"]`), value)
}

// submit clicks a button and waits until the browser shows the next
// document (the page marker set before the click is gone and the new
// document finished loading).
func submit(testid string) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[bool]("window.__kisenPage = true")(ctx, tg)
			return chromedp.Void{}, err
		},
		chromedp.Click(chromedp.CSS(`[data-testid="` + testid + `"]`)),
		func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			for {
				done, err := chromedp.Evaluate[bool]("window.__kisenPage !== true && document.readyState === 'complete'")(ctx, tg)
				if err == nil && done {
					return chromedp.Void{}, nil
				}
				select {
				case <-ctx.Done():
					return chromedp.Void{}, ctx.Err()
				case <-time.After(50 * time.Millisecond):
				}
			}
		},
	}
}

func steps(groups ...[]chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] {
	var out []chromedp.Action[chromedp.Void]
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func one(a ...chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] { return a }

// TestBrowser_FirstRunSetupLoginAndLineage walks the first run in a real
// browser: the one-time setup link creates the administrator, who logs in,
// registers a master and a disciple, links them, and the detail pages show
// the lineage both ways.
func TestBrowser_FirstRunSetupLoginAndLineage(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	a := newTestApp(t, storetestSQLite(t))
	link, err := a.srv.SetupLink(context.Background(), a.ts.URL)
	if err != nil || !strings.HasPrefix(link, a.ts.URL+"/setup?token=") {
		t.Fatalf("setup link %q, %v", link, err)
	}
	const pw = "a long enough passphrase"

	// 1. First-run setup through the one-time link.
	do(t, ctx, steps(
		one(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`[data-testid="setup-form"]`)),
			fill("login", "director"), fill("display_name", "大会 責任者"), fill("password", pw), fill("password2", pw)),
		submit("setup-submit"),
	)...)
	// The link is spent: it now answers 404.
	if resp, _ := a.do(a.newClient(), "GET", strings.TrimPrefix(link, a.ts.URL), nil, ""); resp.StatusCode != 404 {
		t.Fatalf("setup link after use: %d, want 404", resp.StatusCode)
	}

	// 2. Log out if setup signed in, then log in through the form.
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/"), chromedp.WaitReady(chromedp.CSS("footer.site")))
	if n, _ := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`[data-testid="logout"]`), chromedp.AtLeast(0))); len(n) > 0 {
		do(t, ctx, submit("logout")...)
	}
	do(t, ctx, steps(
		one(chromedp.Navigate(a.ts.URL+"/login"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login-form"]`)),
			fill("login", "director"), fill("password", pw)),
		submit("login-submit"),
	)...)
	if got := textOf(t, ctx, `[data-testid="nav-user"]`); got != "大会 責任者" {
		t.Fatalf("signed-in user shown as %q", got)
	}

	// 3. Two players: the master and the disciple.
	newPlayer := func(name, reading, rank, number string) {
		do(t, ctx, steps(
			one(chromedp.Navigate(a.ts.URL+"/players/new"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="player-form"]`)),
				fill("name", name), fill("reading", reading), fill("rank", rank), fill("number", number),
				chromedp.SetValue(chromedp.CSS(`[name="kind"]`), "professional")),
			submit("player-submit"),
		)...)
		if got := textOf(t, ctx, `[data-testid="player-name"]`); !strings.Contains(got, name) {
			t.Fatalf("after creating %s the page shows %q", name, got)
		}
	}
	newPlayer("師匠 一郎", "ししょう いちろう", "九段", "1001")
	newPlayer("弟子 二郎", "でし じろう", "四段", "1002")

	// 4. The disciple's master is the first player, since 2020-04-01.
	do(t, ctx, steps(
		one(chromedp.Click(chromedp.CSS(`[data-testid="player-master-change"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="master-change-form"]`)),
			chromedp.SetValue(chromedp.CSS(`[data-testid="master-change-form"] [name="master_number"]`), "1001"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="master-change-form"] [name="master_since"]`), "2020-04-01")),
		submit("master-change-submit"),
	)...)
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/players?q=でし"), chromedp.WaitReady(chromedp.CSS("footer.site")))
	do(t, ctx, chromedp.Click(chromedp.Search(`//main//a[contains(., "弟子 二郎")]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lineage"]`)))
	if got := textOf(t, ctx, `[data-testid="player-name"]`); !strings.Contains(got, "弟子 二郎") {
		t.Fatalf("expected the disciple's page, got %q", got)
	}
	if got := textOf(t, ctx, `[data-testid="lineage-master"]`); !strings.Contains(got, "師匠 一郎") {
		t.Fatalf("disciple's lineage shows master %q", got)
	}
	screenshot(t, ctx, "lineage-disciple")

	// 5. The master's page lists the disciple.
	// Wait for an element only the master's page has: the disciple's page
	// also shows [data-testid="lineage"], so waiting for that raced the
	// navigation and read a node of the page being left.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="lineage-master"] a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lineage-disciple"]`)))
	// Read by script, not by node id: the node WaitVisible saw can be
	// replaced while the page settles ("No node with given id found").
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="lineage-disciple"]').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "弟子 二郎") {
		t.Fatalf("master's lineage shows disciples %q", got)
	}
	screenshot(t, ctx, "lineage-master")
}
