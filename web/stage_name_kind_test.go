package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/web/site"
)

// TestStageName_NamedAsItsKindReadsInEnglish (issue 13, item 8): a stage
// without an English name whose name is its kind's Japanese word (二次予選)
// reads as the kind's English words on English pages (the bracket and the
// stage page); a stage with a name of its own keeps it. Japanese pages are
// unchanged (both databases).
func TestStageName_NamedAsItsKindReadsInEnglish(t *testing.T) {
	t.Parallel()
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
		for _, lang := range site.Languages {
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

// TestGameLabel_KindPrefixReadsInEnglish (issue 13): a bracket game's label
// is stored with its stage's name (「一次予選 R1-G1」); on English pages the
// kind's Japanese word reads in English and a stage's name its English name,
// on Japanese pages and for any other name the label stays as stored.
func TestGameLabel_KindPrefixReadsInEnglish(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.admin.UserID)
		ev := "/events/" + strconv.FormatInt(g.event.ID, 10)
		// A stage with an English name of its own: its games' labels say it.
		if resp, body := a.postForm(ev+"/stages", url.Values{"name": {"新鋭戦"}, "name_en": {"Rising Stars"}, "kind": {"main"},
			"round_dates": {"2027-03-10 2027-04-10 2027-05-10"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create stage: %d\n%s", resp.StatusCode, body)
		}
		var games []string
		for _, label := range []string{"一次予選 R1-G1", "若手選抜 R1-G2", "新鋭戦 R1-G3"} {
			resp, body := a.postForm(ev+"/games", url.Values{"label": {label}, "sente_id": {strconv.FormatInt(g.sente.ID, 10)}, "gote_id": {strconv.FormatInt(g.gote.ID, 10)}, "allowance": {"60"}, "handicap": {"平手"}})
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("create %s: %d\n%s", label, resp.StatusCode, body)
			}
			games = append(games, resp.Header.Get("Location"))
		}
		want := map[string][3]string{"ja": {"一次予選 R1-G1", "若手選抜 R1-G2", "新鋭戦 R1-G3"}, "en": {"First preliminary R1-G1", "若手選抜 R1-G2", "Rising Stars R1-G3"}}
		for _, lang := range site.Languages {
			a.get("/lang?to=" + lang)
			for i, path := range games {
				_, body := a.get(path)
				if title := doc(t, body).Find(`[data-testid="game-title"]`).Text(); !strings.Contains(title, want[lang][i]) {
					t.Errorf("%s %s: title %q, want %q", lang, path, title, want[lang][i])
				}
			}
			_, body := a.get(ev + "/games")
			list := doc(t, body).Find(`[data-testid="games-table"]`).Text()
			if !strings.Contains(list, want[lang][0]) || !strings.Contains(list, want[lang][2]) || lang == "en" && (strings.Contains(list, "一次予選") || strings.Contains(list, "新鋭戦")) {
				t.Errorf("%s games list: %q", lang, list)
			}
		}
	})
}
