package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/web/api"
)

// Issue 21 item 10: a write through a token in a draft event answers with
// the same schema as in a published one — the whole game, the version
// just written in it — although the token's GETs of that draft are 404
// (it reads as the public does). A token of another event gets nothing of
// the game. Both databases; every answer validated against the document.
func TestAPIToken_WriteInADraftEventAnswersTheWholeGame(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "")
		o := a.srv.Office
		draft, err := o.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: g.event.OrganiserID, Name: "下書きの棋戦",
			Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		game, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: draft.ID, Label: "下書き1回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		ac := newAPIContract(t, a)
		results := makeToken(t, a, g.admin, draft.ID, "下書き会場", office.ScopeResults)
		confirm := makeToken(t, a, g.admin, draft.ID, "下書き確認係", office.ScopeConfirmations)
		elsewhere := makeToken(t, a, g.admin, g.event.ID, "別会場", office.ScopeResults)
		gamePath := fmt.Sprintf("/games/%d", game.ID)
		answer := func(token, path, body, tmpl string) api.APIGame {
			t.Helper()
			resp, out := apiPost(t, a, path, token, body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("POST %s %s: %d\n%s", path, body, resp.StatusCode, out)
			}
			ac.check("post", tmpl, resp, out)
			var gm api.APIGame
			if err := json.Unmarshal([]byte(out), &gm); err != nil {
				t.Fatal(err)
			}
			return gm
		}
		// The token reads the draft as the public does.
		for _, tok := range []string{"", results} {
			hdr := map[string]string{}
			if tok != "" {
				hdr["Authorization"] = "Bearer " + tok
			}
			if resp, _ := apiGet(t, a, api.APIPrefix+gamePath, hdr); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("GET %s (token %v): %d, want 404", gamePath, tok != "", resp.StatusCode)
			}
		}
		gm := answer(results, gamePath+"/result", `{"version":0,"kind":"resign","by":"gote"}`, "/games/{id}/result")
		if gm.ID != game.ID || gm.EventID != draft.ID || gm.Label != "下書き1回戦" || gm.Version != 1 || len(gm.History) != 1 ||
			gm.Result == nil || gm.Result.Version != 1 || gm.Result.Result != office.ResultSenteWin || gm.Result.EnteredVia != "下書き会場" ||
			gm.Sente == nil || gm.Sente.ID != g.sente.ID {
			t.Fatalf("the answer to a result in a draft event: %+v", gm)
		}
		gm = answer(results, gamePath+"/result", `{"version":1,"kind":"time_forfeit","by":"sente"}`, "/games/{id}/result")
		if gm.Version != 2 || len(gm.History) != 2 || gm.Result == nil || gm.Result.Version != 2 || gm.Result.Result != office.ResultGoteWin {
			t.Fatalf("the answer to version 2: %+v", gm)
		}
		// A confirmation: the event now asks for a second person, and the
		// draft's arbiter enters version 3 on the web.
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", draft.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		if err := o.GrantEventRole(ctx, g.admin, office.RoleGrant{EventID: draft.ID, UserID: g.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
			t.Fatal(err)
		}
		if _, err := o.EndGame(ctx, g.arbiter, game.ID, office.EndInput{Kind: "resign", By: "sente", Version: 2}); err != nil {
			t.Fatal(err)
		}
		gm = answer(confirm, gamePath+"/confirm", `{"version":3}`, "/games/{id}/confirm")
		if gm.Version != 3 || gm.Result.Version != 3 || gm.Result == nil || !gm.Result.Confirmed || gm.Result.ConfirmedVia != "下書き確認係" {
			t.Fatalf("the answer to a confirmation in a draft event: %+v", gm)
		}
		// Another event's token writes nothing and learns nothing.
		resp, out := apiPost(t, a, gamePath+"/result", elsewhere, `{"version":3,"kind":"resign","by":"gote"}`)
		if resp.StatusCode != http.StatusNotFound || apiCode(t, out) != "not_found" {
			t.Fatalf("another event's token on the draft's game: %d %s", resp.StatusCode, out)
		}
		ac.check("post", "/games/{id}/result", resp, out)
		if hist, _ := a.store.ResultHistory(ctx, game.ID); len(hist) != 3 {
			t.Fatalf("%d versions, want 3", len(hist))
		}
		// office.GameWrittenByToken answers only a write token of the game's event.
		for name, tok := range map[string]string{"another event's": elsewhere, "read_drafts": makeToken(t, a, g.admin, draft.ID, "閲覧", office.ScopeReadDrafts)} {
			act, err := o.AuthenticateToken(ctx, tok)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := o.GameWrittenByToken(ctx, act, game.ID); err == nil {
				t.Errorf("GameWrittenByToken answers the %s token", name)
			}
		}
		if _, err := o.GameWrittenByToken(ctx, g.admin, game.ID); err == nil {
			t.Error("GameWrittenByToken answers a session")
		}
	})
}
