package web

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/store"
	"kisen/web/site"
)

var playersAdmin = office.Actor{UserID: 1, Admin: true}

func playersDoc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// playersSeed registers players directly through office (the web forms
// are tested separately).
func playersSeed(t *testing.T, a *testApp, in office.PlayerInput) store.Player {
	t.Helper()
	p, err := a.srv.Office.CreatePlayer(context.Background(), playersAdmin, in)
	if err != nil {
		t.Fatalf("seed %s: %v", in.Name, err)
	}
	return p
}

func playersCount(t *testing.T, a *testApp) int64 {
	t.Helper()
	_, n, err := a.store.SearchPlayers(context.Background(), store.PlayerSearch{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (a *testApp) getHTMX(path string) (*http.Response, string) {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.ts.URL+path, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("HX-Request", "true")
	return a.send(a.client, req)
}

func (a *testApp) signInAdmin() {
	a.t.Helper()
	u := a.addUser("admin", true)
	a.playersSignIn(u.ID)
}

// playersSignIn writes a session like signIn does, but with a deadline on
// the real clock: scs checks a session's deadline against time.Now, which
// may be well past the harness's fixed a.now.
func (a *testApp) playersSignIn(userID int64) {
	a.t.Helper()
	ctx := context.Background()
	token := fmt.Sprintf("players-session-%d-%d", userID, time.Now().UnixNano())
	deadline := time.Now().Add(time.Hour)
	b, err := a.srv.Sessions.Codec.Encode(deadline, map[string]interface{}{site.SessionUserKey: userID})
	if err != nil {
		a.t.Fatal(err)
	}
	if err := store.NewSessionStore(a.store, func() time.Time { return a.now }).CommitCtx(ctx, token, b, deadline); err != nil {
		a.t.Fatal(err)
	}
	u, _ := url.Parse(a.ts.URL)
	a.client.Jar.SetCookies(u, []*http.Cookie{{Name: "kisen_session", Value: token, Path: "/"}})
}

func TestPlayersList_FullPageAndSearchFragment(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		playersSeed(t, a, office.PlayerInput{Name: "羽生 善治", Reading: "はぶ よしはる", Kind: "professional", Rank: "九段"})
		playersSeed(t, a, office.PlayerInput{Name: "藤井 聡太", Reading: "ふじい そうた", Kind: "professional", Rank: "九段"})
		playersSeed(t, a, office.PlayerInput{Name: "abc", Reading: "えーびーしー", Kind: "amateur"})

		resp, body := a.get("/players")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /players: %d", resp.StatusCode)
		}
		doc := playersDoc(t, body)
		if doc.Find("html").Length() != 1 || doc.Find(`[data-testid=player-search]`).Length() != 1 {
			t.Error("the list is not a full page with a search box")
		}
		if n := doc.Find(`[data-testid=player-row]`).Length(); n != 3 {
			t.Errorf("%d rows, want 3", n)
		}
		// Sorted by reading: えーびーしー, はぶ, ふじい.
		var names []string
		doc.Find(`[data-testid=player-link]`).Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
		if strings.Join(names, ",") != "abc,羽生 善治,藤井 聡太" {
			t.Errorf("order %v", names)
		}

		for _, q := range []string{"ﾊﾌﾞ", "はぶ", "ハブ"} {
			resp, body = a.getHTMX("/players?q=" + url.QueryEscape(q))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("htmx search %q: %d", q, resp.StatusCode)
			}
			if strings.Contains(body, "<html") || !strings.Contains(body, `id="player-table"`) {
				t.Errorf("htmx search %q did not return the table fragment alone", q)
			}
			frag := playersDoc(t, body)
			if rows := frag.Find(`[data-testid=player-row]`); rows.Length() != 1 || !strings.Contains(rows.Text(), "羽生") {
				t.Errorf("search %q: %q", q, rows.Text())
			}
		}
		_, body = a.get("/players?q=" + url.QueryEscape("ＡＢＣ"))
		doc = playersDoc(t, body)
		if doc.Find("html").Length() != 1 || doc.Find(`[data-testid=player-row]`).Length() != 1 {
			t.Error("plain GET search is not a full page with one row")
		}
		if v, _ := doc.Find(`[data-testid=player-search]`).Attr("value"); v != "ＡＢＣ" {
			t.Errorf("search box lost the query: %q", v)
		}
	})
}

