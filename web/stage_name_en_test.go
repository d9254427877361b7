package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestStageNameEn_ShownOnEnglishPages: a stage created with an optional
// English name shows it on the English bracket and stage pages and its
// Japanese name on the Japanese ones; a control character in it is refused
// by name (both databases).
func TestStageNameEn_ShownOnEnglishPages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		resp, body := a.postForm(f.eventPath()+"/stages", url.Values{"name": {"一次予選"}, "name_en": {"First preliminary A"}, "kind": {"first_preliminary"},
			"qualifiers": {"2"}, "round_dates": {"2026-12-10 2027-01-10 2027-02-10"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create stage: %d\n%s", resp.StatusCode, body)
		}
		stage := resp.Header.Get("Location")
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			for _, path := range []string{f.eventPath() + "/brackets", stage} {
				_, body := a.get(path)
				hasEn, hasJa := strings.Contains(body, "First preliminary A"), strings.Contains(body, ">一次予選<")
				if lang == "en" && !hasEn || lang == "ja" && (hasEn || !hasJa) {
					t.Errorf("%s in %s: English name shown %v, Japanese name shown %v", path, lang, hasEn, hasJa)
				}
			}
		}
		resp, _ = a.postForm(f.eventPath()+"/stages", url.Values{"name": {"二次予選"}, "name_en": {"bad\x01name"}, "kind": {"first_preliminary"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("a control character in the English name: %d, want 422", resp.StatusCode)
		}
	})
}
