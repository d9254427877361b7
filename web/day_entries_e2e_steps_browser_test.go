package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
)

// The steps of TestBrowser_AmateurDayFromEntries that are more than a
// few lines: the desk's check-ins, the player following her day, the
// printed sheets.

// deskCheckIn checks every arriving entrant in at the reception desk by
// keyboard, as a volunteer would: a few kana of the reading typed into
// the search box (the shortest start of it that names one entrant, at
// least two kana), then Enter. An action is the Enter (the typing belongs
// to it); the desk is held to at most 1.2 per entrant. The page is never
// reloaded (a window marker survives) and the box keeps the focus. It
// leaves the browser on the reception page.
func deskCheckIn(t *testing.T, ctx context.Context, a *testApp, recPath string, all, arriving []store.DayEntrantRow) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(a.ts.URL+recPath), chromedp.WaitVisible(chromedp.CSS(`[data-testid="desk-search"]`)),
		waitJS(`document.body.hasAttribute("data-live-open")`), waitJS(`(window.__deskMarker = true)`),
		chromedp.Focus(chromedp.CSS(`#desk-search`)))
	keys := make([]string, len(all))
	for i, e := range all {
		keys[i] = office.FoldName(e.Reading)
	}
	typed := func(reading string) string {
		k := []rune(office.FoldName(reading))
		for n := 2; n <= len(k); n++ {
			p, count := string(k[:n]), 0
			for _, o := range keys {
				if strings.HasPrefix(o, p) {
					count++
				}
			}
			if count == 1 {
				return p
			}
		}
		t.Fatalf("no start of %s names one entrant", reading)
		return ""
	}
	actions := 0
	for i, e := range arriving {
		do(t, ctx, insertText(typed(e.Reading)))
		actions++
		do(t, ctx, chromedp.KeyEvent("\r"))
		if err := chromedp.Do(ctx, waitJS(fmt.Sprintf(`(function(){var r=document.getElementById("desk-row-%d"); return !!r && r.getAttribute("data-state")===%q && !document.querySelector(".htmx-request")})()`, e.PlayerID, store.CheckinPresent))); err != nil {
			screenshot(t, ctx, "entries-e2e-desk-stuck")
			t.Fatalf("%s (%d of %d) not checked in after typing %s and Enter: %v", e.Name, i+1, len(arriving), typed(e.Reading), err)
		}
	}
	per := float64(actions) / float64(len(arriving))
	t.Logf("%d actions for %d check-ins: %.2f each", actions, len(arriving), per)
	if per > 1.2 {
		t.Errorf("%.2f actions per check-in, more than 1.2", per)
	}
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__deskMarker === true && document.activeElement === document.getElementById("desk-search")`))
	if err != nil || !kept {
		t.Errorf("the desk reloaded or lost the box's focus (%v)", err)
	}
}

// insertText types text into the focused field as a Japanese IME commits
// it: the kana at once, one input event (Input.insertText), rather than a
// key event per character.
func insertText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// winBoard enters a win for winner on board b of the class's round 1 from
// the board page, choosing the button that names them.
func winBoard(t *testing.T, ctx context.Context, a *testApp, classID int64, b int, winner string) {
	t.Helper()
	do(t, ctx, steps(
		one(chromedp.Navigate(fmt.Sprintf("%s/day/classes/%d/rounds/1/boards", a.ts.URL, classID)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-board-find"]`)),
			chromedp.SetValue(chromedp.CSS(`[data-testid="day-board-find"]`), strconv.Itoa(b))),
		submit("day-board-go"),
	)...)
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){
		const b = [...document.querySelectorAll('[data-testid="day-board-`+strconv.Itoa(b)+`"] [data-testid=day-sente_win], [data-testid="day-board-`+strconv.Itoa(b)+`"] [data-testid=day-gote_win]')].find(b => b.textContent.includes(`+strconv.Quote(winner)+`));
		return b ? b.dataset.testid : '';
	})()`))
	if err != nil || id == "" {
		screenshot(t, ctx, "entries-e2e-no-winner-button")
		t.Fatalf("board %d: no button names %s (%v)", b, winner, err)
	}
	do(t, ctx, steps(submit(id), submit("day-board-confirm"))...)
}

// followPlayer: the first of candidates with a board in round 1 finds it
// on the public round page at 390 px (anonymous, her phone), sees her win
// arrive without a reload, and her record on the standings page, which
// also takes the next result live.
func followPlayer(t *testing.T, a *testApp, phone, ctx context.Context, d *day.Day, actor office.Actor, class day.Class, candidates []e2ePerson, db string) {
	t.Helper()
	bg := context.Background()
	v, err := d.ClassView(bg, actor, class.ID)
	if err != nil {
		t.Fatal(err)
	}
	var me, opp string
	var board, other int
	var otherWinner string
	for _, p := range candidates {
		for _, b := range v.Rounds[0].Boards {
			if me == "" && (v.Names[b.Sente] == p.Name || v.Names[b.Gote] == p.Name) {
				me, opp, board = p.Name, v.Names[b.Gote], b.Board
				if v.Names[b.Gote] == p.Name {
					opp = v.Names[b.Sente]
				}
			}
		}
	}
	if me == "" {
		t.Fatal("none of the phone's entrants has a board in round 1")
	}
	for _, b := range v.Rounds[0].Boards {
		if other == 0 && b.Board != board {
			other, otherWinner = b.Board, v.Names[b.Sente]
		}
	}
	do(t, phone, chromedp.Navigate(fmt.Sprintf("%s/day/classes/%d/rounds/1", a.ts.URL, class.ID)),
		chromedp.WaitReady(chromedp.CSS("body[data-live-open]")))
	width, err := chromedp.Run(phone, chromedp.Evaluate[float64](`(window.kisenSameDocument = true, document.documentElement.scrollWidth)`))
	if err != nil || width > 390 {
		t.Fatalf("the round page is %.0f px wide on a 390 px phone (%v)", width, err)
	}
	do(t, phone, chromedp.SendKeys(chromedp.CSS(`[data-testid="day-name-filter"]`), me))
	shown := func() []string {
		t.Helper()
		rows, err := chromedp.Run(phone, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#day-by-name tr[data-testid=day-name-row]')].filter(r => !r.hidden).map(r => r.innerText)`))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := shown()
	if len(rows) != 1 || !strings.Contains(rows[0], me) || !strings.Contains(rows[0], strconv.Itoa(board)) || !strings.Contains(rows[0], opp) {
		t.Fatalf("after typing %s: lines %q, want hers with board %d against %s", me, rows, board, opp)
	}
	screenshot(t, phone, db+"-entries-e2e-find-my-board")

	// Her result entered at the desk arrives on her open page.
	winBoard(t, ctx, a, class.ID, board, me)
	wctx, cancel := context.WithTimeout(phone, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.WaitReady(chromedp.CSS(`#day-by-name tr[data-testid=day-name-row][data-outcome=win]`))); err != nil {
		screenshot(t, phone, db+"-entries-e2e-result-not-shown")
		t.Fatalf("her open page did not show her win: %v", err)
	}
	rows = shown()
	if len(rows) != 1 || !strings.Contains(rows[0], me) || !strings.Contains(rows[0], "勝ち") {
		t.Fatalf("after her result: lines %q, want hers with 勝ち", rows)
	}
	if same, err := chromedp.Run(phone, chromedp.Evaluate[bool](`window.kisenSameDocument === true`)); err != nil || !same {
		t.Fatalf("her page was reloaded, not updated (%v)", err)
	}
	screenshot(t, phone, db+"-entries-e2e-my-result-live")

	// The standings: her record; the next result arrives there too.
	do(t, phone, steps(submit("day-standings-link"), one(chromedp.WaitReady(chromedp.CSS("body[data-live-open]"))))...)
	rowOf := func(name string) string {
		return `[...document.querySelectorAll('tr[data-testid=day-standing]')].map(tr => [...tr.children].map(td => td.textContent.trim())).find(c => c[1].startsWith(` + strconv.Quote(name) + `))`
	}
	cells, err := chromedp.Run(phone, chromedp.Evaluate[[]string](rowOf(me)))
	if err != nil || len(cells) < 4 || cells[2] != "1" || cells[3] != "0" {
		screenshot(t, phone, db+"-entries-e2e-standings-wrong")
		t.Fatalf("standings line of %s: %q, want 1 win 0 losses (%v)", me, cells, err)
	}
	if w, err := chromedp.Run(phone, chromedp.Evaluate[float64](`(window.kisenSameDocument = true, document.documentElement.scrollWidth)`)); err != nil || w > 390 {
		t.Errorf("the standings page is %.0f px wide on a 390 px phone (%v)", w, err)
	}
	winBoard(t, ctx, a, class.ID, other, otherWinner)
	wctx2, cancel2 := context.WithTimeout(phone, 10*time.Second)
	defer cancel2()
	if err := chromedp.Do(wctx2, waitJS(`(function(){const c = `+rowOf(otherWinner)+`; return !!c && c[2] === "1"})()`)); err != nil {
		screenshot(t, phone, db+"-entries-e2e-standings-not-live")
		t.Fatalf("the open standings did not take %s's win: %v", otherWinner, err)
	}
	if same, err := chromedp.Run(phone, chromedp.Evaluate[bool](`window.kisenSameDocument === true`)); err != nil || !same {
		t.Fatalf("the standings page was reloaded, not updated (%v)", err)
	}
	screenshot(t, phone, db+"-entries-e2e-standings-live")
}

