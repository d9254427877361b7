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

// Previews before irreversible steps and undo as a new version (issue 13,
// docs/previews-and-undo.md). Every test runs on SQLite and PostgreSQL.

// publishedStage draws and publishes an eight-player stage of f's event
// through the two-step flow and returns its path and id.
func publishedStage(t *testing.T, a *testApp, f *bracketFixture) (string, int64) {
	t.Helper()
	path := f.newStage(t, "一次予選")
	for _, p := range f.players {
		if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add entrant: %d", resp.StatusCode)
		}
	}
	if resp, body := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("draw: %d %s", resp.StatusCode, body)
	}
	sid := stageIDOf(t, path)
	// The publish button answers the preview: the games it will create,
	// and nothing is published yet.
	resp, body := a.postForm(path+"/publish", url.Values{})
	if resp.StatusCode != http.StatusOK || len(testids(t, body, "preview-created")) != 4 || testid(t, body, "preview-public") == "" {
		t.Fatalf("publish preview: %d %v", resp.StatusCode, testids(t, body, "preview-created"))
	}
	if st, _ := a.store.StageByID(context.Background(), sid); st.Status != office.StageDrawn {
		t.Fatalf("the preview published the stage: %s", st.Status)
	}
	if kgs, _ := a.store.KnockoutGamesOfStage(context.Background(), sid); len(kgs) != 0 {
		t.Fatalf("the preview created %d games", len(kgs))
	}
	if resp, body := a.postForm(path+"/publish", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("publish: %d %s", resp.StatusCode, body)
	}
	return path, sid
}

// confirmOf is the preview's confirmation form as the browser would post it.
func confirmOf(t *testing.T, body string) url.Values {
	t.Helper()
	form := doc(t, body).Find(`[data-testid="preview-confirm-form"]`)
	if form.Length() == 0 {
		t.Fatal("no confirmation form on the preview")
	}
	out := url.Values{}
	form.First().Find(`input`).Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		if name != "" && name != "_csrf" {
			out.Add(name, s.AttrOr("value", ""))
		}
	})
	return out
}

// testids lists the text of every element with the test id.
func testids(t *testing.T, body, id string) []string {
	t.Helper()
	var out []string
	doc(t, body).Find(`[data-testid="` + id + `"]`).Each(func(_ int, s *goquery.Selection) { out = append(out, s.Text()) })
	return out
}

// A quick result starts with no winner chosen and is refused without one;
// the first post previews who wins and who goes on, stores nothing, and
// the confirmation stores it once (a second, stale one is a 409).
func TestPreviews_QuickResult_NoDefaultWinner_PreviewThenConfirm(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path, sid := publishedStage(t, a, f)
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		g1, _ := a.store.GameByID(ctx, kgs[0].GameID)
		form := `[data-testid="result-` + kgs[0].BracketGame + `"]`

		_, body := a.get(path)
		sel := doc(t, body).Find(`select[data-testid="winner-` + kgs[0].BracketGame + `"]`)
		if v, _ := sel.Find(`option[selected]`).Attr("value"); v != "" || sel.Find("option").First().AttrOr("value", "x") != "" {
			t.Fatalf("the winner select starts with %q chosen, want no choice", v)
		}
		if _, ok := sel.Attr("required"); !ok {
			t.Fatal("the winner select is not required")
		}
		// No winner: refused, named, nothing stored — with or without confirm.
		for _, extra := range []url.Values{{}, {"confirm": {"1"}}} {
			in := a.shown(path, form, url.Values{"reason": {"resignation"}})
			for k, v := range extra {
				in[k] = v
			}
			resp, body := a.postForm(path+"/result", in)
			if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-winner"), "勝者を選んで") {
				t.Fatalf("no winner: %d %q", resp.StatusCode, testid(t, body, "error-winner"))
			}
		}
		winner := f.players[0]
		for _, p := range f.players {
			if p.ID == *g1.GotePlayerID {
				winner = p
			}
		}
		shown := a.shown(path, form, url.Values{"winner": {strconv.FormatInt(winner.ID, 10)}, "reason": {"resignation"}})
		resp, body := a.postForm(path+"/result", cloneForm(shown))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("preview: %d", resp.StatusCode)
		}
		res := testid(t, body, "preview-result")
		if !strings.Contains(res, winner.Name+" の勝ち") || !strings.Contains(res, "投了") {
			t.Fatalf("preview result %q", res)
		}
		if adv := testid(t, body, "preview-advance"); !strings.Contains(adv, winner.Name) || !strings.Contains(adv, "予選決勝") {
			t.Fatalf("preview advance %q", adv)
		}
		if n := len(versionsOf(t, a, g1.ID)); n != 0 {
			t.Fatalf("the preview stored %d versions", n)
		}
		if resp, _ := a.postForm(path+"/result", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", resp.StatusCode)
		}
		hist := versionsOf(t, a, g1.ID)
		if len(hist) != 1 || hist[0].Result != office.ResultGoteWin {
			t.Fatalf("history %+v", hist)
		}
		// The same confirmation again: the version it carries is stale.
		shown.Set("confirm", "1")
		if resp, body := a.postForm(path+"/result", shown); resp.StatusCode != http.StatusConflict || testid(t, body, "stale-title") == "" {
			t.Fatalf("stale confirmation: %d", resp.StatusCode)
		}
		if n := len(versionsOf(t, a, g1.ID)); n != 1 {
			t.Fatalf("%d versions after a stale confirmation", n)
		}
	})
}

