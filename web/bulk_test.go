package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/office/seed"
	"kisen/pairing"
	"kisen/store"
)

// problemLines are the line numbers of the listed paste problems.
func problemLines(t *testing.T, body string) []string {
	t.Helper()
	var out []string
	doc(t, body).Find(`[data-testid="bulk-problem"]`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("data-line", ""))
	})
	return out
}

// bulkStage is an event with one knockout stage in setup and five
// registered players, the administrator signed in.
func bulkStage(t *testing.T, a *testApp) (*seed.Fixture, store.KnockoutStage, []store.Player) {
	t.Helper()
	ctx := context.Background()
	f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
	if err != nil {
		t.Fatal(err)
	}
	e, err := a.srv.Office.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "貼り付け杯", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2026-12-02"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := a.srv.Office.CreateStage(ctx, f.Admin, office.StageInput{EventID: e.ID, Name: "一次予選", Kind: string(pairing.FirstPreliminary)})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := f.Players(ctx, 5, "")
	if err != nil {
		t.Fatal(err)
	}
	a.signIn(a.client, f.Admin.UserID)
	return f, st, ps
}

// TestBulk_EntrantsPasteReportsEveryBadLineAndStoresNothing: a pasted
// entrant list with bad lines answers 422 listing each with its number,
// keeps the text, and stores nobody; once all lines are good every player
// is entered in one go.
func TestBulk_EntrantsPasteReportsEveryBadLineAndStoresNothing(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		_, st, ps := bulkStage(t, a)
		path := fmt.Sprintf("/stages/%d/entrants/bulk", st.ID)
		lines := strings.Join([]string{*ps[0].Number, "存在しない 棋士", ps[1].Name, *ps[0].Number, *ps[2].Number + ",シード", "", *ps[3].Number + ",2"}, "\n")
		resp, body := a.postForm(path, url.Values{"lines": {lines}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad paste: %d", resp.StatusCode)
		}
		if got, want := strings.Join(problemLines(t, body), ","), "2,4,5"; got != want {
			t.Fatalf("problem lines %s, want %s\n%s", got, want, doc(t, body).Find(`[data-testid="bulk-problems"]`).Text())
		}
		text := doc(t, body).Find(`[data-testid="bulk-problems"]`).Text()
		for _, want := range []string{"「存在しない 棋士」", ps[0].Name + " は1行目にもあります", "シード「シード」"} {
			if !strings.Contains(text, want) {
				t.Errorf("problems %q lack %q", text, want)
			}
		}
		if got := doc(t, body).Find(`[data-testid="bulk-entrants-lines"]`).Text(); got != lines {
			t.Errorf("the pasted text is not kept: %q", got)
		}
		if es, _ := a.store.EntrantsOfStage(ctx, st.ID); len(es) != 0 {
			t.Fatalf("a refused paste stored %d entrants", len(es))
		}
		good := strings.Join([]string{*ps[0].Number, ps[1].Name, *ps[3].Number + ",2"}, "\n")
		resp, _ = a.postForm(path, url.Values{"lines": {good}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good paste: %d", resp.StatusCode)
		}
		es, _ := a.store.EntrantsOfStage(ctx, st.ID)
		if len(es) != 3 {
			t.Fatalf("%d entrants after the good paste, want 3", len(es))
		}
		_, body = a.get(resp.Header.Get("Location"))
		if got := testid(t, body, "bulk-added"); !strings.Contains(got, "3人") {
			t.Errorf("added notice %q", got)
		}
		// Pasting an entered player again names them.
		resp, body = a.postForm(path, url.Values{"lines": {*ps[4].Number + "\n" + *ps[0].Number}})
		if resp.StatusCode != http.StatusUnprocessableEntity || strings.Join(problemLines(t, body), ",") != "2" ||
			!strings.Contains(body, ps[0].Name+" はすでにこの段階の出場者です") {
			t.Fatalf("re-entering: %d %v", resp.StatusCode, problemLines(t, body))
		}
	})
}

