package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/web/api"
	"kisen/web/site"
)

// apiPost sends a JSON body with an optional bearer token and no cookies.
func apiPost(t *testing.T, a *testApp, path, token, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, a.ts.URL+api.APIPrefix+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func apiCode(t *testing.T, body string) string {
	t.Helper()
	var e api.APIError
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("not an error body: %s", body)
	}
	return e.Error.Code
}

func makeToken(t *testing.T, a *testApp, by office.Actor, eventID int64, name, scope string) string {
	t.Helper()
	made, err := a.srv.Office.CreateAPIToken(context.Background(), by, office.TokenInput{EventID: eventID, Name: name, Scope: scope,
		ExpiresOn: a.now.In(site.Tokyo).AddDate(0, 0, 7).Format(office.DateLayout)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(made.Secret, "kisen_") || made.Token.SecretHash == made.Secret || made.Token.SecretHash != office.HashTokenSecret(made.Secret) {
		t.Fatalf("secret %q stored as %q", made.Secret, made.Token.SecretHash)
	}
	return made.Secret
}

// Issue 15 part 4: a token writes only in its scope and event, until it
// expires or is revoked; anything else is 401 (no valid token) or 403
// (another scope); a session cookie authenticates nothing in the API. The
// write carries the token's name into the result history, the game page
// and the audit log. Every answer matches the OpenAPI document.
func TestAPIToken_ScopeExpiryRevocationAuditAndContract(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "")
		ac := newAPIContract(t, a)
		results := makeToken(t, a, g.admin, g.event.ID, "会場タブレット", office.ScopeResults)
		records := makeToken(t, a, g.admin, g.event.ID, "棋譜中継", office.ScopeRecords)
		path := fmt.Sprintf("/games/%d/result", g.game.ID)
		body := `{"version":0,"kind":"resign","by":"gote"}`
		post := func(token, b string, want int, code string) string {
			t.Helper()
			resp, out := apiPost(t, a, path, token, b)
			if resp.StatusCode != want {
				t.Fatalf("POST %s with %q: %d, want %d\n%s", path, b, resp.StatusCode, want, out)
			}
			if code != "" && apiCode(t, out) != code {
				t.Fatalf("code %s, want %s", apiCode(t, out), code)
			}
			ac.check("post", "/games/{id}/result", resp, out)
			return out
		}
		post("", body, 401, "unauthorized")
		post("kisen_"+strings.Repeat("A", 43), body, 401, "unauthorized")
		post(records, body, 403, "forbidden")
		// The session of a signed-in administrator is not an API credential.
		a.signIn(a.client, g.admin.UserID)
		req, _ := http.NewRequest(http.MethodPost, a.ts.URL+api.APIPrefix+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if resp, out := a.send(a.client, req); resp.StatusCode != 401 {
			t.Fatalf("POST with a session cookie: %d %s", resp.StatusCode, out)
		}
		// Bad input: 422 naming the field, nothing written.
		out := post(results, `{"version":0,"kind":"nonsense"}`, 422, "invalid")
		if !strings.Contains(out, `"field":"kind"`) {
			t.Fatalf("422 does not name kind: %s", out)
		}
		post(results, `{"version":0,"kind":"resign","by":"gote","colour":"x"}`, 422, "invalid")
		post(results, `{"version":"zero"}`, 422, "invalid")
		req0, _ := http.NewRequest(http.MethodPost, a.ts.URL+api.APIPrefix+path, strings.NewReader("version=0"))
		req0.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req0.Header.Set("Authorization", "Bearer "+results)
		if resp, out := a.send(http.DefaultClient, req0); resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("form body: %d %s", resp.StatusCode, out)
		} else {
			ac.check("post", "/games/{id}/result", resp, out)
		}
		if out := post(results, `{"version":0,"kind":"resign","by":"gote","note":"a\u0000b"}`, 422, "invalid"); !strings.Contains(out, `"field":"note"`) {
			t.Fatalf("NUL in the note: %s", out)
		}
		if resp, out := apiPost(t, a, path, results, `{"version":0,`); resp.StatusCode != 422 || !strings.Contains(out, `"field":"body"`) {
			t.Fatalf("truncated JSON: %d %s", resp.StatusCode, out)
		}
		if hist, _ := a.store.ResultHistory(ctx, g.game.ID); len(hist) != 0 {
			t.Fatalf("refused writes left %d versions", len(hist))
		}
		// The write.
		out = post(results, body, 200, "")
		var gm api.APIGame
		if err := json.Unmarshal([]byte(out), &gm); err != nil {
			t.Fatal(err)
		}
		hist, err := a.store.ResultHistory(ctx, g.game.ID)
		if err != nil || len(hist) != 1 {
			t.Fatalf("history %v %v", hist, err)
		}
		if hist[0].EnteredVia != "会場タブレット" || hist[0].Result != office.ResultSenteWin || hist[0].EnteredBy != g.admin.UserID {
			t.Fatalf("stored version %+v", hist[0])
		}
		if gm.Result == nil || gm.Result.EnteredVia != "会場タブレット" || gm.Version != 1 {
			t.Fatalf("answer %+v", gm)
		}
		// The same version again is stale: 409 with the result in force.
		out = post(results, body, 409, "stale")
		var e api.APIError
		_ = json.Unmarshal([]byte(out), &e)
		if e.Error.Current == nil || e.Error.Current.Version != 1 || e.Error.Current.InForce == nil || e.Error.Current.InForce.Result != office.ResultSenteWin {
			t.Fatalf("409 body %s", out)
		}
		// The audit log and the pages name the token.
		var tokID int64
		rows, err := a.srv.Office.APITokens(ctx, g.admin, g.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Name == "会場タブレット" {
				tokID = r.ID
				if r.Uses != 1 || r.LastUsedAt == nil {
					t.Fatalf("token row %+v", r)
				}
			}
		}
		uses, err := a.srv.Office.APITokenUses(ctx, g.admin, g.event.ID, tokID)
		if err != nil || len(uses) != 1 || uses[0].Action != "result" || uses[0].GameID == nil || *uses[0].GameID != g.game.ID {
			t.Fatalf("audit %+v %v", uses, err)
		}
		if _, page := a.get(fmt.Sprintf("/games/%d", g.game.ID)); !strings.Contains(page, "会場タブレット") {
			t.Fatal("the game page's history does not name the token")
		}
		if _, page := a.get(fmt.Sprintf("/events/%d/tokens", g.event.ID)); !strings.Contains(page, "会場タブレット") || !strings.Contains(page, "棋譜中継") {
			t.Fatal("the token page does not list the tokens")
		}
		// Expiry: a week later the token is refused.
		later := a.now
		a.now = a.now.AddDate(0, 0, 9)
		post(results, `{"version":1,"kind":"resign","by":"sente"}`, 401, "unauthorized")
		a.now = later
		// Revocation: at once.
		if err := a.srv.Office.RevokeAPIToken(ctx, g.admin, g.event.ID, tokID); err != nil {
			t.Fatal(err)
		}
		post(results, `{"version":1,"kind":"resign","by":"sente"}`, 401, "unauthorized")
		if err := a.srv.Office.RevokeAPIToken(ctx, g.admin, g.event.ID, tokID); err == nil {
			t.Fatal("revoked twice")
		}
		// Another event's token is refused here (403 on a public event).
		other, err := a.srv.Office.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: g.event.OrganiserID, Name: "別の棋戦",
			Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		elsewhere := makeToken(t, a, g.admin, other.ID, "別会場", office.ScopeResults)
		post(elsewhere, `{"version":1,"kind":"resign","by":"sente"}`, 403, "forbidden")
		if hist, _ := a.store.ResultHistory(ctx, g.game.ID); len(hist) != 1 {
			t.Fatalf("refused writes left %d versions", len(hist))
		}
		// read_drafts: only that token reads the draft event, in lists too.
		drafts := makeToken(t, a, g.admin, other.ID, "下書き確認", office.ScopeReadDrafts)
		get := func(token string) int {
			req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s%s/events/%d", a.ts.URL, api.APIPrefix, other.ID), nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if got := [3]int{get(""), get(elsewhere), get(drafts)}; got != [3]int{404, 404, 200} {
			t.Fatalf("draft event read by the public, a results token, a read_drafts token: %v", got)
		}
		req, _ = http.NewRequest(http.MethodGet, a.ts.URL+api.APIPrefix+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+drafts)
		resp, out := a.send(http.DefaultClient, req)
		if resp.StatusCode != 200 || !strings.Contains(out, "別の棋戦") {
			t.Fatalf("read_drafts list: %d %s", resp.StatusCode, out)
		}
		ac.check("get", "/events", resp, out)
	})
}

