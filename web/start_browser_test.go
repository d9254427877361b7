package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/store"
)

// waitFor polls until the element matching css exists (htmx answers).
func waitFor(t *testing.T, ctx context.Context, css string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if n, _ := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(css), chromedp.AtLeast(0))); len(n) > 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", css)
}

// elementShot saves a PNG of one element (a long page's table) where
// screenshot saves them.
func elementShot(t *testing.T, ctx context.Context, css, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(css)))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", css, err)
	}
	dir := screenshotDir(t)
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", p, len(buf))
}

// TestBrowser_StartChecklistBulkEntryPickerSwapAndMarks walks issue 13's
// start page and bulk entry in a real browser, with screenshots: first-run
// setup lands on the checklist; many players pasted (errors first, every
// bad line named); the checklist ticks itself off; entrants pasted into a
// stage; a 師匠 chosen with the picker as you type; two players picked in
// the drawn bracket and the swap previewed in words (D-A1); league tables
// without marks before any game and with 暫定 marks after some; the start
// page with its lists, in both languages.
func TestBrowser_StartChecklistBulkEntryPickerSwapAndMarks(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		bg := context.Background()
		link, err := a.srv.SetupLink(bg, a.ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		const pw = "a long enough passphrase"
		do(t, ctx, steps(
			one(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`[data-testid="setup-form"]`)),
				fill("login", "director"), fill("display_name", "大会 責任者"), fill("password", pw), fill("password2", pw)),
			submit("setup-submit"),
		)...)
		waitFor(t, ctx, `[data-testid="start-checklist"]`)
		if got := textOf(t, ctx, `[data-testid="start-checklist"]`); !strings.Contains(got, "主催者を登録する") {
			t.Fatalf("checklist after setup: %q", got)
		}
		screenshot(t, ctx, "start-checklist-fresh")

		f, err := seed.New(bg, a.srv.Office, a.store, a.now) // an organiser
		if err != nil {
			t.Fatal(err)
		}
		// Many players pasted: two bad lines, both named, nothing stored.
		good := []string{
			"1001, 山田 師匠, やまだ ししょう, 九段",
			"1002, 山田 弟子, やまだ でし, 四段",
			"1003, 佐藤 一郎, さとう いちろう, 五段",
			"1004, 鈴木 二郎, すずき じろう, 六段",
			"1005, 高橋 三郎, たかはし さぶろう, 七段",
			"1006, 田中 四郎, たなか しろう, 四段",
			"1007, 伊藤 五郎, いとう ごろう, 五段",
			"1008, 渡辺 六郎, わたなべ ろくろう, 六段",
		}
		bad := slices.Clone(good)
		bad[2] = "1003, 佐藤 一郎,, 五段"
		bad[4] = "1005, 高橋 三郎, たかはし さぶろう, 七段, 東京"
		do(t, ctx, steps(
			one(chromedp.Navigate(a.ts.URL+"/players/paste"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="paste-form"]`)),
				fill("lines", strings.Join(bad, "\n")), chromedp.SetValue(chromedp.CSS(`[name="kind"]`), "professional")),
			submit("paste-submit"),
		)...)
		waitFor(t, ctx, `[data-testid="bulk-problems"]`)
		if got := textOf(t, ctx, `[data-testid="bulk-problems"]`); !strings.Contains(got, "5行目") {
			t.Fatalf("paste problems: %q", got)
		}
		screenshot(t, ctx, "bulk-players-errors")
		do(t, ctx, steps(one(fill("lines", strings.Join(good, "\n"))), submit("paste-submit"))...)
		waitFor(t, ctx, `[data-testid="paste-done"]`)

		do(t, ctx, chromedp.Navigate(a.ts.URL+"/start"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="start-checklist"]`)))
		screenshot(t, ctx, "start-checklist-ticked")
		if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="setup-step-done"]').length`)); n != 2 {
			t.Fatalf("%d steps ticked off after the organiser and the players, want 2", n)
		}

		// The 師匠 picker: type part of a reading, click the candidate.
		all, _ := a.store.AllPlayers(bg)
		byName := map[string]int64{}
		for _, p := range all {
			byName[p.Name] = p.ID
		}
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/players/%d/master", a.ts.URL, byName["山田 弟子"])),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="master-change-form"] [data-testid="master-search"]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid="master-change-form"] [data-testid="master-search"]`), "やまだ"))
		waitFor(t, ctx, `[data-testid="master-change-form"] [data-testid="master-candidate"]`)
		screenshot(t, ctx, "master-picker-candidates")
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="master-change-form"] [data-testid="master-candidate"]`)))
		waitFor(t, ctx, `[data-testid="master-change-form"] [data-testid="master-picked"]`)
		screenshot(t, ctx, "master-picker-chosen")
		do(t, ctx, steps(one(chromedp.SetValue(chromedp.CSS(`[data-testid="master-change-form"] [name="master_since"]`), "2015-04-01")),
			submit("master-change-submit"))...)
		if got := textOf(t, ctx, `[data-testid="lineage-master"]`); !strings.Contains(got, "山田 師匠") {
			t.Fatalf("master after the picker: %q", got)
		}

		// Entrants pasted into a first preliminary: one bad line, then all.
		ev, err := a.srv.Office.CreateEvent(bg, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "新人王戦", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := a.srv.Office.CreateStage(bg, f.Admin, office.StageInput{EventID: ev.ID, Name: "一次予選", Kind: string(pairing.FirstPreliminary)})
		if err != nil {
			t.Fatal(err)
		}
		var refs []string
		for i, l := range good {
			if i%2 == 0 {
				refs = append(refs, strings.Split(l, ",")[0])
			} else {
				refs = append(refs, strings.TrimSpace(strings.Split(l, ",")[1]))
			}
		}
		stagePath := a.ts.URL + "/stages/" + strconv.FormatInt(st.ID, 10)
		do(t, ctx, chromedp.Navigate(stagePath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="bulk-entrants"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid="bulk-entrants"] summary`)))
		badRefs := append(slices.Clone(refs[:3]), "山田 花子", refs[0])
		do(t, ctx, steps(one(fill("lines", strings.Join(badRefs, "\n"))), submit("bulk-entrants-submit"))...)
		waitFor(t, ctx, `[data-testid="bulk-problems"]`)
		screenshot(t, ctx, "bulk-entrants-errors")
		do(t, ctx, steps(one(fill("lines", strings.Join(refs, "\n"))), submit("bulk-entrants-submit"))...)
		waitFor(t, ctx, `[data-testid="bulk-added"]`)
		do(t, ctx, steps(one(fill("seed", "5")), submit("draw-submit"))...)

		// Swap by picking: the master's round-1 opponent, then the disciple.
		stored, _ := a.store.StageByID(bg, st.ID)
		slots, _ := office.StageSlots(stored)
		im := slices.Index(slots, strconv.FormatInt(byName["山田 師匠"], 10))
		id := slices.Index(slots, strconv.FormatInt(byName["山田 弟子"], 10))
		do(t, ctx, steps(one(chromedp.Navigate(stagePath+"#review"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="slots"]`))),
			submit(fmt.Sprintf("pick-%d", (im^1)+1)))...)
		waitFor(t, ctx, `[data-testid="pick-first"]`)
		screenshot(t, ctx, "swap-pick-first")
		do(t, ctx, submit(fmt.Sprintf("pick-with-%d", id+1))...)
		waitFor(t, ctx, `[data-testid="swap-preview-breaks"]`)
		if got := textOf(t, ctx, `[data-testid="swap-preview"]`); !strings.Contains(got, "師弟のため") || strings.Contains(got, "D-A1") {
			t.Fatalf("swap preview: %q", got)
		}
		screenshot(t, ctx, "swap-pick-preview")

		// League tables: no marks before any game, 暫定 after some.
		_, fresh, err := f.League(bg, 11, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, played, err := f.League(bg, 11, 10)
		if err != nil {
			t.Fatal(err)
		}
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/league/%d", a.ts.URL, fresh.ID)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-marks"]`)))
		elementShot(t, ctx, `table.league-table`, "league-marks-before-any-game")
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/league/%d", a.ts.URL, played.ID)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="league-provisional"]`)))
		elementShot(t, ctx, `table.league-table`, "league-marks-provisional")

		// The start page with its lists, in both languages.
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="start-changes"]`)))
		if got := textOf(t, ctx, `[data-testid="start-changes"]`); !strings.Contains(got, "結果を入力しました") {
			t.Fatalf("start page changes: %q", got)
		}
		screenshot(t, ctx, "start-page")
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="lang-switch"]`)), chromedp.WaitVisible(chromedp.CSS(`html[lang="en"] [data-testid="start-changes"]`)))
		screenshot(t, ctx, "start-page-en")
	})
}
