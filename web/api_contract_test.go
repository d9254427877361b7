package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/office/seed"
	"kisen/web/api"
)

// apiContract validates answers against the served OpenAPI document: the
// schema of (path template, method, status) is looked up in the document
// itself, so a handler that drifts from its documented type fails here.
type apiContract struct {
	t        *testing.T
	doc      map[string]any
	compiler *jsonschema.Compiler
	seen     map[string]bool // "get /events/{id}" exercised with 200
}

const apiDocURL = "https://kisen.invalid/openapi.json"

func newAPIContract(t *testing.T, a *testApp) *apiContract {
	t.Helper()
	resp, body := a.get(api.APIPrefix + "/openapi.json")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("openapi.json: %d", resp.StatusCode)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi version %v", doc["openapi"])
	}
	raw, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(apiDocURL, raw); err != nil {
		t.Fatal(err)
	}
	return &apiContract{t: t, doc: doc, compiler: c, seen: map[string]bool{}}
}

// schemaRef is the component a documented answer refers to.
func (ac *apiContract) schemaRef(method, tmpl string, status int) string {
	ac.t.Helper()
	dig := func(v any, keys ...string) any {
		for _, k := range keys {
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		}
		return v
	}
	ref, _ := dig(ac.doc, "paths", tmpl, method, "responses", fmt.Sprint(status), "content", "application/json", "schema", "$ref").(string)
	if ref == "" {
		ac.t.Fatalf("%s %s: the document has no JSON answer %d", method, tmpl, status)
	}
	return ref
}

// check validates one answer.
func (ac *apiContract) check(method, tmpl string, resp *http.Response, body string) {
	ac.t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		ac.t.Errorf("%s %s: Content-Type %q", method, tmpl, ct)
	}
	ref := ac.schemaRef(method, tmpl, resp.StatusCode)
	sch, err := ac.compiler.Compile(apiDocURL + ref)
	if err != nil {
		ac.t.Fatalf("compile %s: %v", ref, err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		ac.t.Fatalf("%s %s: not JSON: %v\n%s", method, tmpl, err, body)
	}
	if err := sch.Validate(inst); err != nil {
		ac.t.Errorf("%s %s (%d) does not match %s: %v\n%.600s", method, tmpl, resp.StatusCode, ref, err, body)
	}
	if resp.StatusCode < 300 {
		ac.seen[method+" "+tmpl] = true
	}
}