func TestPlayersList_Paging(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		kana := []rune("あいうえおかきくけこさしすせそたちつてと")
		for i := range office.PlayersPerPage + 5 {
			r := string(kana[i/20]) + string(kana[i%20])
			playersSeed(t, a, office.PlayerInput{Name: fmt.Sprintf("選手%02d", i), Reading: r, Kind: "amateur"})
		}
		_, body := a.get("/players")
		doc := playersDoc(t, body)
		if n := doc.Find(`[data-testid=player-row]`).Length(); n != office.PlayersPerPage {
			t.Errorf("page 1 has %d rows", n)
		}
		next, ok := doc.Find(`[data-testid=page-next]`).Attr("href")
		if !ok {
			t.Fatal("no next-page link")
		}
		_, body = a.get(next)
		doc = playersDoc(t, body)
		if n := doc.Find(`[data-testid=player-row]`).Length(); n != 5 {
			t.Errorf("page 2 has %d rows", n)
		}
		if doc.Find(`[data-testid=page-prev]`).Length() != 1 || doc.Find(`[data-testid=page-next]`).Length() != 0 {
			t.Error("page 2 links are wrong")
		}
	})
}

// The lineage on the page is what D-A1…D-A5 draws are checked against.
func TestPlayersPages_D_A4_CreateThenLineage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		form := url.Values{"name": {"師匠 太郎"}, "reading": {"ししょう たろう"}, "kind": {"professional"}, "rank": {"九段"}, "class": {"A"}, "number": {"100"}}
		resp, _ := a.postForm("/players", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d", resp.StatusCode)
		}
		masterURL := resp.Header.Get("Location")
		if !regexp.MustCompile(`^/players/\d+$`).MatchString(masterURL) {
			t.Fatalf("redirect to %q", masterURL)
		}
		var pupils []string
		for _, n := range []string{"一郎", "次郎"} {
			resp, _ := a.postForm("/players", url.Values{"name": {"弟子 " + n}, "reading": {"でし"}, "kind": {"shoreikai"}, "rank": {"1級"}})
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("create pupil: %d", resp.StatusCode)
			}
			loc := resp.Header.Get("Location")
			pupils = append(pupils, loc)
			resp, body := a.postForm(loc+"/master", url.Values{"master_number": {"100"}, "master_since": {"2020-04-01"}})
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("change master: %d %s", resp.StatusCode, body)
			}
		}
		resp, body := a.get(pupils[0])
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("detail: %d", resp.StatusCode)
		}
		doc := playersDoc(t, body)
		if m := doc.Find(`[data-testid=lineage-master]`); !strings.Contains(m.Text(), "師匠 太郎") || !strings.Contains(m.Text(), "2020-04-01") {
			t.Errorf("lineage master: %q", m.Text())
		}
		if f := doc.Find(`[data-testid=lineage-fellow]`); f.Length() != 1 || !strings.Contains(f.Text(), "弟子 次郎") {
			t.Errorf("fellow disciples: %q", f.Text())
		}
		_, body = a.get(masterURL)
		doc = playersDoc(t, body)
		if d := doc.Find(`[data-testid=lineage-disciple]`); d.Length() != 2 {
			t.Errorf("disciples: %q", d.Text())
		}
		// Before the relation began, the page shows no master.
		_, body = a.get(pupils[0] + "?on=2020-03-31")
		if playersDoc(t, body).Find(`[data-testid=lineage-no-master]`).Length() != 1 {
			t.Error("a master is shown before the period began")
		}
	})
}

