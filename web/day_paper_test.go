package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/web/api"
	dayroom "kisen/web/day"
	"kisen/web/site"
)

// Every paper page and the director's view answer 200 in both languages
// with no developer text (the crawl's checker), and show what they are
// for: one row per board, per entrant, per block.
func TestDayPaper_PagesInBothLanguages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 8, 1)
		chk := newPageChecker(a.srv.Msgs, f.names, f.players)
		for _, lang := range site.Languages {
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

// The players' report over HTTP (issue 21 item 5): slips issued by POST
// carry two codes, each on its player's half and captioned with that
// player; a link reports only as its player whatever the form says; one
// report waits, the opponent's own agreeing report enters the result
// (shown in the game's history as the players' report, not as the
// director who printed the slips); then both links are closed (410, no
// game on the page). A wrong link is 404 with no game on the page, an old
// single-link slip 410, and after MaxMisses, 429.
func TestDayReport_WebFlow(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 4, 0)
		slips := f.paperPages()["swiss slips"]
		resp, body := a.postForm(slips, url.Values{})
		if resp.StatusCode != http.StatusOK || len(reQRLink.FindAllString(body, -1)) != 4 {
			t.Fatalf("issue: %d, %d codes, want 2 per slip", resp.StatusCode, len(reQRLink.FindAllString(body, -1)))
		}
		ctx := context.Background()
		v, _ := f.d.ClassView(ctx, f.admin, f.swiss.ID)
		b := v.Rounds[0].Boards[0]
		name := func(id int64) string {
			for _, e := range v.Entrants {
				if e.PlayerID == id {
					return e.Name
				}
			}
			return ""
		}
		for _, who := range []int64{b.Sente, b.Gote} {
			if !strings.Contains(body, `data-testid="paper-slip-qr-for">`+name(who)) {
				t.Errorf("no code captioned with %s on the slips", name(who))
			}
		}
		// The tokens reach the test the way they reach a phone: issued
		// again through the office (the page carries them only as QR).
		toks, err := f.d.IssueSlipLinks(ctx, f.admin, f.swiss.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		senteLink, goteLink := "/r/"+toks[b.Root.ID].Sente, "/r/"+toks[b.Root.ID].Gote
		phone := a.newClient()
		get := func(link string) (*http.Response, string) { return a.do(phone, http.MethodGet, link, nil, "") }
		post := func(link string, form url.Values) (*http.Response, string) {
			form.Set("_csrf", a.csrfToken(phone))
			return a.do(phone, http.MethodPost, link, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
		}
		if resp, body := get(senteLink); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="report-page"`) ||
			strings.Contains(body, `name="reporter"`) || !strings.Contains(body, name(b.Sente)+"さん専用") {
			t.Fatalf("sente's link page: %d", resp.StatusCode)
		}
		if resp, body := post(senteLink, url.Values{"winner": {fmt.Sprint(f.players[0] + 1000)}}); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="report-message"`) {
			t.Fatalf("stranger winner: %d", resp.StatusCode)
		}
		// Sente's phone claims to be gote: the report is sente's, and waits.
		for _, forged := range []url.Values{
			{"reporter": {fmt.Sprint(b.Gote)}, "winner": {fmt.Sprint(b.Gote)}},
			{"reporter": {fmt.Sprint(b.Gote)}, "winner": {fmt.Sprint(b.Gote)}, "player": {fmt.Sprint(b.Gote)}, "token": {toks[b.Root.ID].Gote}},
		} {
			if resp, _ := post(senteLink, forged); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("sente's report: %d", resp.StatusCode)
			}
		}
		reps, err := a.store.DayReportsOfGame(ctx, b.Root.ID)
		if err != nil || len(reps) != 2 || reps[0].ReporterID != b.Sente || reps[1].ReporterID != b.Sente {
			t.Fatalf("forged reporter stored: %+v %v", reps, err)
		}
		if vs, _ := a.store.ResultHistory(ctx, b.Last.ID); len(vs) != 0 {
			t.Fatalf("one phone entered %+v", vs)
		}
		if _, body := get(senteLink); !strings.Contains(body, `data-testid="report-waiting"`) {
			t.Fatal("no waiting notice after one report")
		}
		if resp, _ := post(goteLink, url.Values{"winner": {fmt.Sprint(b.Gote)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("gote's report: %d", resp.StatusCode)
		}
		a.setLang(a.client, "ja")
		_, page := a.get(fmt.Sprintf("/games/%d", b.Last.ID))
		if !strings.Contains(page, "対局者の申告（両対局者）") || strings.Contains(page, "<td>"+f.admin.Login+"<br/>") {
			t.Error("the game's result history does not attribute the result to the players' report")
		}
		for _, link := range []string{senteLink, goteLink} {
			for _, do := range []func() (*http.Response, string){
				func() (*http.Response, string) { return get(link) },
				func() (*http.Response, string) { return post(link, url.Values{"winner": {fmt.Sprint(b.Sente)}}) },
			} {
				resp, body := do()
				if resp.StatusCode != http.StatusGone || !strings.Contains(body, `data-testid="report-refused"`) || strings.Contains(body, name(b.Sente)) || strings.Contains(body, name(b.Gote)) {
					t.Fatalf("%s after the result: %d", link, resp.StatusCode)
				}
			}
		}
		if vs, _ := a.store.ResultHistory(ctx, b.Last.ID); len(vs) != 1 {
			t.Fatalf("versions after the closed link: %d", len(vs))
		}
		// A slip printed before each player had a code: 410, no game.
		old := "old-single-link-slip00"
		sum := sha256.Sum256([]byte(old))
		b2 := v.Rounds[0].Boards[1]
		if err := a.store.SaveDayReportLink(ctx, store.DayReportLink{GameID: b2.Root.ID, TokenHash: hex.EncodeToString(sum[:]), IssuedBy: f.admin.UserID, IssuedAt: a.now}); err != nil {
			t.Fatal(err)
		}
		if resp, body := get("/r/" + old); resp.StatusCode != http.StatusGone || strings.Contains(body, name(b2.Sente)) || !strings.Contains(body, `data-testid="report-refused"`) {
			t.Fatalf("old slip: %d", resp.StatusCode)
		}
		// Guessed and garbage links: 404, the same page, no game.
		for i, bad := range []string{"not-a-token", "AAAAAAAAAAAAAAAAAAAAAA", toks[b.Root.ID].Sente + "x", strings.Repeat("%ff", 40)} {
			resp, body := get("/r/" + bad)
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, `data-testid="report-refused"`) || strings.Contains(body, name(b2.Sente)) || strings.Contains(body, "B級") {
				t.Fatalf("wrong link %d: %d", i, resp.StatusCode)
			}
		}
		for i := 4; i < day.MaxMisses; i++ {
			if resp, _ := a.do(phone, http.MethodGet, "/r/not-a-token", nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("wrong link %d: %d", i, resp.StatusCode)
			}
		}
		if resp, _ := get(senteLink); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("after %d wrong links: %d", day.MaxMisses, resp.StatusCode)
		}
	})
}

