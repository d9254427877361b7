package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestStageName_NamedAsItsKindReadsInEnglish (issue 13, item 8): a stage
// without an English name whose name is its kind's Japanese word (二次予選)
// reads as the kind's English words on English pages (the bracket and the
// stage page); a stage with a name of its own keeps it. Japanese pages are
// unchanged (both databases).
func TestStageName_NamedAsItsKindReadsInEnglish(t *testing.T) {
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		var stages []string
		for _, in := range []url.Values{
			{"name": {"二次予選"}, "kind": {"second_preliminary"}, "qualifiers": {"2"}, "round_dates": {"2026-12-10 2027-01-10 2027-02-10"}},
			{"name": {"若手選抜"}, "kind": {"main"}, "round_dates": {"2027-03-10 2027-04-10 2027-05-10"}},
		} {
			resp, body := a.postForm(f.eventPath()+"/stages", in)
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("create stage %s: %d\n%s", in.Get("name"), resp.StatusCode, body)
			}
			stages = append(stages, resp.Header.Get("Location"))
		}
		for _, lang := range Languages {
			a.get("/lang?to=" + lang)
			for _, path := range []string{f.eventPath() + "/brackets", stages[0]} {
				resp, body := a.get(path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: %d", path, resp.StatusCode)
				}
				en, ja := strings.Contains(body, ">Second preliminary<"), strings.Contains(body, ">二次予選<")
				if lang == "en" && (!en || ja) || lang == "ja" && (en || !ja) {
					t.Errorf("%s in %s: English words shown %v, Japanese name shown %v", path, lang, en, ja)
				}
			}
			_, body := a.get(f.eventPath() + "/brackets")
			if !strings.Contains(body, "若手選抜") {
				t.Errorf("%s: a stage's own name is not shown as typed", lang)
			}
		}
	})
}