func TestPlayersForm_422KeepsInputAndNamesFieldInBothLanguages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, want string
	}{
		{"ja", "ひらがなかカタカナで入力してください"},
		{"en", "Use hiragana or katakana"},
	}
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		for _, c := range cases {
			form := url.Values{"name": {"羽生 善治"}, "reading": {"Habu"}, "kind": {"professional"}, "rank": {"九段"}, "affiliation": {"関東"}}
			resp, body := a.postForm("/players?lang="+c.lang, form)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: status %d", c.lang, resp.StatusCode)
			}
			doc := playersDoc(t, body)
			if got := strings.TrimSpace(doc.Find(`[data-testid=error-reading]`).Text()); got != c.want {
				t.Errorf("%s: reading message %q, want %q", c.lang, got, c.want)
			}
			if doc.Find(`[data-testid=error-name]`).Length() != 0 {
				t.Errorf("%s: a message on a correct field", c.lang)
			}
			for field, want := range map[string]string{"name": "羽生 善治", "reading": "Habu", "affiliation": "関東"} {
				if v, _ := doc.Find(`[data-testid=field-` + field + `]`).Attr("value"); v != want {
					t.Errorf("%s: field %s kept %q, want %q", c.lang, field, v, want)
				}
			}
			if v, _ := doc.Find(`[data-testid=field-kind] option[selected]`).Attr("value"); v != "professional" {
				t.Errorf("%s: kind selection lost: %q", c.lang, v)
			}
		}
		if n := playersCount(t, a); n != 0 {
			t.Errorf("a refused form saved %d players", n)
		}
	})
}

func TestPlayersPages_PublicAndNonAdminCannotEdit(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		p := playersSeed(t, a, office.PlayerInput{Name: "甲", Reading: "こう", Kind: "amateur"})
		id := fmt.Sprint(p.ID)
		for _, path := range []string{"/players/new", "/players/import", "/players/" + id + "/edit", "/players/" + id + "/master"} {
			resp, _ := a.get(path)
			if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
				t.Errorf("public GET %s: %d → %s", path, resp.StatusCode, resp.Header.Get("Location"))
			}
		}
		// The detail page is public but shows no edit links.
		resp, body := a.get("/players/" + id)
		if resp.StatusCode != http.StatusOK || playersDoc(t, body).Find(`[data-testid=player-edit]`).Length() != 0 {
			t.Errorf("public detail: %d", resp.StatusCode)
		}
		u := a.addUser("user", false)
		a.playersSignIn(u.ID)
		for _, path := range []string{"/players", "/players/" + id, "/players/" + id + "/master"} {
			resp, _ := a.postForm(path, url.Values{"name": {"乙"}, "reading": {"おつ"}, "kind": {"amateur"}, "master_name": {"某"}, "master_reading": {"ぼう"}, "master_since": {"2020-01-01"}})
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("non-admin POST %s: %d", path, resp.StatusCode)
			}
		}
		got, _ := a.store.PlayerByID(context.Background(), p.ID)
		if n := playersCount(t, a); n != 1 || got.Name != "甲" {
			t.Errorf("refused requests changed the registry (%d players, name %q)", n, got.Name)
		}
		if resp, _ := a.get("/players/999999"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("missing player: %d", resp.StatusCode)
		}
		if resp, _ := a.get("/players/abc"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("malformed id: %d", resp.StatusCode)
		}
	})
}

func (a *testApp) uploadCSV(path, data string) (*http.Response, string) {
	a.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile("file", "players.csv")
	if err != nil {
		a.t.Fatal(err)
	}
	_, _ = fw.Write([]byte(data))
	_ = w.Close()
	return a.postBody(path, w.FormDataContentType(), &buf)
}