// One player's report, confirmed from the director's view after the
// wait: the button is there, a report of another board is 404, the
// confirmation enters the result attributed to the confirming person.
func TestDayReport_DirectorConfirmsALoneReportOverHTTP(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 4, 0)
		ctx := context.Background()
		toks, err := f.d.IssueSlipLinks(ctx, f.admin, f.swiss.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := f.d.ClassView(ctx, f.admin, f.swiss.ID)
		b, b2 := v.Rounds[0].Boards[0], v.Rounds[0].Boards[1]
		for _, r := range []struct {
			tok    string
			winner int64
		}{{toks[b.Root.ID].Gote, b.Gote}, {toks[b2.Root.ID].Sente, b2.Sente}} {
			if _, _, err := f.d.Report(ctx, day.ReportInput{Token: r.tok, IP: "192.0.2.9", Winner: r.winner}); err != nil {
				t.Fatal(err)
			}
		}
		a.now = a.now.Add(11 * time.Minute)
		_, page := a.get(dayroom.DayDirectorURL(f.event.ID))
		if strings.Count(page, `data-testid="director-confirm-report"`) != 2 {
			t.Fatal("the director's view has no confirm button for the lone reports")
		}
		reps, _ := a.store.DayReportsOfGame(ctx, b.Root.ID)
		reps2, _ := a.store.DayReportsOfGame(ctx, b2.Root.ID)
		url1 := fmt.Sprintf("/day/classes/%d/rounds/1/boards/%d/report", f.swiss.ID, b.Board)
		form := func(rid int64) url.Values {
			return url.Values{"report_id": {fmt.Sprint(rid)}, "game_id": {fmt.Sprint(b.Last.ID)}, "version": {fmt.Sprint(b.Version)}}
		}
		if resp, _ := a.postForm(url1, form(reps2[0].ID)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("another board's report: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(url1, form(reps[0].ID)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", resp.StatusCode)
		}
		vs, _ := a.store.ResultHistory(ctx, b.Last.ID)
		if len(vs) != 1 || vs[0].Result != "gote_win" || vs[0].Reason != day.ReasonPlayerReportConfirmed {
			t.Fatalf("stored %+v", vs)
		}
		a.setLang(a.client, "ja")
		if _, page := a.get(fmt.Sprintf("/games/%d", b.Last.ID)); !strings.Contains(page, "（対局者の申告を確認）") {
			t.Error("the history does not say the result confirms a player's report")
		}
	})
}