// TestBulk_PlayersPasteReportsEveryBadLineAndStoresNothing: pasted player
// lines go through the CSV import's checks; every bad line is reported
// with its number in the pasted text (not the CSV's), in words and the
// user's language, and nothing is stored until all are good.
func TestBulk_PlayersPasteReportsEveryBadLineAndStoresNothing(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		a.signIn(a.client, a.addUser("admin", true).ID)
		lines := "B001, 山田 太郎, やまだ たろう, 四段\n\nB002, 佐藤 次郎,, 初段\nB003, 鈴木, すずき, 二段, 余分\nB004\tTab 花子\tたぶ はなこ\t"
		resp, body := a.postForm("/players/paste", url.Values{"lines": {lines}, "kind": {"amateur"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad paste: %d", resp.StatusCode)
		}
		// The paste's own problem (too many fields, line 4) and the
		// import's (no reading, line 3) show at once, by pasted line.
		if got := strings.Join(problemLines(t, body), ","); got != "3,4" {
			t.Fatalf("problem lines %s, want 3,4\n%s", got, doc(t, body).Find(`[data-testid="bulk-problems"]`).Text())
		}
		lines = strings.Replace(lines, ", 余分", "", 1)
		resp, body = a.postForm("/players/paste", url.Values{"lines": {lines}, "kind": {"amateur"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("paste without a reading: %d", resp.StatusCode)
		}
		if got := strings.Join(problemLines(t, body), ","); got != "3" {
			t.Fatalf("problem lines %s, want 3\n%s", got, doc(t, body).Find(`[data-testid="bulk-problems"]`).Text())
		}
		if txt := doc(t, body).Find(`[data-testid="bulk-problems"]`).Text(); !strings.Contains(txt, "よみ") || strings.Contains(txt, "reading") {
			t.Errorf("problem not in Japanese words: %q", txt)
		}
		if all, _ := a.store.AllPlayers(ctx); len(all) != 0 {
			t.Fatalf("a refused paste stored %d players", len(all))
		}
		lines = strings.Replace(lines, "佐藤 次郎,,", "佐藤 次郎, さとう じろう,", 1)
		resp, body = a.postForm("/players/paste", url.Values{"lines": {lines}, "kind": {"amateur"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good paste: %d\n%s", resp.StatusCode, doc(t, body).Find(`[data-testid="bulk-problems"]`).Text())
		}
		all, _ := a.store.AllPlayers(ctx)
		if len(all) != 4 {
			t.Fatalf("%d players stored, want 4", len(all))
		}
		for _, p := range all {
			if p.Kind != store.PlayerAmateur {
				t.Errorf("%s is %s, want amateur", p.Name, p.Kind)
			}
		}
		_, body = a.get(resp.Header.Get("Location"))
		if got := testid(t, body, "paste-done"); !strings.Contains(got, "新規 4人") {
			t.Errorf("done notice %q", got)
		}
	})
}

// TestLeagueClass_MembersReportEveryBadLineWithItsNumber: a 順位戦 class
// member list with several bad lines reports each, with its number.
func TestLeagueClass_MembersReportEveryBadLineWithItsNumber(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := f.Players(ctx, 3, store.PlayerClassC2)
		if err != nil {
			t.Fatal(err)
		}
		e, err := a.srv.Office.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "第90期順位戦", Kind: office.EventJunisenTerm, StartDate: "2026-06-01", EndDate: "2027-03-31"})
		if err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, f.Admin.UserID)
		members := strings.Join([]string{*ps[0].Number, "誰でもない", *ps[1].Number + ",x", *ps[0].Number, *ps[2].Number}, "\n")
		resp, body := a.postForm(fmt.Sprintf("/events/%d/league/classes", e.ID), url.Values{"class": {"C2"}, "members": {members}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad members: %d", resp.StatusCode)
		}
		var msgs []string
		doc(t, body).Find(`[data-testid="league-errors"] li`).Each(func(_ int, s *goquery.Selection) { msgs = append(msgs, s.Text()) })
		if len(msgs) != 3 {
			t.Fatalf("%d messages, want 3 (lines 2, 3, 4): %q", len(msgs), msgs)
		}
		for i, line := range []string{"2行目", "3行目", "4行目"} {
			if !strings.HasPrefix(msgs[i], line) {
				t.Errorf("message %d %q does not start with %s", i, msgs[i], line)
			}
		}
	})
}