// apiGet fetches path with headers and returns the answer.
func apiGet(t *testing.T, a *testApp, path string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req) // no cookies: the API's usual client
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// Issue 15 part 3: every endpoint's answers, pages and errors included,
// validate against /api/v1/openapi.json, on both databases.
func TestAPI_EveryAnswerValidatesAgainstTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, err := seed.New(ctx, a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		q := seedQueryFixture(t, f, 1)
		if _, err := ratings.New(a.srv.Office).RefreshRatingsIfStale(ctx); err != nil {
			t.Fatal(err)
		}
		draft, err := a.srv.Office.CreateEvent(ctx, f.Admin, office.EventInput{OrganiserID: f.Org.ID, Name: "下書きの棋戦", Kind: office.EventKnockout,
			StartDate: "2026-12-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		gs, err := a.store.GamesOfEvent(ctx, q.eventKO)
		if err != nil || len(gs) == 0 {
			t.Fatalf("games of the knockout: %v", err)
		}
		ac := newAPIContract(t, a)
		// The oracle can fail: a body with a wrong type, a missing field or
		// an undocumented one is refused.
		sch, err := ac.compiler.Compile(apiDocURL + ac.schemaRef("get", "/events/{id}", 200))
		if err != nil {
			t.Fatal(err)
		}
		good, _ := json.Marshal(api.APIEventOf(draft))
		for _, bad := range []string{`{"id":"1"}`, strings.Replace(string(good), `"venue"`, `"venue_x"`, 1),
			strings.Replace(string(good), `"status":"draft"`, `"status":"secret"`, 1)} {
			inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
			if sch.Validate(inst) == nil {
				t.Fatalf("the schema accepts %s", bad)
			}
		}
		if inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(good))); sch.Validate(inst) != nil {
			t.Fatalf("the schema refuses %s: %v", good, sch.Validate(inst))
		}
		// An amateur day (issue 23 §4): a Swiss class, round 2 in play.
		dayF := seedDay(t, a, 9, 2)
		if err := a.srv.Office.SetEventStatus(ctx, dayF.admin, dayF.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		// A team event (issue 25 item 5): round 1 played, round 2 hidden.
		tf, trid, tids := seedTeamRound(t, a, "契約団体", 4)
		playTeamRound(t, a, tf, trid, tids, func(table, board int) bool { return board != 2 })
		type call struct {
			tmpl, path string
			status     int
		}
		calls := []call{
			{"/organisers", "/organisers", 200},
			{"/organisers/{id}", fmt.Sprintf("/organisers/%d", f.Org.ID), 200},
			{"/events", "/events", 200},
			{"/events", "/events?limit=1", 200},
			{"/events", fmt.Sprintf("/events?organiser_id=%d", f.Org.ID), 200},
			{"/events/{id}", fmt.Sprintf("/events/%d", q.eventKO), 200},
			{"/events/{id}/stages", fmt.Sprintf("/events/%d/stages", q.eventKO), 200},
			{"/events/{id}/league", fmt.Sprintf("/events/%d/league", q.eventLeague), 200},
			{"/league-classes/{id}", fmt.Sprintf("/league-classes/%d", q.class), 200},
			{"/events/{id}/games", fmt.Sprintf("/events/%d/games", q.eventKO), 200},
			{"/events/{id}/games", fmt.Sprintf("/events/%d/games?limit=3", q.eventLeague), 200},
			{"/games/{id}", fmt.Sprintf("/games/%d", gs[0].ID), 200},
			{"/players", "/players", 200},
			{"/players", "/players?q=%E6%A3%8B%E5%A3%AB&limit=2", 200},
			{"/players/{id}", fmt.Sprintf("/players/%d", q.player), 200},
			{"/ratings", "/ratings?limit=5", 200},
			{"/events/{id}", fmt.Sprintf("/events/%d", dayF.event.ID), 200},
			{"/events/{id}/day", fmt.Sprintf("/events/%d/day", dayF.event.ID), 200},
			{"/day-classes/{id}/rounds", fmt.Sprintf("/day-classes/%d/rounds", dayF.class.ID), 200},
			{"/day-classes/{id}/rounds/{n}", fmt.Sprintf("/day-classes/%d/rounds/1", dayF.class.ID), 200},
			{"/day-classes/{id}/rounds/{n}", fmt.Sprintf("/day-classes/%d/rounds/2", dayF.class.ID), 200},
			{"/day-classes/{id}/standings", fmt.Sprintf("/day-classes/%d/standings", dayF.class.ID), 200},
			{"/day-classes/{id}/rounds/{n}", fmt.Sprintf("/day-classes/%d/rounds/3", dayF.class.ID), 404},
			{"/events/{id}/day", fmt.Sprintf("/events/%d/day", q.eventKO), 404},
			{"/events/{id}/teams", fmt.Sprintf("/events/%d/teams", tf.event.ID), 200},
			{"/team-rounds/{id}/orders", fmt.Sprintf("/team-rounds/%d/orders", trid), 200},
			{"/team-rounds/{id}/matches", fmt.Sprintf("/team-rounds/%d/matches", trid), 200},
			{"/events/{id}/teams/standings", fmt.Sprintf("/events/%d/teams/standings", tf.event.ID), 200},
			{"/events/{id}/teams", fmt.Sprintf("/events/%d/teams", q.eventKO), 404},
			// Errors have their documented shape too.
			{"/events/{id}", fmt.Sprintf("/events/%d", draft.ID), 404},
			{"/events/{id}/games", fmt.Sprintf("/events/%d/games", draft.ID), 404},
			{"/games/{id}", "/games/999999", 404},
			{"/events", "/events?limit=0", 422},
			{"/players", "/players?cursor=@@", 400},
			{"/organisers/{id}", "/organisers/999999", 404},
		}
		for _, c := range calls {
			resp, body := apiGet(t, a, api.APIPrefix+c.path, nil)
			if resp.StatusCode != c.status {
				t.Errorf("GET %s: %d, want %d\n%.400s", c.path, resp.StatusCode, c.status, body)
				continue
			}
			ac.check("get", c.tmpl, resp, body)
		}
		// Every documented read was exercised with a 200.
		for p, item := range ac.doc["paths"].(map[string]any) {
			if _, ok := item.(map[string]any)["get"]; ok && p != "/openapi.json" && !ac.seen["get "+p] {
				t.Errorf("GET %s is documented but not exercised by the contract test", p)
			}
		}
		// Following next_cursor walks the whole list once, in order.
		var ids []int64
		path := fmt.Sprintf("%s/events/%d/games?limit=7", api.APIPrefix, q.eventLeague)
		for range 100 {
			resp, body := apiGet(t, a, path, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("page %s: %d", path, resp.StatusCode)
			}
			ac.check("get", "/events/{id}/games", resp, body)
			var pg api.APIGameList
			if err := json.Unmarshal([]byte(body), &pg); err != nil {
				t.Fatal(err)
			}
			if len(pg.Items) > 7 {
				t.Fatalf("page of %d items for limit 7", len(pg.Items))
			}
			for _, g := range pg.Items {
				ids = append(ids, g.ID)
			}
			if pg.NextCursor == nil {
				break
			}
			path = fmt.Sprintf("%s/events/%d/games?limit=7&cursor=%s", api.APIPrefix, q.eventLeague, *pg.NextCursor)
		}
		all, err := a.store.GamesOfEvent(ctx, q.eventLeague)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != len(all) {
			t.Fatalf("paging returned %d games, the event has %d", len(ids), len(all))
		}
		for i := range ids {
			if ids[i] != all[i].ID {
				t.Fatalf("paging order: item %d is game %d, want %d", i, ids[i], all[i].ID)
			}
		}
		// The draft event is in no list.
		_, body := apiGet(t, a, api.APIPrefix+"/events?limit=200", nil)
		if strings.Contains(body, "下書きの棋戦") {
			t.Errorf("the public event list shows a draft")
		}
	})
}

