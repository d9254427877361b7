package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kisen/office/day"
	"kisen/store"
	"kisen/web/site"
)

// TestBrowser_DayFeesAndToss_D_F1_D_F2 clicks the desk's forms on a 390 px
// phone, in Japanese and in English, on both databases: at reception one
// expected entrant is checked in and pays the reduced fee (category chosen
// in the row's fee form, blank amount = what the category owes); a walk-in
// is registered paying the full fee; the totals show expected against
// received per category. At a board the toss form is used: a tie (2 fu, 2
// to) is noted and the form stays (D-F2: toss again), then 5 to tossed by
// sente gives gote sente (D-F1) and the row shows the seats.
func TestBrowser_DayFeesAndToss_D_F1_D_F2(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		a := newTestApp(t, s)
		bg := context.Background()
		const pw = "a long enough passphrase"
		a.addAccount("desk", pw, true)
		words := map[string]struct {
			reducedFor, tie, decided, sente string
			walkIn, yen1000, yen2000        string
			day                             map[string]string // testid → text in the day total row
		}{
			"ja": {"学生・女性・シニア", "同数。振り直してください", "で決定", "先手", "飛込一郎", "1,000円", "2,000円",
				// 4 seeded, unpaid (full); the reduced 1,000 paid; the walk-in 2,000 paid.
				map[string]string{"day-fee-expected-total": "11,000円", "day-fee-day-total": "3,000円", "day-fee-balance": "−8,000円", "day-fee-unpaid-count": "4"}},
			"en": {"students, women, seniors", "a tie, toss again", "decided", "Sente", "Walk-in Ichiro", "¥1,000", "¥2,000",
				// 6 seeded, unpaid (full): 6×2,000 + 2,000 + 1,000 expected.
				map[string]string{"day-fee-expected-total": "¥15,000", "day-fee-day-total": "¥3,000", "day-fee-balance": "−¥12,000", "day-fee-unpaid-count": "6"}},
		}
		for i, lang := range site.Languages {
			w := words[lang]
			f := seedDay(t, a, 4+2*i, 1) // a day of its own per language
			in := day.InputOf(f.event.ID, "A級", "", 0, day.FormatSwiss, f.class.Settings)
			in.Fee, in.FeeReduced, in.FeeReducedFor, in.FeeReducedForEn = "2000", "1000", "学生・女性・シニア", "students, women, seniors"
			if _, err := f.d.UpdateClass(bg, f.admin, f.class.ID, in); err != nil {
				t.Fatal(err)
			}
			late := store.Player{Name: "受付待子" + lang, Reading: "うけつけまちこ", Kind: store.PlayerAmateur, Rank: "1級", CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(bg, &late); err != nil {
				t.Fatal(err)
			}
			if _, err := f.d.Enter(bg, f.admin, day.EntryInput{EventID: f.event.ID, PlayerID: late.ID}); err != nil {
				t.Fatal(err)
			}
			ctx := newBrowser(t) // a browser per language: each has the whole time limit on a busy machine
			do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
			receptionPath := fmt.Sprintf("/events/%d/day/reception", f.event.ID)
			browserLogin(t, ctx, a, "desk", pw, receptionPath, `[data-testid="day-reception"]`)
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/lang?to="+lang+"&back=/"))
			reception := a.ts.URL + receptionPath
			do(t, ctx, chromedp.Navigate(reception), chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-reception"]`)))
			row := fmt.Sprintf(`[data-testid="day-entrant-%d"]`, late.ID)
			// Check in, then the reduced fee in the row's fee form.
			do(t, ctx, swapAt(row+` [data-testid="day-checkin-present"]`)...)
			do(t, ctx, steps(one(chromedp.SetValue(chromedp.CSS(row+` [data-testid="day-fee-category"]`), day.FeeCategoryReduced)),
				swapAt(row+` [data-testid="day-fee-paid"]`))...)
			if got := textOf(t, ctx, row+` [data-testid="day-fee-expected"]`); !strings.Contains(got, w.reducedFor) || !strings.Contains(got, w.yen1000) {
				t.Errorf("%s: the reduced entrant's expected fee reads %q", lang, got)
			}
			if got := textOf(t, ctx, row+` [data-testid="day-fee-words"]`); !strings.Contains(got, w.yen1000) {
				t.Errorf("%s: the reduced entrant's fee reads %q", lang, got)
			}
			// A walk-in paying the full fee.
			do(t, ctx, steps(one(fill("name", w.walkIn), fill("reading", "とびこみいちろう"), fill("rank", "二段"),
				chromedp.SetValue(chromedp.CSS(`#f-fee_status`), day.FeePaid), chromedp.SetValue(chromedp.CSS(`#f-fee_category`), day.FeeCategoryFull)),
				submit("day-walkin-submit"))...)
			es, err := a.store.DayEntrantsOfEvent(bg, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			var walkIn int64
			for _, e := range es {
				if e.Name == w.walkIn {
					walkIn = e.PlayerID
				}
			}
			if walkIn == 0 {
				t.Fatalf("%s: the walk-in was not registered", lang)
			}
			wrow := fmt.Sprintf(`[data-testid="day-entrant-%d"]`, walkIn)
			if got := textOf(t, ctx, wrow+` [data-testid="day-fee-words"]`); !strings.Contains(got, w.yen2000) {
				t.Errorf("%s: the walk-in's fee reads %q", lang, got)
			}
			for id, want := range w.day {
				if got := textOf(t, ctx, `[data-testid="day-fee-day"] [data-testid="`+id+`"]`); strings.TrimSpace(got) != want {
					t.Errorf("%s: day total %s reads %q, want %q", lang, id, got, want)
				}
			}
			reduced := textOf(t, ctx, `[data-testid="day-fee-day-category"]:nth-child(2)`)
			if !strings.Contains(reduced, w.yen1000) {
				t.Errorf("%s: the day's reduced line reads %q", lang, reduced)
			}
			assertNoSideScroll(t, ctx, lang+" reception")
			screenshot(t, ctx, "fees-reception-"+lang)
			viewShot(t, ctx, row, "fees-reception-row-"+lang)
			viewShot(t, ctx, `[data-testid="day-fee-totals"]`, "fees-reception-totals-"+lang)

			// The toss at board 1: a tie, then the deciding toss.
			v, err := f.d.ClassView(bg, f.admin, f.class.ID)
			if err != nil {
				t.Fatal(err)
			}
			b := v.Rounds[0].Boards[0]
			boards := fmt.Sprintf("%s/day/classes/%d/rounds/1/boards", a.ts.URL, f.class.ID)
			card := fmt.Sprintf(`[data-testid="day-board-%d"]`, b.Board)
			toss := func(fu, to string) {
				t.Helper()
				do(t, ctx, steps(one(
					chromedp.Click(chromedp.CSS(card+` [data-testid="day-toss"] summary`)),
					chromedp.SetValue(chromedp.CSS(card+` [data-testid="day-toss-tosser"]`), strconv.FormatInt(b.Sente, 10)),
					chromedp.SetValue(chromedp.CSS(card+` [data-testid="day-toss-fu"]`), fu),
					chromedp.SetValue(chromedp.CSS(card+` [data-testid="day-toss-to"]`), to)),
					submitAt(card+` [data-testid="day-toss-submit"]`))...)
			}
			do(t, ctx, chromedp.Navigate(boards), chromedp.WaitVisible(chromedp.CSS(card)))
			toss("2", "2")
			if got := textOf(t, ctx, card+` [data-testid="day-toss-note"]`); !strings.Contains(got, w.tie) || !strings.Contains(got, v.Names[b.Sente]) {
				t.Errorf("%s: after a tie the note reads %q", lang, got)
			}
			viewShot(t, ctx, card, "fees-toss-tie-"+lang)
			toss("0", "5")
			if got := textOf(t, ctx, card+` [data-testid="day-toss-note"]`); !strings.Contains(got, w.decided) {
				t.Errorf("%s: after the deciding toss the note reads %q", lang, got)
			}
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(card+` [data-testid="day-toss-form"]`)+`).length`)); err != nil || n != 0 {
				t.Errorf("%s: the toss form is still offered (%d, %v)", lang, n, err)
			}
			head := textOf(t, ctx, card+` .day-board-head`)
			if !strings.Contains(head, w.sente+" "+v.Names[b.Gote]) {
				t.Errorf("%s: the board row reads %q, want %s %s as sente", lang, head, w.sente, v.Names[b.Gote])
			}
			g, err := a.store.GameByID(bg, b.Last.ID)
			if err != nil || g.SentePlayerID == nil || *g.SentePlayerID != b.Gote {
				t.Errorf("%s: stored sente %v, want %d (%v)", lang, g.SentePlayerID, b.Gote, err)
			}
			assertNoSideScroll(t, ctx, lang+" boards")
			viewShot(t, ctx, card, "fees-toss-decided-"+lang)
		}
	})
}

// assertNoSideScroll fails when the page is wider than the 390 px phone.
func assertNoSideScroll(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if width > 390 {
		t.Errorf("%s: the page is %.0f px wide on a 390 px screen", what, width)
	}
}

// viewShot scrolls css into view and captures what the phone's screen
// shows (CaptureScreenshot), for reading a part of a long page.
func viewShot(t *testing.T, ctx context.Context, css, name string) {
	t.Helper()
	do(t, ctx, chromedp.ScrollIntoView(chromedp.CSS(css)))
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := screenshotDir(t)
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}