// A bad wait in the paper settings is a 422 naming the field, and nothing
// is saved; QR slips of a class with QR off are a 422 too.
func TestDayPaper_Settings422(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// A 409 after the players' agreed report names the players' report as its
// author, never the director who issued the slips (entered_by must name a
// user, so it holds the issuer); the API's 409 names no user (issue 21
// item 5).
func TestDayReport_StaleAnswerAttributesThePlayersReport(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedPaperDay(t, a, 4, 0)
		ctx := context.Background()
		toks, err := f.d.IssueSlipLinks(ctx, f.admin, f.swiss.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := f.d.ClassView(ctx, f.admin, f.swiss.ID)
		b := v.Rounds[0].Boards[0]
		for _, tok := range []string{toks[b.Root.ID].Sente, toks[b.Root.ID].Gote} {
			if _, _, err := f.d.Report(ctx, day.ReportInput{Token: tok, IP: "192.0.2.9", Winner: b.Sente}); err != nil {
				t.Fatal(err)
			}
		}
		vs, _ := a.store.ResultHistory(ctx, b.Last.ID)
		if len(vs) != 1 || vs[0].Reason != day.ReasonPlayersReport {
			t.Fatalf("the agreed report stored %+v", vs)
		}
		a.setLang(a.client, "ja")
		path := fmt.Sprintf("/day/classes/%d/rounds/1/boards/%d", f.swiss.ID, b.Board)
		resp, page := a.postForm(path, url.Values{"game_id": {fmt.Sprint(b.Last.ID)}, "version": {"0"}, "result": {"gote_win"}})
		if resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale board result: %d", resp.StatusCode)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		entered := doc.Find(`[data-testid="stale-entered"]`).Text()
		if !strings.Contains(entered, "対局者の申告（両対局者）") || strings.Contains(entered, f.admin.DisplayName) {
			t.Fatalf("the 409 page says the result was entered by %q", entered)
		}
		var st api.APIResultInForce
		if st2 := a.srv.APIInForce(ctx, &office.StaleError{GameID: b.Last.ID, HasInForce: true, InForce: vs[0], Has: true, Latest: vs[0]}); st2 != nil {
			st = *st2
		}
		if st.InForce == nil || st.InForce.EnteredBy != "" || st.InForce.EnteredVia != day.ReasonPlayersReport {
			t.Fatalf("the API's 409 names %+v", st.InForce)
		}
	})
}