// Ending a game needs 終局の仕方 chosen (it is no longer inferred from
// the record); the record's last word preselects it, and the page says so.
// A post without confirm previews and stores nothing.
func TestPreviews_EndGame_KindRequired_RecordPreselects(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		record := "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n"
		if resp, body := a.postForm(path+"/record", url.Values{"record": {record}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("record: %d %s", resp.StatusCode, testid(t, body, "error-record"))
		}
		_, body := a.get(path)
		d := doc(t, body)
		if v, _ := d.Find(`[data-testid="end-kind"] option[selected]`).Attr("value"); v != "resign" {
			t.Fatalf("preselected kind %q, want resign from the record", v)
		}
		if note := testid(t, body, "end-kind-from-record"); !strings.Contains(note, "投了") || !strings.Contains(note, "棋譜") {
			t.Fatalf("the page does not say the kind came from the record: %q", note)
		}
		// Unchosen: refused in both languages, nothing stored.
		for _, lang := range []string{"ja", "en"} {
			in := a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "by": {"gote"}})
			in.Set("kind", "")
			resp, body := a.postForm(path+"/end?lang="+lang, in)
			want := a.srv.Msgs.For(lang).T("previews.err.kind_required")
			if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-kind") != want {
				t.Fatalf("%s: unchosen kind: %d %q", lang, resp.StatusCode, testid(t, body, "error-kind"))
			}
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 0 {
			t.Fatalf("%d versions stored without a kind", n)
		}
		// Chosen, not confirmed: the preview.
		resp, body := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"kind": {"resign"}, "by": {"sente"}}))
		if resp.StatusCode != http.StatusOK || !strings.Contains(testid(t, body, "preview-result"), g.gote.Name+" の勝ち") {
			t.Fatalf("end preview: %d %q", resp.StatusCode, testid(t, body, "preview-result"))
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 0 {
			t.Fatalf("the preview stored %d versions", n)
		}
		if resp, _ := a.postForm(path+"/end", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", resp.StatusCode)
		}
		if hist := versionsOf(t, a, g.game.ID); len(hist) != 1 || hist[0].Result != office.ResultGoteWin {
			t.Fatalf("history %+v", hist)
		}
	})
}

// An htmx preview that the office refuses answers 422 with the message as
// a fragment (app.js swaps 422/409 in place instead of dropping them).
func TestPreviews_HTMXPreviewErrorIsAFragment(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		_, path := gameRace(t, a)
		form := a.shown(path, `[data-testid="end-form"]`, url.Values{"kind": {"mate"}})
		form.Set("_csrf", a.csrfToken(a.client))
		req, _ := http.NewRequest(http.MethodPost, a.ts.URL+path+"/end/preview", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		resp, body := a.send(a.client, req)
		if resp.StatusCode != http.StatusUnprocessableEntity || strings.Contains(body, "<html") || testid(t, body, "preview-errors") == "" {
			t.Fatalf("htmx preview error: %d %q", resp.StatusCode, body)
		}
		_, js := a.get("/static/app.js")
		if !strings.Contains(js, "htmx:beforeSwap") || !strings.Contains(js, "422") {
			t.Fatal("app.js does not let htmx swap a 422 in")
		}
	})
}

