package web

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"kisen/office"
)

// TestBrackets_SeriesAfterMainEvent_FormInBothLanguages: the new-stage form
// of a knockout event offers the 番勝負 only once its last stage is a 本戦
// sending one player on, with its hint in the reader's language; a series
// posted before that is refused next to the kind, in words, in Japanese and
// English, and nothing is saved (issue 24 item 2).
func TestBrackets_SeriesAfterMainEvent_FormInBothLanguages(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		series := url.Values{"name": {"七番勝負"}, "kind": {office.StageSeries}, "best_of": {"7"}, "qualifiers": {"0"}}
		want := map[string]string{
			"ja": "トーナメント戦の番勝負は、次の段階へ進む人数が1人の本戦（挑戦者決定トーナメント）のすぐ後にだけ置けます。",
			"en": "In a knockout event a series can only come right after a main event (the challenger tournament) that sends one player on.",
		}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			_, body := a.get(f.eventPath() + "/brackets")
			if n := doc(t, body).Find(`select[name="kind"] option[value="series"]`).Length(); n != 0 {
				t.Errorf("%s: the form offers a series before any 本戦", lang)
			}
			resp, body := a.postForm(f.eventPath()+"/stages", series)
			if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-kind") != want[lang] {
				t.Errorf("%s: a series as the first stage: %d %q", lang, resp.StatusCode, testid(t, body, "error-kind"))
			}
		}
		if sts, _ := a.store.StagesOfEvent(context.Background(), f.event.ID); len(sts) != 0 {
			t.Fatalf("a refused series was saved: %+v", sts)
		}
		resp, _ := a.postForm(f.eventPath()+"/stages", url.Values{"name": {"挑戦者決定トーナメント"}, "kind": {"main"}, "qualifiers": {"1"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("the 本戦: %d", resp.StatusCode)
		}
		hints := map[string]string{
			"ja": "番勝負を選ぶと、本戦の勝者（挑戦者）がタイトル保持者と戦います。保持者だけを出場者に登録し、局数を入れてください。",
			"en": "A series stage: the winner of the main event (the challenger) plays the title holder. Enter only the holder as an entrant, and the number of games.",
		}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			_, body := a.get(f.eventPath() + "/brackets")
			d := doc(t, body)
			if d.Find(`select[name="kind"] option[value="series"]`).Length() != 1 || d.Find(`input[name="best_of"]`).Length() != 1 || testid(t, body, "series-hint") != hints[lang] {
				t.Errorf("%s: after a 本戦 with one qualifier the form offers no series: hint %q", lang, testid(t, body, "series-hint"))
			}
		}
		resp, _ = a.postForm(f.eventPath()+"/stages", series)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("the series after the 本戦: %d", resp.StatusCode)
		}
		a.get("/lang?to=ja")
		_, body := a.get(f.eventPath() + "/brackets")
		if doc(t, body).Find(`select[name="kind"] option[value="series"]`).Length() != 0 {
			t.Error("a second series is offered")
		}
	})
}
