package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
)

// The claim form says in words whether either player's next game in the
// event has begun, naming it (players, round, start) without ids, and an
// override needs a reason (000 第10条第5項, D-X3).
func TestGamesWeb_ClaimForm_000_10_5_NextGameInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		ctx := t.Context()
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		next, err := a.srv.Office.CreateGame(ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "2回戦", SenteID: &g.gote.ID, GoteID: &g.sente.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		found := func(lang string) string {
			t.Helper()
			resp, body := a.get(path + "?lang=" + lang)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", lang, resp.StatusCode)
			}
			return strings.TrimSpace(doc(t, body).Find(`[data-testid="claim-next-game-found"]`).Text())
		}
		for lang, want := range map[string]string{
			"ja": "この大会で、両対局者のどちらの次の対局もまだ始まっていません。終局後に見つかった反則は、反則した側の負けになります。",
			"en": "Neither player's next game in this event has started. A foul found after the game loses it for the offender.",
		} {
			if got := found(lang); got != want {
				t.Errorf("%s before the next game: %q, want %q", lang, got, want)
			}
		}

		a.now = a.now.Add(time.Hour) // 13:00 in Tokyo
		if _, _, err := a.srv.Office.SaveRecord(ctx, g.admin, next.ID, office.RecordInput{Text: "position startpos moves 7g7f"}); err != nil {
			t.Fatal(err)
		}
		a.now = a.now.Add(10 * time.Minute)
		for lang, want := range map[string]string{
			"ja": "藤井 聡太 対 羽生 善治（2回戦）が 2026-11-21 13:00 に始まっています。終局後に見つかった反則は、終局時の勝敗のままになります。 その対局を開く",
			"en": "藤井 聡太 vs 羽生 善治 (2回戦) started at 2026-11-21 13:00. A foul found after the game now leaves the result at the end standing. open that game",
		} {
			if got := found(lang); got != want {
				t.Errorf("%s after the next game began: %q, want %q", lang, got, want)
			}
		}
		_, body := a.get(path)
		link, _ := doc(t, body).Find(`[data-testid="claim-next-game-found"] a`).Attr("href")
		if link != "/games/"+strconv.FormatInt(next.ID, 10) {
			t.Errorf("the game found links to %q", link)
		}

		// An override without a reason: 422 next to the field, nothing written.
		claim := url.Values{"confirm": {"1"}, "foul": {"two_moves"}, "offender": {"sente"}, "found": {"after"}, "claimed_by": {"opponent"}, "next_game": {"not_started"}}
		resp, body := a.postForm(path+"/claims", a.shown(path, `[data-testid="claim-form"]`, claim))
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("override without a reason: %d", resp.StatusCode)
		}
		if msg := strings.TrimSpace(doc(t, body).Find(`[data-testid="error-next_game_reason"]`).Text()); msg != "判定を変更するときは、理由を入力してください。" {
			t.Fatalf("message next to the reason: %q", msg)
		}
		if hist, _ := a.store.ResultHistory(ctx, g.game.ID); len(hist) != 1 {
			t.Fatalf("a refused override wrote: %d versions", len(hist))
		}

		// With a reason: the foul counts (sente loses) and the history
		// says it was overridden, why, and what was found.
		claim.Set("next_game_reason", "次の対局の前に申し出があった")
		if resp, _ := a.postForm(path+"/claims", a.shown(path, `[data-testid="claim-form"]`, claim)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("override with a reason: %d", resp.StatusCode)
		}
		for lang, want := range map[string][2]string{
			"ja": {"後手勝ち", "次の対局: 始まっていなかった（立会人が変更。理由: 次の対局の前に申し出があった） 判定では 2026-11-21 13:00 に始まっていた。 その対局を開く"},
			"en": {"Gote wins", "Next game: had not started (arbiter's override; reason: 次の対局の前に申し出があった) Found: it started at 2026-11-21 13:00. open that game"},
		} {
			_, body := a.get(path + "?lang=" + lang)
			d := doc(t, body)
			if r := d.Find(`[data-testid="result-v2"] [data-testid="result-text"]`).Text(); r != want[0] {
				t.Errorf("%s: result %q, want %q", lang, r, want[0])
			}
			if got := strings.Join(strings.Fields(d.Find(`[data-testid="result-v2"] [data-testid="result-next-game"]`).Text()), " "); got != strings.Join(strings.Fields(want[1]), " ") {
				t.Errorf("%s: log %q, want %q", lang, got, want[1])
			}
			if d.Find(`[data-testid="result-v1"] [data-testid="result-next-game"]`).Length() != 0 {
				t.Errorf("%s: the ending's version has a next-game line", lang)
			}
		}
	})
}