// A foul claim found after the game (D-X3) reverses the result: the
// preview says so before anything is stored.
func TestPreviews_FoulClaim_D_X3_PreviewShowsTheFlip(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		claim := a.shown(path, `[data-testid="claim-form"]`, url.Values{"foul": {"two_moves"}, "offender": {"sente"}, "found": {"after"}, "claimed_by": {"third_party"}})
		resp, body := a.postForm(path+"/claims", claim)
		if m := reRuleID.FindString(body); m != "" {
			t.Errorf("the claim's preview shows developer text %q", m)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("claim preview: %d", resp.StatusCode)
		}
		res := testid(t, body, "preview-result")
		if !strings.Contains(res, g.gote.Name+" の勝ち") || !strings.Contains(res, "これまでの結果") || !strings.Contains(res, g.sente.Name+" の勝ち") {
			t.Fatalf("claim preview %q: want the flip from sente's win to gote's", res)
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 1 {
			t.Fatalf("the claim preview stored: %d versions", n)
		}
		if resp, _ := a.postForm(path+"/claims", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("claim confirm: %d", resp.StatusCode)
		}
		if hist := versionsOf(t, a, g.game.ID); len(hist) != 2 || hist[1].Result != office.ResultGoteWin {
			t.Fatalf("history %+v", hist)
		}
	})
}

// 取り消す appends a version restoring the one before (with the reason),
// keeps every version, is refused on a stale version, and takes a game's
// only result back to no result (pending).
func TestPreviews_Undo_NewVersionRestoresPrevious(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		claim := a.shown(path, `[data-testid="claim-form"]`, url.Values{"confirm": {"1"}, "foul": {"two_moves"}, "offender": {"sente"}, "found": {"after"}, "claimed_by": {"third_party"}})
		if resp, _ := a.postForm(path+"/claims", claim); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("claim: %d", resp.StatusCode)
		}
		before := versionsOf(t, a, g.game.ID)
		// The button without a reason: the preview asks for one.
		resp, body := a.postForm(path+"/undo", a.shown(path, `[data-testid="undo-form"]`, nil))
		if resp.StatusCode != http.StatusOK || doc(t, body).Find(`[data-testid="preview-reason"]`).Length() != 1 {
			t.Fatalf("undo preview: %d", resp.StatusCode)
		}
		if lead := testid(t, body, "preview-lead"); !strings.Contains(lead, "v2") || !strings.Contains(lead, g.sente.Name+" の勝ち") {
			t.Fatalf("undo lead %q", lead)
		}
		if res := testid(t, body, "preview-result"); !strings.Contains(res, g.sente.Name+" の勝ち") {
			t.Fatalf("undo preview result %q", res)
		}
		// Confirmed without a reason: refused, nothing stored.
		in := confirmOf(t, body)
		resp, body = a.postForm(path+"/undo", in)
		if resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-reason") == "" {
			t.Fatalf("undo without a reason: %d", resp.StatusCode)
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 2 {
			t.Fatalf("%d versions after a refused undo", n)
		}
		in.Set("reason", "二手指しの申し立ては記録係の誤認")
		if resp, _ := a.postForm(path+"/undo", in); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("undo: %d", resp.StatusCode)
		}
		hist := versionsOf(t, a, g.game.ID)
		if len(hist) != 3 || hist[2].Result != office.ResultSenteWin || hist[2].Reason != before[0].Reason || hist[2].Note != "二手指しの申し立ては記録係の誤認" {
			t.Fatalf("history after undo %+v", hist)
		}
		for i := range before { // append-only: earlier versions untouched
			if hist[i].ID != before[i].ID || hist[i].Result != before[i].Result || hist[i].Note != before[i].Note {
				t.Fatalf("version %d changed: %+v → %+v", i+1, before[i], hist[i])
			}
		}
		_, body = a.get(path)
		if m := testid(t, body, "result-undo-of"); !strings.Contains(m, "v2") {
			t.Fatalf("the undo version is not marked: %q", m)
		}
		// The same confirmation again carries version 2: stale.
		if resp, _ := a.postForm(path+"/undo", in); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale undo: %d", resp.StatusCode)
		}
		if n := len(versionsOf(t, a, g.game.ID)); n != 3 {
			t.Fatalf("%d versions after a stale undo", n)
		}
	})
}

