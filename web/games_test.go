package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestGamesWeb_PublicPageShowsNoForms(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		resp, body := a.get("/games/" + strconv.FormatInt(g.game.ID, 10))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
		d := doc(t, body)
		if d.Find(`[data-testid="game-sente"]`).Text() != "羽生 善治" || d.Find(`[data-testid="board"]`).Length() != 1 {
			t.Fatal("players and board expected")
		}
		if d.Find(`[data-testid="record-form"], [data-testid="end-form"], [data-testid="ruling-form"]`).Length() != 0 {
			t.Fatal("the public sees no forms")
		}
		if resp, _ := a.postForm("/games/"+strconv.FormatInt(g.game.ID, 10)+"/record", url.Values{"record": {"position startpos moves 7g7f"}}); resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("anonymous save: %d", resp.StatusCode)
		}
		if recs, _ := a.store.GameRecords(t.Context(), g.game.ID); len(recs) != 0 {
			t.Fatal("anonymous save stored a record")
		}
	})
}

func TestGamesWeb_D_X1_RecordFoulIsRejectedWithMessage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		bad := "position startpos moves 7g7f 3c3d 2h2b"
		resp, body := a.postForm(path+"/record", url.Values{"record": {bad}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", resp.StatusCode)
		}
		d := doc(t, body)
		msg := d.Find(`[data-testid="error-accept_foul"]`).Text()
		if !strings.Contains(msg, "3手目") {
			t.Fatalf("message %q", msg)
		}
		if d.Find(`#f-record`).Text() != bad {
			t.Fatal("the input is kept")
		}
		resp, _ = a.postForm(path+"/record", url.Values{"record": {bad}, "accept_foul": {"true"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("explicit save: %d", resp.StatusCode)
		}
		// The htmx preview answers with the findings fragment only.
		req, _ := http.NewRequest(http.MethodPost, a.ts.URL+path+"/record/preview", strings.NewReader(url.Values{"record": {bad}, "_csrf": {a.csrfToken(a.client)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		resp, body = a.send(a.client, req)
		if resp.StatusCode != http.StatusOK || strings.Contains(body, "<html") || !strings.Contains(body, `data-testid="finding-foul"`) {
			t.Fatalf("fragment %d %q", resp.StatusCode, body)
		}
	})
}

func TestGamesWeb_EndGameValidationAndRuling_D_K1(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		// Resignation without saying who resigned.
		resp, body := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}}))
		if resp.StatusCode != http.StatusUnprocessableEntity || doc(t, body).Find(`[data-testid="error-by"]`).Length() != 1 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if hist, _ := a.store.ResultHistory(t.Context(), g.game.ID); len(hist) != 0 {
			t.Fatal("nothing is saved on a validation error")
		}
		resp, _ = a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if r := doc(t, body).Find(`[data-testid="result-v1"] [data-testid="result-text"]`).Text(); r != "先手勝ち" {
			t.Fatalf("result %q", r)
		}
		// A ruling without a reason is refused; with one it is logged.
		resp, body = a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"kind": {"warning"}, "player": {"sente"}}))
		if resp.StatusCode != http.StatusUnprocessableEntity || doc(t, body).Find(`[data-testid="error-reason"]`).Length() != 1 {
			t.Fatalf("ruling without reason: %d", resp.StatusCode)
		}
		// Without confirmation the ruling is previewed in words and nothing
		// is stored; the preview's button records it.
		resp, body = a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"kind": {"warning"}, "player": {"sente"}, "reason": {"反対の手で時計を押した"}}))
		if resp.StatusCode != http.StatusOK || !strings.Contains(testid(t, body, "preview-ruling"), "反対の手で時計を押した") {
			t.Fatalf("ruling preview: %d", resp.StatusCode)
		}
		if rs, _ := a.store.Rulings(t.Context(), g.game.ID); len(rs) != 0 {
			t.Fatalf("the preview recorded %d rulings", len(rs))
		}
		resp, _ = a.postForm(path+"/rulings", confirmOf(t, body))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("ruling: %d", resp.StatusCode)
		}
		rulings, _ := a.store.Rulings(t.Context(), g.game.ID)
		if len(rulings) != 1 {
			t.Fatalf("%+v", rulings)
		}
		resp, _ = a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"kind": {"caution"}, "player": {"sente"}, "reason": {"異議により注意に改める"},
			"supersedes": {strconv.FormatInt(rulings[0].ID, 10)}, "confirm": {"1"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("appeal: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if doc(t, body).Find(`[data-testid="ruling-superseded"]`).Length() != 1 {
			t.Fatal("the superseded ruling is struck through")
		}
		// D-X3: a foul claim after the game appends version 2.
		resp, _ = a.postForm(path+"/claims", a.shown(path, `[data-testid="claim-form"]`, url.Values{"confirm": {"1"}, "foul": {"two_moves"}, "offender": {"sente"}, "found": {"after"}, "claimed_by": {"third_party"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("claim: %d", resp.StatusCode)
		}
		_, body = a.get(path)
		if r := doc(t, body).Find(`[data-testid="result-v2"] [data-testid="result-text"]`).Text(); r != "後手勝ち" {
			t.Fatalf("after the claim %q", r)
		}
	})
}

func TestGamesWeb_CreateGameAndSettingsLock(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.admin.UserID)
		ev := "/events/" + strconv.FormatInt(g.event.ID, 10)
		resp, body := a.postForm(ev+"/games", url.Values{"sente_id": {strconv.FormatInt(g.sente.ID, 10)}, "gote_id": {strconv.FormatInt(g.sente.ID, 10)}, "allowance": {"60"}, "handicap": {"平手"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || doc(t, body).Find(`[data-testid="error-gote"]`).Length() != 1 {
			t.Fatalf("same player twice: %d", resp.StatusCode)
		}
		resp, _ = a.postForm(ev+"/games", url.Values{"label": {"2回戦"}, "sente_id": {strconv.FormatInt(g.gote.ID, 10)}, "gote_id": {strconv.FormatInt(g.sente.ID, 10)}, "allowance": {"60"}, "handicap": {"香落ち"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d", resp.StatusCode)
		}
		_, body = a.get(ev + "/games")
		if doc(t, body).Find(`[data-testid="games-table"] tbody tr`).Length() != 2 {
			t.Fatal("two games listed")
		}
		// Settings: invalid choice re-renders with the field's message.
		form := url.Values{"kind": {"official"}, "jishogi": {"27"}, "jishogi_27_tie": {"gote_wins"}, "declaration": {"federation"},
			"clock_hand": {"warning_then_loss"}, "redo_after": {"0"}, "redo_then": {"redo_again"}, "allowance": {"180"},
			"timing": {"chess_clock"}, "byoyomi": {"60s"}, "redo_top_up": {"true"}, "short_allowance_redo": {"restart"}}
		resp, body = a.postForm(ev+"/settings", form)
		if resp.StatusCode != http.StatusUnprocessableEntity || doc(t, body).Find(`[data-testid="error-jishogi"]`).Length() != 1 {
			t.Fatalf("settings validation: %d", resp.StatusCode)
		}
		form.Set("jishogi", "24")
		form.Set("resignation_priority", "true")
		if resp, _ := a.postForm(ev+"/settings", form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save settings: %d", resp.StatusCode)
		}
		// The first game starts (a result is entered): locked.
		gp := "/games/" + strconv.FormatInt(g.game.ID, 10)
		if resp, _ := a.postForm(gp+"/end", a.shown(gp, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"forfeit"}, "by": {"sente"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		_, body = a.get(ev + "/settings")
		d := doc(t, body)
		if d.Find(`[data-testid="settings-locked"]`).Length() != 1 || d.Find(`[data-testid="unlock-form"]`).Length() != 1 {
			t.Fatal("locked, with the unlock form for administrators")
		}
		if _, ok := d.Find(`[data-testid="setting-resignation_priority"]`).Attr("checked"); !ok {
			t.Fatal("the saved setting shows")
		}
		if resp, _ := a.postForm(ev+"/settings/unlock", url.Values{"reason": {"設定誤り"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("unlock: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(ev+"/settings", form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save after unlock: %d", resp.StatusCode)
		}
		_, body = a.get(ev + "/settings")
		if doc(t, body).Find(`[data-testid="settings-log"] li`).Length() != 3 {
			t.Fatal("log: one unlock and two changes")
		}
	})
}