func TestPlayersImport_SuccessAndFailure(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		good := "number,name,reading,kind,rank,master_number,master_since\n" +
			"100,師匠,ししょう,棋士,八段,,\n" +
			"101,弟子,でし,奨励会,三段,100,2019-10-01\n"
		resp, _ := a.uploadCSV("/players/import", good)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good upload: %d", resp.StatusCode)
		}
		resp, body := a.get(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("summary: %d", resp.StatusCode)
		}
		if done := playersDoc(t, body).Find(`[data-testid=import-done]`).Text(); !strings.Contains(done, "2") {
			t.Errorf("summary %q", done)
		}
		before := playersCount(t, a)

		bad := "name,reading,kind,rank,birth_date\n" +
			"良い,よい,amateur,,\n" +
			"悪い,わるい,professional,三段,\n" + // line 3: rank of another kind
			",なし,amateur,,\n" + // line 4: no name
			"良い二,よいに,amateur,,\n" +
			"悪い三,わるいさん,amateur,,2030-01-01\n" // line 6: born in the future
		resp, body = a.uploadCSV("/players/import?lang=en", bad)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("bad upload: %d", resp.StatusCode)
		}
		doc := playersDoc(t, body)
		var got []string
		doc.Find(`[data-testid=import-problem]`).Each(func(_ int, s *goquery.Selection) {
			line, _ := s.Attr("data-line")
			col, _ := s.Attr("data-column")
			got = append(got, line+":"+col)
		})
		if strings.Join(got, " ") != "3:rank 4:name 6:birth_date" {
			t.Errorf("problems %v", got)
		}
		if !strings.Contains(doc.Find(`[data-testid=import-failed]`).Text(), "Nothing was imported") {
			t.Error("failure not explained in English")
		}
		if n := playersCount(t, a); n != before {
			t.Errorf("a refused file changed the registry: %d → %d", before, n)
		}
		resp, body = a.postBody("/players/import", "multipart/form-data; boundary=x", strings.NewReader("--x--\r\n"))
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "import-failed") {
			t.Errorf("upload without a file: %d", resp.StatusCode)
		}
	})
}

