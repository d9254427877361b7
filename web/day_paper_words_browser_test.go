package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/web/site"
)

// wordsLayout is what the whole-words check reads from a printed sheet.
type wordsLayout struct {
	Print   bool     `json:"print"`
	Width   float64  `json:"width"`
	Words   int      `json:"words"`
	Broken  []string `json:"broken"`  // a name or amount laid on more than one line
	Outside []string `json:"outside"` // a name or amount reaching past its cell or box
	Clipped []string `json:"clipped"` // an element (borders included) past the page's right edge
	Hidden  []string `json:"hidden"`  // a box whose overflow is cut off (a signature line pushed out)
	Signs   int      `json:"signs"`   // slips whose two signature lines are whole inside the slip
	Slips   int      `json:"slips"`
}

// wordsLayoutJS reads, under print media, every name and amount of the
// sheet (.paper-name, .paper-word, .paper-amount): laid on one line (one
// line box: getClientRects on an inline element gives one rectangle per
// line) and inside the cell or box that holds it; every visible element's
// right edge, with the outer half of a collapsed table border, on the page;
// no box that hides overflow hiding any; each slip's signature lines
// inside it.
const wordsLayoutJS = `(() => {
	const vis = e => { const s = getComputedStyle(e); return s.display !== 'none' && s.visibility !== 'hidden'; };
	const W = document.documentElement.clientWidth;
	const say = e => (e.className || e.tagName) + ': ' + (e.textContent || '').trim().slice(0, 40);
	const out = {print: matchMedia('print').matches, width: W, words: 0, broken: [], outside: [], clipped: [], hidden: [], signs: 0, slips: 0};
	for (const e of document.querySelectorAll('main .paper-name, main .paper-word, main .paper-amount')) {
		if (!vis(e) || !e.textContent.trim()) continue;
		out.words++;
		const tops = new Set([...e.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
		if (tops.size > 1) out.broken.push(say(e));
		const box = e.closest('td, th, .slip-half-head, .slip, li, p');
		if (box) {
			const r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
			if (r.right > b.right + 0.5 || r.left < b.left - 0.5) out.outside.push(say(e));
		}
	}
	for (const e of document.querySelectorAll('main *')) {
		if (!vis(e)) continue;
		const s = getComputedStyle(e);
		let right = e.getBoundingClientRect().right;
		if (e.tagName === 'TABLE' && s.borderCollapse === 'collapse') right += parseFloat(s.borderRightWidth) / 2;
		if (right > W + 0.01) out.clipped.push(say(e) + ' ends at ' + right.toFixed(1));
		if ((s.overflowX === 'hidden' || s.overflowY === 'hidden' || s.overflow === 'hidden') &&
			(e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)) out.hidden.push(say(e));
	}
	for (const slip of document.querySelectorAll('.slip')) {
		out.slips++;
		const b = slip.getBoundingClientRect();
		const lines = [...slip.querySelectorAll('.slip-signs span')].map(s => s.getBoundingClientRect());
		if (lines.length === 2 && lines.every(r => r.height > 0 && r.bottom <= b.bottom + 0.5 && r.right <= b.right + 0.5)) out.signs++;
	}
	return out;
})()`

