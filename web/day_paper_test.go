package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kisen/office/day"
)

// Every paper page and the director's view answer 200 in both languages
// with no developer text (the crawl's checker), and show what they are
// for: one row per board, per entrant, per block.
func TestDayPaper_PagesInBothLanguages(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 8, 1)
		chk := newPageChecker(a.srv.msgs, f.names, f.players)
		for _, lang := range Languages {
			a.setLang(a.client, lang)
			for name, path := range f.paperPages() {
				resp, body := a.get(path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d", lang, name, resp.StatusCode)
				}
				for _, o := range chk.check(path, lang, body) {
					t.Errorf("%s %s: %s", lang, name, o)
				}
			}
		}
		count := func(path, testid string) int {
			_, body := a.get(path)
			return strings.Count(body, `data-testid="`+testid+`"`)
		}
		pages := f.paperPages()
		if n := count(pages["pools pairings"], "paper-pairing-row"); n != 4 {
			t.Errorf("pools pairings: %d rows, want 4", n)
		}
		if n := count(pages["swiss slips"], "paper-slip"); n != 3 {
			t.Errorf("swiss slips: %d, want the 3 undecided boards", n)
		}
		if n := count(pages["check-in list"], "paper-checkin-row"); n != 16 {
			t.Errorf("check-in rows: %d, want 16", n)
		}
		if n := count(pages["block sheets"], "paper-block"); n != 2 {
			t.Errorf("blocks: %d, want 2", n)
		}
		if n := count(pages["swiss standings"], "paper-standings-row"); n != 8 {
			t.Errorf("standings rows: %d, want 8", n)
		}
		_, body := a.get(pages["director"])
		if n := strings.Count(body, `data-testid="director-playing-row"`); n != 4+3 {
			t.Errorf("director: %d playing boards, want 7", n)
		}
	})
}

var reQRLink = regexp.MustCompile(`data-testid="paper-slip-qr"`)

// The players' report over HTTP: slips with QR codes issued by POST, the
// link's page, a stranger's 422, agreement entering the result (shown in
// the game's history as the players' report), then a polite 409; a wrong
// link 404 and, after MaxMisses, 429.
func TestDayReport_WebFlow(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 4, 0)
		slips := f.paperPages()["swiss slips"]
		resp, body := a.postForm(slips, url.Values{})
		if resp.StatusCode != http.StatusOK || len(reQRLink.FindAllString(body, -1)) != 2 {
			t.Fatalf("issue: %d, %d codes", resp.StatusCode, len(reQRLink.FindAllString(body, -1)))
		}
		// The tokens reach the test the way they reach a phone: issued
		// again through the office (the page carries them only as QR).
		ctx := context.Background()
		toks, err := f.d.IssueSlipLinks(ctx, f.admin, f.swiss.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := f.d.ClassView(ctx, f.admin, f.swiss.ID)
		b := v.Rounds[0].Boards[0]
		link := "/r/" + toks[b.Root.ID]
		phone := a.newClient()
		get := func() (*http.Response, string) { return a.do(phone, http.MethodGet, link, nil, "") }
		post := func(reporter, winner int64) (*http.Response, string) {
			form := url.Values{"reporter": {fmt.Sprint(reporter)}, "winner": {fmt.Sprint(winner)}, "_csrf": {a.csrfToken(phone)}}
			return a.do(phone, http.MethodPost, link, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
		}
		if resp, body := get(); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="report-page"`) {
			t.Fatalf("link page: %d", resp.StatusCode)
		}
		if resp, body := post(f.players[0]+1000, b.Sente); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="report-message"`) {
			t.Fatalf("stranger: %d", resp.StatusCode)
		}
		if resp, _ := post(b.Sente, b.Gote); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sente's report: %d", resp.StatusCode)
		}
		if _, body := get(); !strings.Contains(body, `data-testid="report-waiting"`) {
			t.Fatal("no waiting notice after one report")
		}
		if resp, _ := post(b.Gote, b.Gote); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("gote's report: %d", resp.StatusCode)
		}
		if _, body := get(); !strings.Contains(body, `data-testid="report-decided"`) {
			t.Fatal("result not shown after agreement")
		}
		a.setLang(a.client, "ja")
		if _, body := a.get(fmt.Sprintf("/games/%d", b.Last.ID)); !strings.Contains(body, "対局者の申告") {
			t.Error("the game's result history does not say the players reported it")
		}
		if resp, body := post(b.Sente, b.Sente); resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="report-decided"`) {
			t.Fatalf("after the result: %d", resp.StatusCode)
		}
		for i := 0; i < day.MaxMisses; i++ {
			if resp, _ := a.do(phone, http.MethodGet, "/r/not-a-token", nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("wrong link %d: %d", i, resp.StatusCode)
			}
		}
		if resp, _ := get(); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("after %d wrong links: %d", day.MaxMisses, resp.StatusCode)
		}
	})
}

// A bad wait in the paper settings is a 422 naming the field, and nothing
// is saved; QR slips of a class with QR off are a 422 too.
func TestDayPaper_Settings422(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 4, 0)
		a.setLang(a.client, "ja")
		resp, body := a.postForm(fmt.Sprintf("/day/classes/%d/paper", f.swiss.ID), url.Values{"qr": {"1"}, "wait_minutes": {"abc"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "分数は1から240までの整数") {
			t.Fatalf("bad wait: %d", resp.StatusCode)
		}
		if p, _ := f.d.Paper(context.Background(), f.admin, f.swiss.ID); p.WaitMinutes != 10 {
			t.Fatalf("bad wait saved: %+v", p)
		}
		resp, _ = a.postForm(fmt.Sprintf("/day/classes/%d/paper", f.swiss.ID), url.Values{"wait_minutes": {"15"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good settings: %d", resp.StatusCode)
		}
		if p, _ := f.d.Paper(context.Background(), f.admin, f.swiss.ID); p.WaitMinutes != 15 || p.QR {
			t.Fatalf("saved %+v", p)
		}
		resp, body = a.postForm(f.paperPages()["pools slips"], url.Values{})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "QRコードを付けない設定") {
			t.Fatalf("QR slips with QR off: %d", resp.StatusCode)
		}
	})
}

// The paper pages and the director's view issue the same number of SQL
// statements for a day of 2×8 players and one of 2×80.
func TestQueryCount_DayPaperPagesCostTheSameAtTenTimesTheSize(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedPaperDay(t, a, 8, 2)
		large := seedPaperDay(t, a, 80, 20)
		for name, sp := range small.paperPages() {
			lp := large.paperPages()[name]
			ns := statementsOf(t, a, a.store, sp)
			nl := statementsOf(t, a, a.store, lp)
			t.Logf("%-16s small %3d large %3d", name, ns, nl)
			if ns != nl {
				t.Errorf("%s: %d statements for 16 players, %d for 160", name, ns, nl)
			}
			if nl > 30 {
				t.Errorf("%s: %d statements", name, nl)
			}
		}
	})
}