func TestPreviews_Undo_OnlyResultBackToPending(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g, path := gameRace(t, a)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		in := a.shown(path, `[data-testid="undo-form"]`, url.Values{"confirm": {"1"}, "reason": {"別の対局の結果を入れた"}})
		if resp, _ := a.postForm(path+"/undo", in); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("undo: %d", resp.StatusCode)
		}
		hist := versionsOf(t, a, g.game.ID)
		if len(hist) != 2 || hist[1].Result != office.ResultPending || hist[1].Reason != office.ReasonUndo {
			t.Fatalf("history %+v", hist)
		}
		if _, _, decided, err := a.srv.Office.DecidingGame(context.Background(), g.game.ID); err != nil || decided {
			t.Fatalf("the game still counts as decided (%v)", err)
		}
	})
}

// Undoing a result that a later bracket game was built on goes through
// the correction page (issue 11's gate), like any correction.
func TestPreviews_Undo_LaterGameGoesThroughCorrection(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path, sid := publishedStage(t, a, f)
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		for _, kg := range kgs[:2] { // R1-G1 and R1-G2: R2-G1 gets both players
			gm, _ := a.store.GameByID(ctx, kg.GameID)
			in := a.shown(path, `[data-testid="result-`+kg.BracketGame+`"]`, url.Values{"confirm": {"1"}, "winner": {strconv.FormatInt(*gm.SentePlayerID, 10)}, "reason": {"resignation"}})
			if resp, _ := a.postForm(path+"/result", in); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("result %s: %d", kg.BracketGame, resp.StatusCode)
			}
		}
		if after, _ := a.store.KnockoutGamesOfStage(ctx, sid); len(after) != 5 {
			t.Fatalf("%d bracket games, want round 2's first", len(after))
		}
		gp := "/games/" + strconv.FormatInt(kgs[0].GameID, 10)
		resp, body := a.postForm(gp+"/undo", a.shown(gp, `[data-testid="undo-form"]`, url.Values{"reason": {"勝敗の記入誤り"}}))
		if resp.StatusCode != http.StatusOK || testid(t, body, "correction-title") == "" || len(testids(t, body, "correction-game")) != 1 {
			t.Fatalf("undo of a result a later game depends on: %d, want the correction page", resp.StatusCode)
		}
		if n := len(versionsOf(t, a, kgs[0].GameID)); n != 1 {
			t.Fatalf("%d versions before the correction is confirmed", n)
		}
	})
}

// A published draw goes back to drawn while no game has a result; its
// games are kept and marked void, never deleted; publishing again makes
// fresh games. Once a game has a result it is refused with a message.
func TestPreviews_UnpublishStage_VoidsGamesRefusedAfterResult(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path, sid := publishedStage(t, a, f)
		first, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		resp, body := a.postForm(path+"/unpublish", url.Values{})
		if resp.StatusCode != http.StatusOK || len(testids(t, body, "preview-voided")) != 4 {
			t.Fatalf("unpublish preview: %d %v", resp.StatusCode, testids(t, body, "preview-voided"))
		}
		in := confirmOf(t, body)
		if resp, body := a.postForm(path+"/unpublish", in); resp.StatusCode != http.StatusUnprocessableEntity || testid(t, body, "error-reason") == "" {
			t.Fatalf("unpublish without a reason: %d", resp.StatusCode)
		}
		in.Set("reason", "抽選日を誤って公開した")
		if resp, _ := a.postForm(path+"/unpublish", in); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("unpublish: %d", resp.StatusCode)
		}
		if st, _ := a.store.StageByID(ctx, sid); st.Status != office.StageDrawn {
			t.Fatalf("stage %s after unpublish", st.Status)
		}
		for _, kg := range first {
			if _, err := a.store.GameByID(ctx, kg.GameID); err != nil {
				t.Fatalf("game %d deleted: %v", kg.GameID, err)
			}
			if _, void, _ := a.store.GameVoidOf(ctx, kg.GameID); !void {
				t.Fatalf("game %d not void", kg.GameID)
			}
		}
		if live, _ := a.store.KnockoutGamesOfStage(ctx, sid); len(live) != 0 {
			t.Fatalf("%d live games after unpublish", len(live))
		}
		// Publish again: fresh games.
		if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish again: %d", resp.StatusCode)
		}
		again, _ := a.store.KnockoutGamesOfStage(ctx, sid)
		if len(again) != 4 || again[0].GameID == first[0].GameID {
			t.Fatalf("after publishing again: %+v", again)
		}
		// A result: no unpublishing any more.
		gm, _ := a.store.GameByID(ctx, again[0].GameID)
		res := a.shown(path, `[data-testid="result-`+again[0].BracketGame+`"]`, url.Values{"confirm": {"1"}, "winner": {strconv.FormatInt(*gm.SentePlayerID, 10)}, "reason": {"resignation"}})
		if resp, _ := a.postForm(path+"/result", res); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("result: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if testid(t, body, "unpublish-refused") == "" || doc(t, body).Find(`[data-testid="unpublish-form"]`).Length() != 0 {
			t.Fatal("the stage page offers to unpublish a draw with a result")
		}
		resp, body = a.postForm(path+"/unpublish", url.Values{"confirm": {"1"}, "reason": {"やり直し"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-"), "結果が入った対局") {
			t.Fatalf("unpublish after a result: %d %q", resp.StatusCode, testid(t, body, "error-"))
		}
		if st, _ := a.store.StageByID(ctx, sid); st.Status != office.StagePublished {
			t.Fatalf("a refused unpublish changed the stage: %s", st.Status)
		}
	})
}

