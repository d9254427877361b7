package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
)

// TestFutureResult_AsksOnceBeforeAResultForAGameScheduledLater: a quick
// result for a game scheduled after today is asked about once. Through the
// form, the preview is the question: it names the date, stores nothing, and
// its confirmation carries the answer, so the result is stored without a
// second question. A post that skips the preview (confirm=1, no answer)
// gets the question itself: 409 with the date and both players, nothing
// stored, and a form that sends the same values with the answer (the day
// itself is TestFutureResult_AskedOnlyFor… in office).
func TestFutureResult_AsksOnceBeforeAResultForAGameScheduledLater(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		a.srv.AskFuture = true
		_, path, _ := drawnPickStage(t, a) // round 1 on 2026-12-10; today is 2026-11-21
		if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish: %d", resp.StatusCode)
		}
		sid := stageIDOf(t, path)
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		// Through the preview: asked once.
		g2, _ := a.store.GameByID(ctx, kgs[1].GameID)
		form := `[data-testid="result-` + kgs[1].BracketGame + `"]`
		resp, body := a.postForm(path+"/result", a.shown(path, form, url.Values{"winner": {strconv.FormatInt(*g2.SentePlayerID, 10)}, "reason": {"resignation"}}))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "2026-12-10") {
			t.Fatalf("preview of a result for 2026-12-10: %d, date shown %v", resp.StatusCode, strings.Contains(body, "2026-12-10"))
		}
		if _, ok, _ := a.store.EffectiveResult(ctx, g2.ID); ok {
			t.Fatal("the preview stored a result")
		}
		if resp, _ := a.postForm(path+"/result", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirming the preview: %d, want the result stored without a second question", resp.StatusCode)
		}
		if _, ok, _ := a.store.EffectiveResult(ctx, g2.ID); !ok {
			t.Fatal("the confirmed preview stored no result")
		}
		// Skipping the preview: the question itself.
		g1, _ := a.store.GameByID(ctx, kgs[0].GameID)
		form = `[data-testid="result-` + kgs[0].BracketGame + `"]`
		winner := strconv.FormatInt(*g1.GotePlayerID, 10)
		resp, body = a.postForm(path+"/result", a.shown(path, form, url.Values{"winner": {winner}, "reason": {"resignation"}, "confirm": {"1"}}))
		if resp.StatusCode != http.StatusConflict {
			t.Fatalf("result for 2026-12-10 on 2026-11-21: %d", resp.StatusCode)
		}
		q := testid(t, body, "future-question")
		_, names, _ := a.store.NamesOf(ctx, nil, []int64{*g1.SentePlayerID, *g1.GotePlayerID})
		for _, want := range []string{"2026-12-10", names[*g1.SentePlayerID].Name, names[*g1.GotePlayerID].Name, "それでも結果を入力しますか"} {
			if !strings.Contains(q, want) {
				t.Errorf("question %q lacks %q", q, want)
			}
		}
		if _, ok, _ := a.store.EffectiveResult(ctx, g1.ID); ok {
			t.Fatal("a result was stored before the answer")
		}
		// The offered form posts the same values with the answer.
		again := url.Values{}
		d := doc(t, body)
		d.Find(`[data-testid="future-form"] input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
			again.Add(s.AttrOr("name", ""), s.AttrOr("value", ""))
		})
		action, _ := d.Find(`[data-testid="future-form"]`).Attr("action")
		if again.Get("future_ok") != "1" || again.Get("winner") != winner || action != path+"/result" {
			t.Fatalf("offered form %s %v", action, again)
		}
		if resp, _ := a.postForm(action, again); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("answered: %d", resp.StatusCode)
		}
		if eff, ok, _ := a.store.EffectiveResult(ctx, g1.ID); !ok || eff.Result != office.ResultGoteWin {
			t.Fatalf("stored %+v %v", eff, ok)
		}
		// In English the question is English.
		a.get("/lang?to=en&back=/")
		form = `[data-testid="result-` + kgs[2].BracketGame + `"]`
		g3, _ := a.store.GameByID(ctx, kgs[2].GameID)
		_, body = a.postForm(path+"/result", a.shown(path, form, url.Values{"winner": {strconv.FormatInt(*g3.SentePlayerID, 10)}, "reason": {"resignation"}, "confirm": {"1"}}))
		if q := testid(t, body, "future-question"); !strings.Contains(q, "is scheduled for 2026-12-10") || !strings.Contains(q, "Enter the result anyway") {
			t.Errorf("English question %q", q)
		}
	})
}