// Issue 11 through the API: twenty programs send a result for the same
// game having seen the same version; exactly one is stored, the others get
// 409 with that result in force, on both databases.
func TestAPIToken_TwentyConcurrentResultsOneWins(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "")
		token := makeToken(t, a, g.admin, g.event.ID, "会場タブレット", office.ScopeResults)
		const n = 20
		var wg sync.WaitGroup
		statuses := make([]int, n)
		bodies := make([]string, n)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				by := "gote"
				if i%2 == 1 {
					by = "sente"
				}
				req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s%s/games/%d/result", a.ts.URL, api.APIPrefix, g.game.ID),
					strings.NewReader(`{"version":0,"kind":"resign","by":"`+by+`"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+token)
				<-start
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				statuses[i], bodies[i] = resp.StatusCode, string(b)
			}()
		}
		close(start)
		wg.Wait()
		hist, err := a.store.ResultHistory(context.Background(), g.game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) != 1 {
			t.Fatalf("%d result versions stored, want 1", len(hist))
		}
		won, stale := 0, 0
		for i, st := range statuses {
			switch st {
			case 200:
				won++
			case 409:
				stale++
				var e api.APIError
				if err := json.Unmarshal([]byte(bodies[i]), &e); err != nil || e.Error.Code != "stale" || e.Error.Current == nil ||
					e.Error.Current.InForce == nil || e.Error.Current.InForce.Result != hist[0].Result {
					t.Errorf("409 body %s (stored %s)", bodies[i], hist[0].Result)
				}
			default:
				t.Errorf("status %d: %s", st, bodies[i])
			}
		}
		if won != 1 || stale != n-1 {
			t.Fatalf("%d won, %d stale", won, stale)
		}
	})
}

// Records and rulings through tokens: moves appended one by one (a stale
// append is 409 with the moves the record has), a whole record, a ruling
// by a rulings token as the event's arbiter (D-K2), each named in the
// audit log; other scopes are 403.
func TestAPIToken_RecordMovesAndRulings(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		g := newGameSetup(t, a, "")
		ac := newAPIContract(t, a)
		records := makeToken(t, a, g.admin, g.event.ID, "棋譜中継", office.ScopeRecords)
		rulings := makeToken(t, a, g.admin, g.event.ID, "立会端末", office.ScopeRulings)
		results := makeToken(t, a, g.admin, g.event.ID, "会場タブレット", office.ScopeResults)
		moves := fmt.Sprintf("/games/%d/moves", g.game.ID)
		for i, mv := range []string{"7g7f", "3c3d", "2g2f"} {
			resp, out := apiPost(t, a, moves, records, fmt.Sprintf(`{"plies":%d,"move":%q}`, i, mv))
			if resp.StatusCode != 200 {
				t.Fatalf("move %d: %d %s", i+1, resp.StatusCode, out)
			}
			ac.check("post", "/games/{id}/moves", resp, out)
		}
		resp, out := apiPost(t, a, moves, records, `{"plies":1,"move":"8c8d"}`)
		if resp.StatusCode != 409 || apiCode(t, out) != "stale_record" || !strings.Contains(out, `"plies":3`) {
			t.Fatalf("stale append: %d %s", resp.StatusCode, out)
		}
		ac.check("post", "/games/{id}/moves", resp, out)
		resp, out = apiPost(t, a, moves, records, `{"plies":3,"move":"5a5a"}`)
		if resp.StatusCode != 422 || !strings.Contains(out, `"field":"move"`) {
			t.Fatalf("illegal move: %d %s", resp.StatusCode, out)
		}
		ac.check("post", "/games/{id}/moves", resp, out)
		rec, has, err := a.store.LatestGameRecord(ctx, g.game.ID)
		if err != nil || !has || rec.Moves != "7g7f 3c3d 2g2f" || rec.EnteredVia != "棋譜中継" || rec.Version != 3 {
			t.Fatalf("record %+v %v", rec, err)
		}
		resp, out = apiPost(t, a, fmt.Sprintf("/games/%d/record", g.game.ID), records, `{"text":"position startpos moves 7g7f 3c3d","format":"usi"}`)
		if resp.StatusCode != 200 || !strings.Contains(out, `"plies":2`) {
			t.Fatalf("whole record: %d %s", resp.StatusCode, out)
		}
		ac.check("post", "/games/{id}/record", resp, out)
		if resp, _ := apiPost(t, a, moves, results, `{"plies":2,"move":"2g2f"}`); resp.StatusCode != 403 {
			t.Fatalf("a results token appended a move: %d", resp.StatusCode)
		}
		rp := fmt.Sprintf("/games/%d/rulings", g.game.ID)
		ruling := `{"version":0,"kind":"caution","player":"sente","reason":"秒読み中の私語"}`
		if resp, _ := apiPost(t, a, rp, results, ruling); resp.StatusCode != 403 {
			t.Fatalf("a results token filed a ruling: %d", resp.StatusCode)
		}
		resp, out = apiPost(t, a, rp, rulings, ruling)
		if resp.StatusCode != 200 {
			t.Fatalf("ruling: %d %s", resp.StatusCode, out)
		}
		ac.check("post", "/games/{id}/rulings", resp, out)
		rs, err := a.store.Rulings(ctx, g.game.ID)
		if err != nil || len(rs) != 1 || rs[0].EnteredVia != "立会端末" {
			t.Fatalf("rulings %+v %v", rs, err)
		}
		var actions []string
		for _, name := range []string{"棋譜中継", "立会端末"} {
			var tok store.APIToken
			if err := a.store.DB(ctx).Where("name = ?", name).Take(&tok).Error; err != nil {
				t.Fatal(err)
			}
			uses, err := a.store.APITokenUses(ctx, tok.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range uses {
				actions = append(actions, u.Action)
			}
		}
		if got := strings.Join(actions, ","); got != "move,move,move,record,ruling" {
			t.Fatalf("audit actions %s", got)
		}
	})
}

// The token page: a director makes a token, sees its secret once (POST →
// 303 → GET, then never again), revokes it; a recorder of the event may
// not see the page; the CSRF check still guards the page's forms.
func TestAPIToken_StaffPageShowsTheSecretOnceAndRevokes(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "")
		a.signIn(a.client, g.admin.UserID)
		base := fmt.Sprintf("/events/%d/tokens", g.event.ID)
		resp, _ := a.do(a.client, http.MethodPost, base, strings.NewReader(url.Values{"name": {"x"}, "scope": {"results"}, "expires_on": {"2026-12-01"}}.Encode()),
			"application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("POST without the CSRF token: %d", resp.StatusCode)
		}
		resp, page := a.postForm(base, url.Values{"name": {""}, "scope": {"results"}, "expires_on": {"2020-01-01"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(page, "e-name") || !strings.Contains(page, "e-expires_on") {
			t.Fatalf("bad form: %d", resp.StatusCode)
		}
		resp, _ = a.postForm(base, url.Values{"name": {"会場タブレット"}, "scope": {"results"}, "expires_on": {"2026-12-01"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d", resp.StatusCode)
		}
		_, page = a.get(base)
		i := strings.Index(page, `data-testid="token-secret"`)
		if i < 0 {
			t.Fatal("the secret is not shown after creation")
		}
		secret := page[strings.LastIndex(page[:i], `value="`)+len(`value="`):]
		secret = secret[:strings.Index(secret, `"`)]
		if !strings.HasPrefix(secret, "kisen_") {
			t.Fatalf("secret %q", secret)
		}
		if _, again := a.get(base); strings.Contains(again, secret) {
			t.Fatal("the secret is shown a second time")
		}
		if resp, _ := apiPost(t, a, fmt.Sprintf("/games/%d/result", g.game.ID), secret, `{"version":0,"kind":"resign","by":"gote"}`); resp.StatusCode != 200 {
			t.Fatalf("the new token: %d", resp.StatusCode)
		}
		var tok store.APIToken
		if err := a.store.DB(context.Background()).Where("event_id = ?", g.event.ID).Take(&tok).Error; err != nil {
			t.Fatal(err)
		}
		if tok.SecretHash == secret || strings.Contains(tok.SecretHash, secret) {
			t.Fatal("the secret is stored")
		}
		if resp, _ := a.postForm(fmt.Sprintf("%s/%d/revoke", base, tok.ID), nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("revoke: %d", resp.StatusCode)
		}
		_, page = a.get(base)
		if !strings.Contains(page, fmt.Sprintf(`data-testid="token-state-%d"`, tok.ID)) || !strings.Contains(page, "無効化済み") {
			t.Fatal("the page does not show the revocation")
		}
		// A recorder of the event: 403.
		rec := a.addUser("kiroku", false)
		if err := a.srv.Office.GrantEventRole(context.Background(), g.admin, office.RoleGrant{EventID: g.event.ID, UserID: rec.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		other := a.newClient()
		a.signIn(other, rec.ID)
		if resp, _ := a.do(other, http.MethodGet, base, nil, ""); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a recorder sees the token page: %d", resp.StatusCode)
		}
	})
}
