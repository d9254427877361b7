package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/web/api"
)

// Issue 15 part 4: confirming a result through a token takes the web's
// checks — the confirmations scope, the second person where the event
// requires one, the version seen (checked with the game row locked; stale
// or already confirmed is 409), and the token's name on the confirmation
// and in its audit log. Every answer matches the OpenAPI document.
func TestAPIToken_ConfirmTakesScopeSecondPersonVersionAndAudit(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "")
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", g.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		ac := newAPIContract(t, a)
		confirm := makeToken(t, a, g.admin, g.event.ID, "結果確認係", office.ScopeConfirmations)
		results := makeToken(t, a, g.admin, g.event.ID, "会場タブレット", office.ScopeResults)
		path := fmt.Sprintf("/games/%d/confirm", g.game.ID)
		post := func(token, body string, want int, code string) string {
			t.Helper()
			resp, out := apiPost(t, a, path, token, body)
			if resp.StatusCode != want {
				t.Fatalf("POST %s %s: %d, want %d\n%s", path, body, resp.StatusCode, want, out)
			}
			if code != "" && apiCode(t, out) != code {
				t.Fatalf("POST %s %s: code %s, want %s", path, body, apiCode(t, out), code)
			}
			ac.check("post", "/games/{id}/confirm", resp, out)
			return out
		}
		// The arbiter enters version 1 on the web; it waits for a second person.
		if _, err := a.srv.Office.EndGame(ctx, g.arbiter, g.game.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
			t.Fatal(err)
		}
		post("", `{"version":1}`, http.StatusUnauthorized, "unauthorized")
		post(results, `{"version":1}`, http.StatusForbidden, "forbidden")
		post(confirm, `{"version":0}`, http.StatusUnprocessableEntity, "invalid")
		post(confirm, `{"version":"1"}`, http.StatusUnprocessableEntity, "invalid")
		post(confirm, `{"version":7}`, http.StatusConflict, "stale")
		// The administrator who made the token enters version 2: the
		// token is not a second person to the one who made it.
		if _, err := a.srv.Office.EndGame(ctx, g.admin, g.game.ID, office.EndInput{Kind: "resign", By: "sente", Version: 1}); err != nil {
			t.Fatal(err)
		}
		post(confirm, `{"version":1}`, http.StatusConflict, "stale") // no longer the newest
		out := post(confirm, `{"version":2}`, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(out, `"field":"result"`) {
			t.Fatalf("self-confirmation: %s", out)
		}
		// The arbiter enters version 3; ten confirmations race: one wins.
		if _, err := a.srv.Office.EndGame(ctx, g.arbiter, g.game.ID, office.EndInput{Kind: "resign", By: "gote", Version: 2}); err != nil {
			t.Fatal(err)
		}
		// A rulings token is an arbiter as well, but confirms nothing: not
		// through the API (scope) and not in office either.
		rulings := makeToken(t, a, g.admin, g.event.ID, "立会端末", office.ScopeRulings)
		post(rulings, `{"version":3}`, http.StatusForbidden, "forbidden")
		ra, err := a.srv.Office.AuthenticateToken(ctx, rulings)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.srv.Office.ConfirmVersion(ctx, ra, g.game.ID, 3); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("office.ConfirmVersion with a rulings token: %v", err)
		}
		var mu sync.Mutex
		statuses := map[int]int{}
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				resp, body := apiPost(t, a, path, confirm, `{"version":3}`)
				mu.Lock()
				defer mu.Unlock()
				statuses[resp.StatusCode]++
				if resp.StatusCode == http.StatusConflict && apiCode(t, body) != "stale" {
					t.Errorf("loser: %s", body)
				}
			})
		}
		wg.Wait()
		if statuses[200] != 1 || statuses[409] != 9 {
			t.Fatalf("ten confirmations of one version: %v", statuses)
		}
		// The game now has version 3 in force, confirmed through the token.
		_, body := apiGet(t, a, api.APIPrefix+fmt.Sprintf("/games/%d", g.game.ID), nil)
		var gm api.APIGame
		if err := json.Unmarshal([]byte(body), &gm); err != nil {
			t.Fatal(err)
		}
		if gm.Result == nil || gm.Result.Version != 3 || !gm.Result.Confirmed || gm.Result.ConfirmedVia != "結果確認係" || gm.Result.Result != office.ResultSenteWin {
			t.Fatalf("result in force after the confirmation: %+v", gm.Result)
		}
		post(confirm, `{"version":3}`, http.StatusConflict, "stale") // already confirmed
		hist, err := a.store.ResultHistory(ctx, g.game.ID)
		if err != nil || len(hist) != 3 {
			t.Fatalf("history %v %v", hist, err)
		}
		for _, h := range hist {
			if h.Confirmed() != (h.Version == 3) {
				t.Fatalf("version %d confirmed %v", h.Version, h.Confirmed())
			}
		}
		// Audit: one line, action confirm; the game page names the token.
		var tok store.APIToken
		if err := a.store.DB(ctx).Where("name = ?", "結果確認係").Take(&tok).Error; err != nil {
			t.Fatal(err)
		}
		uses, err := a.store.APITokenUses(ctx, tok.ID)
		if err != nil || len(uses) != 1 || uses[0].Action != "confirm" || uses[0].GameID == nil || *uses[0].GameID != g.game.ID {
			t.Fatalf("audit %+v %v", uses, err)
		}
		if _, page := a.get(fmt.Sprintf("/games/%d", g.game.ID)); !strings.Contains(page, "APIトークン「結果確認係」経由") {
			t.Fatal("the game page does not say the confirmation came through the token")
		}
		// A revoked token confirms nothing.
		if err := a.srv.Office.RevokeAPIToken(ctx, g.admin, g.event.ID, tok.ID); err != nil {
			t.Fatal(err)
		}
		post(confirm, `{"version":3}`, http.StatusUnauthorized, "unauthorized")
	})
}