// The same for a league schedule.
func TestPreviews_UnpublishSchedule_VoidsGamesRefusedAfterResult(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newLeagueFixture(t, a, 6)
		a.signIn(a.client, f.sched.ID)
		classURL, cid := newPublishedAClass(t, a, f)
		first, _ := a.store.LeagueGames(ctx, cid)
		if len(first) == 0 {
			t.Fatal("no league games")
		}
		resp, body := a.postForm(classURL+"/unpublish", url.Values{"reason": {"対局日の誤り"}})
		if resp.StatusCode != http.StatusOK || len(testids(t, body, "preview-voided")) != len(first) {
			t.Fatalf("unpublish preview: %d, %d voided listed, want %d", resp.StatusCode, len(testids(t, body, "preview-voided")), len(first))
		}
		if resp, _ := a.postForm(classURL+"/unpublish", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("unpublish: %d", resp.StatusCode)
		}
		c, _ := a.store.LeagueClassByID(ctx, cid)
		if c.Status != office.LeagueDrawn {
			t.Fatalf("class %s after unpublish", c.Status)
		}
		if live, _ := a.store.LeagueGames(ctx, cid); len(live) != 0 {
			t.Fatalf("%d live league games after unpublish", len(live))
		}
		for _, lg := range first {
			if _, void, _ := a.store.GameVoidOf(ctx, lg.GameID); !void {
				t.Fatalf("game %d not void", lg.GameID)
			}
		}
		// A stale result button for a void game is refused.
		stale := url.Values{"confirm": {"1"}, "game": {strconv.FormatInt(first[0].GameID, 10)}, "version": {"0"}, "result": {"sente_win"}}
		if resp, _ := a.postForm(classURL+"/result", stale); resp.StatusCode != http.StatusConflict {
			t.Fatalf("result for a void game: %d", resp.StatusCode)
		}
		// The confirmation page lists the games publishing creates.
		_, body = a.get(classURL + "/publish")
		if n := len(testids(t, body, "preview-created")); n != len(first) {
			t.Fatalf("schedule confirmation lists %d games, want %d", n, len(first))
		}
		if resp, _ := a.postForm(classURL+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish again: %d", resp.StatusCode)
		}
		again, _ := a.store.LeagueGames(ctx, cid)
		if len(again) != len(first) {
			t.Fatalf("%d games after publishing again", len(again))
		}
		// League result buttons preview, then store.
		form := url.Values{"game": {strconv.FormatInt(again[0].GameID, 10)}, "version": {"0"}, "result": {"gote_win"}}
		resp, body = a.postForm(classURL+"/result", form)
		if resp.StatusCode != http.StatusOK || !strings.Contains(testid(t, body, "preview-result"), "の勝ち") {
			t.Fatalf("league result preview: %d", resp.StatusCode)
		}
		if n := len(versionsOf(t, a, again[0].GameID)); n != 0 {
			t.Fatalf("the league preview stored %d versions", n)
		}
		if resp, _ := a.postForm(classURL+"/result", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("league result: %d", resp.StatusCode)
		}
		resp, body = a.postForm(classURL+"/unpublish", url.Values{"confirm": {"1"}, "reason": {"やり直し"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(t, body, "error-"), "結果が入った対局") {
			t.Fatalf("unpublish after a result: %d %q", resp.StatusCode, testid(t, body, "error-"))
		}
		if c, _ := a.store.LeagueClassByID(ctx, cid); c.Status != office.LeaguePublished {
			t.Fatalf("a refused unpublish changed the class: %s", c.Status)
		}
	})
}