// The API's conditional GET: an event resource answers 304 to its ETag
// until a result changes the event; a body-tagged list likewise.
func TestAPI_ETagAnswers304UntilTheEventChanges(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "")
		path := fmt.Sprintf("%s/games/%d", api.APIPrefix, g.game.ID)
		resp, _ := apiGet(t, a, path, nil)
		etag := resp.Header.Get("ETag")
		if resp.StatusCode != 200 || etag == "" {
			t.Fatalf("first GET: %d, ETag %q", resp.StatusCode, etag)
		}
		if resp, _ := apiGet(t, a, path, map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusNotModified {
			t.Fatalf("same ETag: %d, want 304", resp.StatusCode)
		}
		if _, err := a.srv.Office.EndGame(context.Background(), g.arbiter, g.game.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
			t.Fatal(err)
		}
		resp, body := apiGet(t, a, path, map[string]string{"If-None-Match": etag})
		if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
			t.Fatalf("after a result: %d, ETag %q (was %q)", resp.StatusCode, resp.Header.Get("ETag"), etag)
		}
		var gm api.APIGame
		if err := json.Unmarshal([]byte(body), &gm); err != nil {
			t.Fatal(err)
		}
		if gm.Result == nil || gm.Result.Result != office.ResultSenteWin || gm.Version != 1 || len(gm.History) != 1 {
			t.Fatalf("game after gote resigned: %+v", gm)
		}
		// A list tagged by its bytes.
		resp, _ = apiGet(t, a, api.APIPrefix+"/players", nil)
		if et := resp.Header.Get("ETag"); et == "" {
			t.Fatal("players list without ETag")
		} else if resp, _ := apiGet(t, a, api.APIPrefix+"/players", map[string]string{"If-None-Match": et}); resp.StatusCode != http.StatusNotModified {
			t.Fatalf("players list with its ETag: %d", resp.StatusCode)
		}
	})
}