// checkSheetsWhole prints each sheet (print media on A4) and checks, as
// TestBrowser_DayPaperWordsWholeOnA4 does, every name and amount whole on
// one line inside its cell, nothing past the page's right edge, no box
// hiding what overflows it, each slip's signature lines; each sheet is
// also printed to PDF.
func checkSheetsWhole(t *testing.T, ctx context.Context, a *testApp, db string, sheets map[string]string) {
	t.Helper()
	media := func(m string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
			return err
		})
	}
	do(t, ctx, chromedp.EmulateViewport(a4PortraitW, a4PortraitH), media("print"))
	for name, path := range sheets {
		do(t, ctx, chromedp.Navigate(a.ts.URL+path), chromedp.WaitReady(chromedp.CSS(`main`)))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[wordsLayout](wordsLayoutJS))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Print || got.Words == 0 {
			t.Fatalf("%s: print %v, %d names and amounts", name, got.Print, got.Words)
		}
		for what, list := range map[string][]string{"broken mid-word": got.Broken, "outside its cell": got.Outside, "past the page's right edge": got.Clipped, "cut off": got.Hidden} {
			if len(list) > 0 {
				t.Errorf("%s: %d %s: %s", name, len(list), what, strings.Join(list, " | "))
			}
		}
		if got.Signs != got.Slips {
			t.Errorf("%s: %d of %d slips show both signature lines", name, got.Signs, got.Slips)
		}
		pages := printPDF(t, ctx, db+"-entries-e2e-"+name)
		t.Logf("%s: %d names and amounts whole, %d slips signed, %d PDF pages", name, got.Words, got.Slips, pages)
	}
	do(t, ctx, media(""), chromedp.EmulateViewport(1200, 900))
}

// setField sets the value of the field found by css by script (a query
// by node can hold a node of the document before a navigation).
func setField(css, value string) chromedp.Action[chromedp.Void] {
	return waitJS(`(function(){const e = document.querySelector(` + strconv.Quote(css) + `); if (!e) return false; e.value = ` + strconv.Quote(value) + `; return e.value === ` + strconv.Quote(value) + `})()`)
}