// seedWordsDay is a day whose names, readings and clubs are long enough
// to wrap (「勅使河原 美智子」, a club of 24 characters) and whose fees are
// 2,000円 / 1,000円: a Swiss class with QR slips and a pools class, round 1
// drawn in both under the toss policy, one board's toss recorded (so the
// slips print both kinds), half the entrants paid.
func seedWordsDay(t *testing.T, a *testApp) paperDay {
	t.Helper()
	ctx := context.Background()
	d := day.New(a.srv.Office)
	u := a.addUser("words-director", true)
	f := paperDay{admin: office.Actor{UserID: u.ID, Login: u.Login, Admin: true}, d: d}
	org := store.Organiser{Name: "県将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	e, err := d.CreateDay(ctx, f.admin, office.EventInput{OrganiserID: org.ID, Name: "第四十七回 県民将棋大会 兼 県名人戦予選", StartDate: "2026-11-21", EndDate: "2026-11-21"})
	if err != nil {
		t.Fatal(err)
	}
	f.event = e
	mk := func(name, format string, first int) day.Class {
		st := day.DefaultSettings()
		st.FirstBoard, st.Fee, st.FeeReduced, st.FeeReducedFor, st.FeeReducedForEn = first, 2000, 1000, "学生・女性・シニア", "students, women, seniors"
		c, err := d.CreateClass(ctx, f.admin, day.InputOf(e.ID, name, "", 0, format, st))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	f.swiss, f.pools = mk("A級", day.FormatSwiss, 1), mk("B級", day.FormatPools, 101)
	names := []string{"青木 健一", "勅使河原 美智子", "長谷川 慎之介", "小比類巻 かおり", "五十嵐 龍之介", "佐々木 小次郎", "東海林 太郎", "宇佐美 優"}
	readings := []string{"あおき けんいち", "てしがわら みちこ", "はせがわ しんのすけ", "こひるいまき かおり", "いがらし りゅうのすけ", "ささき こじろう", "しょうじ たろう", "うさみ ゆう"}
	clubs := []string{"東京大学将棋部ＯＢ会 世田谷支部 火曜教室", "北海道札幌市立大通中学校 将棋同好会", "", "日本将棋連盟 横浜みなとみらい支部"}
	k := 0
	for ci, c := range []day.Class{f.swiss, f.pools} {
		for i := range names {
			p := store.Player{Name: fmt.Sprintf("%s%c", names[i], 'ア'+rune(ci)), Reading: readings[i], Kind: store.PlayerAmateur, Rank: "初段",
				Affiliation: clubs[k%len(clubs)], CreatedAt: a.now, UpdatedAt: a.now}
			k++
			if err := a.store.CreatePlayer(ctx, &p); err != nil {
				t.Fatal(err)
			}
			cat := day.FeeCategoryFull
			if i%3 == 1 {
				cat = day.FeeCategoryReduced
			}
			if _, err := d.Enter(ctx, f.admin, day.EntryInput{EventID: e.ID, PlayerID: p.ID, ClassID: c.ID, FeeCategory: cat}); err != nil {
				t.Fatal(err)
			}
			if err := d.CheckIn(ctx, f.admin, e.ID, p.ID, store.CheckinPresent); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				if err := d.RecordFee(ctx, f.admin, day.FeeInput{EventID: e.ID, PlayerID: p.ID, Status: day.FeePaid, Amount: []string{"", "1800", "2500"}[i%3]}); err != nil {
					t.Fatal(err)
				}
			}
		}
		pr, err := d.PreviewRound(ctx, f.admin, c.ID, 11)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.ConfirmRound(ctx, f.admin, day.ConfirmInput{ClassID: c.ID, Round: pr.Round, Seed: 11, Fingerprint: pr.Fingerprint}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.SetPaper(ctx, f.admin, day.PaperInput{ClassID: f.swiss.ID, QR: true, WaitMinutes: "10"}); err != nil {
		t.Fatal(err)
	}
	v, err := d.ClassView(ctx, f.admin, f.swiss.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := v.Rounds[0].Boards[0]
	if _, err := d.EnterBoardToss(ctx, f.admin, day.BoardTossInput{ClassID: f.swiss.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Tosser: b.Sente, Fu: 4, To: 1}); err != nil {
		t.Fatal(err)
	}
	a.signIn(a.client, u.ID)
	return f
}

// Issue 23 §3: every sheet, printed from Chromium on A4 (print media, the
// 718 px the page's margins leave), keeps each name, reading and amount
// on one line and inside its cell, nothing (a table's right border
// included) past the page's right edge, no box hiding what overflows it,
// and each slip — with and without QR codes, while the toss is pending
// and after it — its two signature lines, with names and clubs long
// enough to wrap. Each sheet is also printed to PDF (kept in
// KISEN_SCREENSHOT_DIR). On both databases.
func TestBrowser_DayPaperWordsWholeOnA4(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowser(t)
		a := newTestApp(t, s)
		f := seedWordsDay(t, a)
		u, _ := url.Parse(a.ts.URL)
		var session string
		for _, c := range a.client.Jar.Cookies(u) {
			if c.Name == "kisen_session" {
				session = c.Value
			}
		}
		media := func(m string) chromedp.Action[chromedp.Void] {
			return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
				return err
			})
		}
		do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "kisen_session", Value: session, URL: a.ts.URL})
			return err
		}), chromedp.EmulateViewport(a4PortraitW, a4PortraitH), media("print"))
		pages := f.paperPages()
		lang := "ja"
		check := func(name string) {
			name += "-" + lang
			t.Helper()
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
			screenshot(t, ctx, name)
			printPDF(t, ctx, name)
			t.Logf("%s: %d names and amounts whole, %d slips signed", name, got.Words, got.Slips)
		}
		for _, lang = range site.Languages {
			do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: "lang", Value: lang, URL: a.ts.URL})
				return err
			}), chromedp.EmulateViewport(a4PortraitW, a4PortraitH), media("print"))
			for _, sh := range []struct{ name, key string }{
				{"words-pairings", "swiss pairings"}, {"words-slips", "swiss slips"}, {"words-pools-slips", "pools slips"},
				{"words-checkin", "check-in list"}, {"words-blocks", "block sheets"}, {"words-standings", "swiss standings"},
			} {
				do(t, ctx, chromedp.Navigate(a.ts.URL+pages[sh.key]), chromedp.WaitReady(chromedp.CSS(`main`)))
				check(sh.name)
			}
			// Slips with QR codes: issued from the slips page (a POST).
			do(t, ctx, chromedp.EmulateViewport(1000, 900), media("screen"), chromedp.Navigate(a.ts.URL+pages["swiss slips"]),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="paper-issue-qr"]`)))
			do(t, ctx, submit("paper-issue-qr")...)
			do(t, ctx, chromedp.WaitReady(chromedp.CSS(`[data-testid="paper-qr-issued"]`)), chromedp.EmulateViewport(a4PortraitW, a4PortraitH), media("print"))
			check("words-slips-qr")
		}
	})
}