func TestPlayersExport_CSVRoundTripsThroughUpload(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		playersSeed(t, a, office.PlayerInput{Name: "羽生 善治", Reading: "はぶ よしはる", Kind: "professional", Rank: "九段", Number: "175"})
		resp, body := a.get("/players/export.csv")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("export: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(body, "羽生 善治") || !strings.HasPrefix(body, "\ufeffid,number,name") {
			t.Errorf("export body %q", body)
		}
		a.signInAdmin()
		resp, _ = a.uploadCSV("/players/import", body)
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "unchanged=1") {
			t.Errorf("re-upload: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

// Office returns message ids as codes; every one of them must exist in
// both languages (the generic i18n test only sees literal T calls).
func TestPlayersI18n_EveryOfficeCodeExists(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../office/player*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("office sources not found: %v", err)
	}
	code := regexp.MustCompile(`"(players\.(?:err|csv)\.[a-z_]+)"`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, match := range code.FindAllStringSubmatch(string(src), -1) {
			found++
			for _, lang := range site.Languages {
				if !m.Has(lang, match[1]) {
					t.Errorf("%s: message %q missing in %s", f, match[1], lang)
				}
			}
		}
	}
	if found < 30 {
		t.Fatalf("found only %d message ids in office; the pattern is broken", found)
	}
}

func TestPlayersMaster_422NamesTheFieldAndKeepsHistory(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		m := playersSeed(t, a, office.PlayerInput{Name: "師匠", Reading: "ししょう", Kind: "professional", Rank: "九段"})
		p := playersSeed(t, a, office.PlayerInput{Name: "弟子", Reading: "でし", Kind: "professional", Rank: "四段"})
		a.signInAdmin()
		path := fmt.Sprintf("/players/%d/master", p.ID)
		resp, _ := a.get(path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("master page: %d", resp.StatusCode)
		}
		resp, _ = a.postForm(path, url.Values{"master_id": {fmt.Sprint(m.ID)}, "master_since": {"2020-04-01"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("change: %d", resp.StatusCode)
		}
		// A change dated before the current period began is refused.
		resp, body := a.postForm(path+"?lang=en", url.Values{"master_name": {"別の 先生"}, "master_reading": {"べつのせんせい"}, "master_since": {"2019-01-01"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("early change: %d", resp.StatusCode)
		}
		doc := playersDoc(t, body)
		form := doc.Find(`[data-testid=master-change-form]`)
		if msg := form.Find(`[data-testid=error-master_since]`).Text(); !strings.Contains(msg, "2020-04-01") {
			t.Errorf("since message %q", msg)
		}
		if v, _ := form.Find(`[data-testid=field-master_name]`).Attr("value"); v != "別の 先生" {
			t.Errorf("teacher name not kept: %q", v)
		}
		// The self-cycle is refused too, in Japanese by default.
		resp, body = a.postForm(fmt.Sprintf("/players/%d/master", m.ID), url.Values{"master_id": {fmt.Sprint(p.ID)}, "master_since": {"2021-01-01"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "循環") {
			t.Errorf("cycle: %d", resp.StatusCode)
		}
		_, body = a.get(fmt.Sprintf("/players/%d", p.ID))
		if h := playersDoc(t, body).Find(`[data-testid=lineage-history]`); h.Length() != 1 {
			t.Errorf("history has %d periods, want 1", h.Length())
		}
	})
}

// The 席次 facts (D-Z1, docs/seating.md) travel through the CSV upload and
// download; a bad title or day refuses the file naming line and column, in
// the reader's language.
func TestPlayersImport_D_Z1_SeatFactsColumns(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.signInAdmin()
		good := "number,name,reading,kind,rank,titles,rank_since,pro_since\n" +
			"175,羽生 善治,はぶ よしはる,棋士,九段,棋聖、王位,1994-04-01,1985-12-18\n"
		resp, _ := a.uploadCSV("/players/import", good)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("good upload: %d", resp.StatusCode)
		}
		_, body := a.get("/players/export.csv")
		if !strings.Contains(body, "titles,rank_since,pro_since\n") ||
			!strings.Contains(body, ",棋聖、王位,1994-04-01,1985-12-18\n") {
			t.Errorf("export lacks the facts:\n%s", body)
		}
		before := playersCount(t, a)

		bad := "number,name,reading,kind,rank,titles,rank_since,pro_since\n" +
			"1,良い,よい,棋士,四段,,,\n" +
			"2,悪い,わるい,棋士,四段,\"王\n座\",,\n" + // line 3: a line break in the titles
			"3,悪い二,わるいに,棋士,四段,,2020-02-30,\n" // line 5: no such day
		for _, c := range []struct{ path, title, date string }{
			{"/players/import", "改行やタブは使えません", "日付は 2026-04-01 の形で入力してください"},
			{"/players/import?lang=en", "Line breaks and tabs are not allowed", "Enter the date as 2026-04-01"},
		} {
			resp, body := a.uploadCSV(c.path, bad)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: bad upload %d", c.path, resp.StatusCode)
			}
			var got []string
			playersDoc(t, body).Find(`[data-testid=import-problem]`).Each(func(_ int, s *goquery.Selection) {
				line, _ := s.Attr("data-line")
				col, _ := s.Attr("data-column")
				got = append(got, line+":"+col+":"+strings.TrimSpace(s.Find("td").Last().Text()))
			})
			want := "3:titles:" + c.title + " | 5:rank_since:" + c.date
			if strings.Join(got, " | ") != want {
				t.Errorf("%s: problems %q, want %q", c.path, strings.Join(got, " | "), want)
			}
		}
		if n := playersCount(t, a); n != before {
			t.Errorf("a refused file changed the registry: %d → %d", before, n)
		}
	})
}
