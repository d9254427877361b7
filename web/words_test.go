package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/pairing"
	"kisen/web/site"
)

// A record that cannot be read is said in the reader's language, with its
// line number, and no English detail on a Japanese page (issue 13).
func TestWords_RecordErrorInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		bad := "手合割：平手\nこれは棋譜ではありません\n"
		for _, lang := range site.Languages {
			a.setLang(a.client, lang)
			resp, body := a.postForm(path+"/record", url.Values{"record": {bad}, "format": {"kif"}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: unreadable record answered %d", lang, resp.StatusCode)
			}
			msg := doc(t, body).Find(`[data-testid="error-record"]`).Text()
			want := map[string]string{"ja": "棋譜の2行目は", "en": "Line 2 of the record"}[lang]
			if !strings.Contains(msg, want) || strings.Contains(msg, "neither") || (lang == "en" && hasJapanese(msg)) {
				t.Errorf("%s: message %q", lang, msg)
			}
		}
	})
}

// A 9 MB upload from a signed-in user gets the 413 page in their language
// with their navigation, not raw message ids and 「ログイン」.
func TestWords_UploadTooLargeIsLocalisedWithTheUsersNavigation(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		admin := a.addUser("admin", true)
		a.signIn(a.client, admin.ID)
		for _, lang := range site.Languages {
			a.setLang(a.client, lang)
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			part, _ := w.CreateFormFile("file", "players.csv")
			part.Write(bytes.Repeat([]byte("x"), 9<<20))
			w.Close()
			resp, body := a.postBodyAs(a.client, "/players/import", w.FormDataContentType(), &buf)
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("%s: %d", lang, resp.StatusCode)
			}
			d := doc(t, body)
			if l, _ := d.Find("html").Attr("lang"); l != lang {
				t.Errorf("%s: html lang=%q", lang, l)
			}
			if d.Find(`[data-testid="nav-user"]`).Length() != 1 || d.Find(`[data-testid="nav-login"]`).Length() != 0 {
				t.Errorf("%s: the signed-in user's navigation is missing", lang)
			}
			msg := d.Find(`[data-testid="error-status"]`).Text()
			if want := a.srv.Msgs.For(lang).T("error.too_large"); msg != want {
				t.Errorf("%s: message %q, want %q", lang, msg, want)
			}
			for _, key := range []string{"app.name", "nav.players", "error.invalid", "app.footer"} {
				if strings.Contains(body, ">"+key+"<") {
					t.Errorf("%s: raw key %s on the page", lang, key)
				}
			}
		}
	})
}

// D-A1: a broken master–student rule names both players and cites the
// article in words, in both languages; the rule id never shows.
func TestWords_D_A1_ViolationNamesThePlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"1": "師匠 一郎", "2": "弟子 二郎"}
	v := pairing.Violation{Rule: pairing.RuleMasterStudent, Slots: []int{4, 5}, Players: []string{"1", "2"}, Message: "1 and 2 are master and student"}
	want := map[string]string{
		"ja": "師匠 一郎 と 弟子 二郎 は師弟のため、一次予選1回戦では当たりません（公式棋戦規約 第8条A-1）",
		"en": "師匠 一郎 and 弟子 二郎 are master and student, so they do not meet in round 1 of the first preliminary (Official games rules art. 8 A-1)",
	}
	for _, lang := range site.Languages {
		c := site.WithLocalizer(ctx, m.For(lang))
		if got := site.KnockoutViolation(c, v, func(id string) string { return names[id] }); got != want[lang] {
			t.Errorf("%s: %q, want %q", lang, got, want[lang])
		}
	}
}

// Seed citations read as documents and articles, never as file prefixes.
func TestWords_ArticleCitationsInWords(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, ja, en string }{
		{"000 第8条第4項", "対局規則 第8条第4項", "Playing rules art. 8(4)"},
		{"001 第6条1", "対局規定 第6条第1項", "Official game regulations art. 6(1)"},
		{"001 第4条A2", "対局規定 第4条A-2", "Official game regulations art. 4 A-2"},
		{"000 第10条第1項十二", "対局規則 第10条第1項12号", "Playing rules art. 10(1) item 12"},
		{"004", "ルールに関するFAQ", "Rules FAQ"},
		{"D-R2", "", ""},
	}
	for _, tc := range cases {
		for lang, want := range map[string]string{"ja": tc.ja, "en": tc.en} {
			if got := site.ArticleText(site.WithLocalizer(context.Background(), m.For(lang)), tc.in); got != want {
				t.Errorf("%s %q: %q, want %q", lang, tc.in, got, want)
			}
		}
	}
}
