package web

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/web/site"
)

// seedEntryDay is a published day with one class (any rank) and its entry
// form open (or closed).
func seedEntryDay(t *testing.T, a *testApp, open bool) dayFixture {
	t.Helper()
	f := seedDay(t, a, 0, 0)
	ctx := context.Background()
	if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	if err := f.d.SetEntrySettings(ctx, f.admin, day.EntrySettingsInput{EventID: f.event.ID, Open: open}); err != nil {
		t.Fatal(err)
	}
	return f
}

func countRows(t *testing.T, a *testApp) [3]int64 {
	t.Helper()
	var out [3]int64
	for i, m := range []any{&store.DayEntry{}, &store.Player{}, &store.DayEntrant{}} {
		if err := a.store.DB(context.Background()).Model(m).Count(&out[i]).Error; err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var reEntryLink = regexp.MustCompile(`^/day/entries/([A-Za-z0-9_-]{22})\?new=1$`)

// The public form: a bad field is 422 naming it, with nothing stored; a
// good entry goes to its private link, which shows the state and
// withdraws only once the box is ticked; a wrong link is 404.
func TestDayEntryWeb_FormLinkAndWithdraw(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedEntryDay(t, a, true)
		form := fmt.Sprintf("/events/%d/day/entry", f.event.ID)
		if resp, body := a.get(form); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="entry-form"`) {
			t.Fatalf("form: %d", resp.StatusCode)
		}
		before := countRows(t, a)
		// Without the CSRF token the post is refused before it is read.
		noToken := url.Values{"name": {"青木 健一"}, "reading": {"あおき"}, "rank": {"初段"}, "contact": {"x"}}
		if resp, _ := a.do(a.newClient(), http.MethodPost, form, strings.NewReader(noToken.Encode()), "application/x-www-form-urlencoded"); resp.StatusCode != http.StatusForbidden || countRows(t, a) != before {
			t.Fatalf("post without the CSRF token: %d", resp.StatusCode)
		}
		resp, body := a.postForm(form, url.Values{"name": {"青木 健一"}, "reading": {"青木"}, "rank": {"初段"}, "contact": {""}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-reading"`) || !strings.Contains(body, `data-testid="error-contact"`) ||
			!strings.Contains(body, "ひらがなかカタカナで入力してください") || !strings.Contains(body, `value="青木 健一"`) {
			t.Fatalf("bad fields: %d\n%s", resp.StatusCode, body)
		}
		if after := countRows(t, a); after != before {
			t.Fatalf("a refused form wrote rows: %v → %v", before, after)
		}
		resp, _ = a.postForm(form, url.Values{"name": {"青木 健一"}, "reading": {"アオキ ケンイチ"}, "rank": {"初段"}, "club": {"駅前道場"}, "contact": {"aoki@example.jp"}})
		m := reEntryLink.FindStringSubmatch(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || m == nil {
			t.Fatalf("good entry: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		resp, body = a.get(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-status="pending"`) || !strings.Contains(body, `data-testid="entry-link"`) ||
			resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("link page: %d %q\n%s", resp.StatusCode, resp.Header.Get("Cache-Control"), body)
		}
		if resp, _ := a.get("/day/entries/" + strings.Repeat("A", 22)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("wrong link: %d", resp.StatusCode)
		}
		link := "/day/entries/" + m[1]
		if resp, body := a.postForm(link+"/withdraw", url.Values{"version": {"1"}}); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="entry-message"`) {
			t.Fatalf("withdraw unconfirmed: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(link+"/withdraw", url.Values{"version": {"1"}, "confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("withdraw: %d", resp.StatusCode)
		}
		if _, body := a.get(link); !strings.Contains(body, `data-status="withdrawn"`) || strings.Contains(body, `data-testid="entry-withdraw-form"`) {
			t.Fatalf("after withdrawal:\n%s", body)
		}
	})
}

// A closed form says so (and refuses a post, 403, storing nothing) and the
// public day page does not link it; a draft day's form is not found for
// the public; once open the day page links it; the eleventh entry from one
// address at once is 429.
func TestDayEntryWeb_ClosedDraftAndRateLimit(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedEntryDay(t, a, false)
		form := fmt.Sprintf("/events/%d/day/entry", f.event.ID)
		if resp, body := a.get(form); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="entry-closed"`) || strings.Contains(body, `data-testid="entry-form"`) {
			t.Fatalf("closed form: %d", resp.StatusCode)
		}
		before := countRows(t, a)
		good := url.Values{"name": {"青木"}, "reading": {"あおき"}, "rank": {"初段"}, "contact": {"x"}}
		if resp, _ := a.postForm(form, good); resp.StatusCode != http.StatusForbidden || countRows(t, a) != before {
			t.Fatalf("post to a closed form: %d", resp.StatusCode)
		}
		ctx := context.Background()
		draft, err := f.d.CreateDay(ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "下書き大会", StartDate: "2026-12-01", EndDate: "2026-12-01"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.d.SetEntrySettings(ctx, f.admin, day.EntrySettingsInput{EventID: draft.ID, Open: true}); err != nil {
			t.Fatal(err)
		}
		if resp, _ := a.get(fmt.Sprintf("/events/%d/day/entry", draft.ID)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a draft day's form: %d", resp.StatusCode)
		}
		dayPage := fmt.Sprintf("/events/%d/day", f.event.ID)
		_, body := a.get(dayPage)
		if strings.Contains(body, `data-testid="day-entry-link"`) {
			t.Fatal("the day page links a closed form")
		}
		if err := f.d.SetEntrySettings(ctx, f.admin, day.EntrySettingsInput{EventID: f.event.ID, Open: true, Version: 1}); err != nil {
			t.Fatal(err)
		}
		if resp, body := a.get(dayPage); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="day-entry-link"`) {
			t.Fatalf("the day page does not link the open form: %d", resp.StatusCode)
		}
		bad := url.Values{"name": {""}, "reading": {"あおき"}, "rank": {"初段"}, "contact": {"x"}}
		for i := 1; i < day.EntryRateBurst; i++ {
			if resp, _ := a.postForm(form, bad); resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("post %d: %d", i, resp.StatusCode)
			}
		}
		if resp, _ := a.postForm(form, good); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("past the burst: %d", resp.StatusCode)
		}
	})
}

// The director's list needs the director: the public is sent to sign in,
// a recorder gets 403. The director approves (a stale version is 409),
// merges with the suggested registered player, and enters a paste after
// its preview (高橋悠斗 without the space and わたなべ あおい as a reading
// are matched).
func TestDayEntryWeb_DirectorListAndBulk(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedEntryDay(t, a, true)
		ctx := context.Background()
		list := fmt.Sprintf("/events/%d/day/entries", f.event.ID)
		for _, p := range []struct{ name, reading string }{{"高橋 悠斗", "たかはし ゆうと"}, {"渡辺 葵", "わたなべあおい"}} {
			pl := store.Player{Name: p.name, Reading: p.reading, Kind: store.PlayerAmateur, Rank: "初段", CreatedAt: a.now, UpdatedAt: a.now}
			if err := a.store.CreatePlayer(ctx, &pl); err != nil {
				t.Fatal(err)
			}
		}
		e1, _, err := f.d.SubmitEntry(ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: "青木", Reading: "あおき", Rank: "初段", Contact: "x"}, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		e2, _, err := f.d.SubmitEntry(ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: "高橋悠斗", Reading: "タカハシユウト", Rank: "初段", Contact: "y"}, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if resp, _ := a.get(list); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("public list: %d", resp.StatusCode)
		}
		u := a.addUser("kiroku-entries", false)
		if err := a.srv.Office.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: u.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, u.ID)
		if resp, _ := a.get(list); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("recorder's list: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d/approve", list, e1.ID), url.Values{"version": {"1"}}); resp.StatusCode != http.StatusForbidden || countRows(t, a)[2] != 0 {
			t.Fatalf("recorder approves: %d", resp.StatusCode)
		}
		a.signIn(a.client, f.admin.UserID)
		resp, body := a.get(list)
		if resp.StatusCode != http.StatusOK || strings.Count(body, `data-testid="entry-row"`) != 2 || strings.Count(body, `data-testid="entry-merge"`) != 1 {
			t.Fatalf("director's list: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d/approve", list, e1.ID), url.Values{"version": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("approve: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d/approve", list, e1.ID), url.Values{"version": {"1"}}); resp.StatusCode != http.StatusConflict {
			t.Fatalf("approve again at the old version: %d", resp.StatusCode)
		}
		if resp, body := a.postForm(fmt.Sprintf("%s/%d/refuse", list, e2.ID), url.Values{"version": {"1"}}); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "お断りする理由") {
			t.Fatalf("refuse without a reason: %d", resp.StatusCode)
		}
		resp, body = a.postForm(fmt.Sprintf("%s/%d/edit", list, e2.ID), url.Values{"version": {"1"}, "name": {"高橋悠斗"}, "reading": {"高橋"}, "rank": {"初段"}, "contact": {"y"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-reading"`) || !strings.Contains(body, `<details open`) {
			t.Fatalf("edit with a kanji reading: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d/edit", list, e2.ID), url.Values{"version": {"1"}, "name": {"高橋悠斗"}, "reading": {"たかはしゆうと"}, "rank": {"二段"}, "contact": {"y"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("edit: %d", resp.StatusCode)
		}
		if resp, body := a.postForm(fmt.Sprintf("%s/%d/refuse", list, e2.ID), url.Values{"version": {"2"}, "reason": {"重複のため"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("refuse: %d\n%s", resp.StatusCode, body)
		}

		paste := "高橋悠斗\tたかはしゆうと\n渡辺葵,わたなべ あおい\n新人,しんじん,5級\n無名\n"
		resp, body = a.postForm(list+"/bulk", url.Values{"lines": {paste}})
		if resp.StatusCode != http.StatusOK || strings.Count(body, `data-action="match"`) != 2 || strings.Count(body, `data-action="create"`) != 1 ||
			strings.Count(body, `data-action="refuse"`) != 1 || countRows(t, a)[2] != 1 {
			t.Fatalf("preview: %d\n%s", resp.StatusCode, body)
		}
		fp := regexp.MustCompile(`name="fingerprint" value="([0-9a-f]+)"`).FindStringSubmatch(body)
		if fp == nil {
			t.Fatal("no fingerprint in the preview")
		}
		if resp, _ := a.postForm(list+"/bulk/confirm", url.Values{"lines": {paste + "追加,ついか,初段\n"}, "fingerprint": {fp[1]}}); resp.StatusCode != http.StatusConflict || countRows(t, a)[2] != 1 {
			t.Fatalf("confirm of another paste: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(list+"/bulk/confirm", url.Values{"lines": {paste}, "fingerprint": {fp[1]}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", resp.StatusCode)
		}
		if n := countRows(t, a)[2]; n != 4 {
			t.Fatalf("%d entrants after the paste, want 4", n)
		}

		// A CSV file: previewed, then confirmed from the rows the page carries.
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", "entries.csv")
		fw.Write([]byte("氏名,よみ,段級位\r\n木村,きむら,二段\r\n"))
		mw.Close()
		resp, body = a.postBody(list+"/bulk", mw.FormDataContentType(), &buf)
		fp = regexp.MustCompile(`name="fingerprint" value="([0-9a-f]+)"`).FindStringSubmatch(body)
		if resp.StatusCode != http.StatusOK || fp == nil || strings.Count(body, `data-action="create"`) != 1 {
			t.Fatalf("csv preview: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ := a.postForm(list+"/bulk/confirm", url.Values{"csv": {"氏名,よみ,段級位\r\n木村,きむら,二段\r\n"}, "fingerprint": {fp[1]}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("csv confirm: %d", resp.StatusCode)
		}
	})
}

// The director's list costs the same statements at ten times the entries.
func TestQueryCount_DayEntriesListCostsTheSameAtTenTimes(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		small := seedEntryDay(t, a, true)
		large := seedDay(t, a, 1, 0) // a second day with its own organiser
		ctx := context.Background()
		if err := large.d.SetEntrySettings(ctx, large.admin, day.EntrySettingsInput{EventID: large.event.ID, Open: true}); err != nil {
			t.Fatal(err)
		}
		if err := a.srv.Office.SetEventStatus(ctx, large.admin, large.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 30; i++ {
			f := small
			if i >= 3 {
				f = large
			}
			in := day.EntryFormInput{EventID: f.event.ID, Name: fmt.Sprintf("申込%02d", i), Reading: "もうしこみ" + strings.Repeat("あ", i+1), Rank: "初段", Contact: "x"}
			if _, _, err := f.d.SubmitEntry(ctx, office.Actor{}, in, fmt.Sprintf("192.0.2.%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		a.signIn(a.client, small.admin.UserID)
		ns := statementsOf(t, a, a.store, fmt.Sprintf("/events/%d/day/entries", small.event.ID))
		nl := statementsOf(t, a, a.store, fmt.Sprintf("/events/%d/day/entries", large.event.ID))
		t.Logf("entries list: small %d large %d", ns, nl)
		if ns != nl || nl > 30 {
			t.Errorf("entries list: %d statements for 3 entries, %d for 27", ns, nl)
		}
	})
}

// The entry pages (the form, its link, the director's list with a preview)
// show no developer text, as the public and the director, in both
// languages.
func TestCrawl_DayEntryPagesHaveNoDeveloperText(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedEntryDay(t, a, true)
		ctx := context.Background()
		_, tok, err := f.d.SubmitEntry(ctx, office.Actor{}, day.EntryFormInput{EventID: f.event.ID, Name: "青木 健一", Reading: "あおき けんいち", Rank: "初段", Club: "駅前道場", Contact: "aoki@example.jp"}, "192.0.2.9")
		if err != nil {
			t.Fatal(err)
		}
		data := []string{f.event.Name, "県連0", "A級", "青木 健一", "あおき けんいち", "駅前道場", "aoki@example.jp", "初段"}
		chk := newPageChecker(a.srv.Msgs, data, nil)
		start := []string{fmt.Sprintf("/events/%d/day/entry", f.event.ID), "/day/entries/" + tok, fmt.Sprintf("/events/%d/day/entries", f.event.ID)}
		var all []offence
		for _, id := range []crawlIdentity{{"public", 0}, {"director", f.admin.UserID}} {
			for _, lang := range site.Languages {
				c := a.newClient()
				a.setLang(c, lang)
				if id.userID != 0 {
					a.signIn(c, id.userID)
				}
				offs, _ := crawl(t, a, c, lang, chk, start)
				for i := range offs {
					offs[i].URL = id.name + "/" + lang + " " + offs[i].URL
				}
				all = append(all, offs...)
			}
		}
		report(t, all)
	})
}
