package web

import (
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"kisen/office"
	"kisen/web/site"
)

// englishWord finds English left in a Japanese message: a run of three or
// more Latin letters, once rule ids (D-J3) and record formats are removed.
var (
	englishWord = regexp.MustCompile(`[A-Za-z]{3,}`)
	allowedLatn = regexp.MustCompile(`D-[A-Z]+\d*|KIF|KI2|CSA|USI`)
)

func englishIn(s string) string {
	return englishWord.FindString(allowedLatn.ReplaceAllString(s, ""))
}

// Every message a room error can be shown with exists in both languages,
// and the Japanese one has no English in it.
func TestGamesWeb_AdjudicationErrorMessagesLocalised(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	ids := office.FactsMessageIDs()
	if len(ids) < 20 {
		t.Fatalf("only %d message ids: the room's error kinds are not enumerated", len(ids))
	}
	for _, id := range ids {
		ja, en := m.For("ja").T(id), m.For("en").T(id)
		if !m.Has("ja", id) || !m.Has("en", id) || ja == "" || en == "" || ja == en {
			t.Errorf("%s: ja %q en %q", id, ja, en)
		}
		if w := englishIn(ja); w != "" {
			t.Errorf("%s: Japanese message %q contains English %q", id, ja, w)
		}
	}
}

// The end form's preview shows the room's errors next to the field, in
// the reader's language.
func TestGamesWeb_EndPreviewErrorsInBothLanguages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		form  url.Values
		field string
		id    string
	}{
		{"mate without the mated side", url.Values{"kind": {"mate"}}, "by", "adjudication.err.end_by_mated"},
		{"points that do not add up", url.Values{"kind": {"jishogi_agreement"}, "points_sente": {"30"}, "points_gote": {"30"}}, "points_sente", "adjudication.err.points"},
		{"both absent on a resignation", url.Values{"kind": {"resign"}, "by": {"sente"}, "both_absent": {"true"}}, "by", "adjudication.err.end_both_absent"},
		{"sennichite with no record", url.Values{"kind": {"sennichite"}, "by": {"gote"}}, "by", "adjudication.err.end_by_none"},
	}
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10) + "/end/preview"
		for _, tc := range cases {
			for _, lang := range []string{"ja", "en"} {
				resp, body := a.postForm(path+"?lang="+lang, maps.Clone(tc.form)) // postForm adds this browser's token
				if resp.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%s (%s): status %d", tc.name, lang, resp.StatusCode)
				}
				got := doc(t, body).Find(`[data-testid="error-` + tc.field + `"]`).Text()
				if want := a.srv.Msgs.For(lang).T(tc.id); got != want {
					t.Errorf("%s (%s): message %q, want %q", tc.name, lang, got, want)
				}
				if lang == "ja" {
					if w := englishIn(got); w != "" {
						t.Errorf("%s: English %q in the Japanese message %q", tc.name, w, got)
					}
				}
			}
		}
	})
}