// CORS for any origin without credentials, the preflight, and errors in
// the Accept-Language's language (Japanese by default).
func TestAPI_CORSPreflightAndLanguageOfErrors(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	req, _ := http.NewRequest(http.MethodOptions, a.ts.URL+api.APIPrefix+"/games/1/result", nil)
	req.Header.Set("Origin", "https://relay.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatal("credentials allowed")
	}
	resp, body := apiGet(t, a, api.APIPrefix+"/events/424242", map[string]string{"Origin": "https://relay.example"})
	var e api.APIError
	if err := json.Unmarshal([]byte(body), &e); err != nil || resp.StatusCode != 404 || e.Error.Code != "not_found" {
		t.Fatalf("404: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatal("no CORS header on an error")
	}
	ja := e.Error.Message
	_, body = apiGet(t, a, api.APIPrefix+"/events/424242", map[string]string{"Accept-Language": "en-GB,en;q=0.9,ja;q=0.5"})
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatal(err)
	}
	if ja == e.Error.Message || !isJapanese(ja) || isJapanese(e.Error.Message) {
		t.Fatalf("messages: ja %q en %q", ja, e.Error.Message)
	}
	if got := api.APILanguage("fr, en;q=0.3"); got != "en" {
		t.Errorf("fr, en;q=0.3 → %s", got)
	}
	if got := api.APILanguage("en;q=0.3, ja;q=0.8"); got != "ja" {
		t.Errorf("en;q=0.3, ja;q=0.8 → %s", got)
	}
	// HEAD answers like GET without a body.
	req, _ = http.NewRequest(http.MethodHead, a.ts.URL+api.APIPrefix+"/events", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 || resp.Header.Get("ETag") == "" {
		t.Fatalf("HEAD /events: %v %v", resp, err)
	}
	// An unknown route under the API is JSON too.
	resp, body = apiGet(t, a, api.APIPrefix+"/nothing-here", nil)
	if resp.StatusCode != 404 || !strings.Contains(body, `"code":"not_found"`) {
		t.Fatalf("unknown route: %d %s", resp.StatusCode, body)
	}
}

func isJapanese(s string) bool {
	for _, r := range s {
		if r >= 0x3040 && r <= 0x30ff || r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// The rate limit per client address: beyond the burst, 429 with
// Retry-After and the error body; another address is not affected.
func TestAPI_RateLimitAnswers429WithRetryAfter(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	a.srv.API.Limiter = api.NewAPILimiter(1, 3)
	got := []int{}
	var last *http.Response
	var lastBody string
	for range 5 {
		last, lastBody = apiGet(t, a, api.APIPrefix+"/events", nil)
		got = append(got, last.StatusCode)
	}
	if fmt.Sprint(got) != "[200 200 200 429 429]" {
		t.Fatalf("statuses %v", got)
	}
	if last.Header.Get("Retry-After") != "1" || !strings.Contains(lastBody, `"code":"rate_limited"`) || !strings.Contains(lastBody, `"retry_after":1`) {
		t.Fatalf("429: Retry-After %q body %s", last.Header.Get("Retry-After"), lastBody)
	}
	if ok, _ := a.srv.API.Limiter.Allow(context.Background(), "192.0.2.99", a.now); !ok {
		t.Fatal("another address was limited")
	}
	// Pages are not limited.
	if resp, _ := a.get("/events"); resp.StatusCode != 200 {
		t.Fatalf("/events page: %d", resp.StatusCode)
	}
}

// The served document is well formed: every path parameter is declared,
// operation ids are unique, every schema it refers to compiles (a $ref
// that resolves nowhere fails), and every route of the API is in it.
func TestAPI_DocumentIsWellFormedAndCoversEveryRoute(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	ac := newAPIContract(t, a)
	ids := map[string]bool{}
	documented := map[string]bool{}
	for path, item := range ac.doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			o := op.(map[string]any)
			documented[strings.ToUpper(method)+" "+path] = true
			id, _ := o["operationId"].(string)
			if id == "" || ids[id] {
				t.Errorf("%s %s: operationId %q missing or repeated", method, path, id)
			}
			ids[id] = true
			declared := map[string]bool{}
			ps, _ := o["parameters"].([]any)
			for _, p := range ps {
				pm := p.(map[string]any)
				if pm["in"] == "path" {
					if pm["required"] != true {
						t.Errorf("%s %s: path parameter %v not required", method, path, pm["name"])
					}
					declared[pm["name"].(string)] = true
				}
			}
			for _, seg := range strings.Split(path, "/") {
				if strings.HasPrefix(seg, "{") && !declared[strings.Trim(seg, "{}")] {
					t.Errorf("%s %s: %s not declared", method, path, seg)
				}
			}
			for status, r := range o["responses"].(map[string]any) {
				var ref string
				if content, ok := r.(map[string]any)["content"].(map[string]any); ok {
					if js, ok := content["application/json"].(map[string]any); ok {
						if sch, ok := js["schema"].(map[string]any); ok {
							ref, _ = sch["$ref"].(string)
						}
					}
				}
				if ref != "" {
					if _, err := ac.compiler.Compile(apiDocURL + ref); err != nil {
						t.Errorf("%s %s %s: %v", method, path, status, err)
					}
				} else if status != "304" {
					t.Errorf("%s %s %s: no JSON schema", method, path, status)
				}
			}
		}
	}
	compared := 0
	for _, r := range a.srv.Echo.Routes() {
		p, ok := strings.CutPrefix(r.Path, api.APIPrefix)
		if !ok || strings.Contains(p, "*") || p == "" || r.Method == "echo_route_any" || r.Method == http.MethodHead {
			continue
		}
		segs := strings.Split(p, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, ":") {
				segs[i] = "{" + s[1:] + "}"
			}
		}
		if key := r.Method + " " + strings.Join(segs, "/"); !documented[key] && p != "/openapi.json" {
			t.Errorf("route %s is not in the document", key)
		}
		compared++
	}
	if compared < len(documented) {
		t.Errorf("%d API routes compared, %d documented", compared, len(documented))
	}
}
