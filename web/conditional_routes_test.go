package web

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/store"
	"kisen/web/site"
)

// conditionalHandlers finds, from the package's own source, every function
// that can answer 304: one that names http.StatusNotModified, and every
// function that calls one of those, to a fixed point. Functions are known
// by name alone (no type checking), which can only list too many, never
// too few. A route whose handler is in the set is a conditional route
// (issue 21 item 3), so a new one cannot be added without the test below
// knowing what it shows.
func conditionalHandlers(t *testing.T) map[string]bool {
	t.Helper()
	// The route table's package and every room under it (docs/rooms.md).
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := map[string]map[string]bool{}
	reach := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := fd.Name.Name
			if calls[fn] == nil {
				calls[fn] = map[string]bool{}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && id.Name == "http" && x.Sel.Name == "StatusNotModified" {
						reach[fn] = true
					}
					calls[fn][x.Sel.Name] = true // a method called or passed as a value
				case *ast.Ident:
					calls[fn][x.Name] = true
				case *ast.BasicLit:
					if x.Value == "304" {
						reach[fn] = true
					}
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, cs := range calls {
			if reach[fn] {
				continue
			}
			for c := range cs {
				if reach[c] && c != fn {
					reach[fn], changed = true, true
					break
				}
			}
		}
	}
	return reach
}

// handlerFuncName is the package-level function or method a route's
// handler name (runtime name, as echo records it) belongs to:
// "kisen/web.(*Server).recordDownload.func1" → "recordDownload".
var handlerSuffix = regexp.MustCompile(`(-fm|\.func\d+(\.\d+)*)+$`)

func handlerFuncName(name string) string {
	name = handlerSuffix.ReplaceAllString(name, "")
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// conditionalRoutes lists "GET path" of every route of the router whose
// handler can answer 304.
func conditionalRoutes(t *testing.T, a *testApp) []string {
	t.Helper()
	reach := conditionalHandlers(t)
	seen := map[string]bool{}
	var out []string
	for _, r := range a.srv.Echo.Routes() {
		if r.Method != "GET" || !reach[handlerFuncName(r.Name)] {
			continue
		}
		k := r.Method + " " + r.Path
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// condCase is what a conditional route is tried with: hidden resources
// (path and the event they belong to) and one visible path.
type condCase struct {
	hidden  []condPath
	visible string
	// none says why the route has no hidden resource (a public registry
	// or list); empty when hidden is given.
	none string
}

type condPath struct {
	path  string
	event int64
}

// securityHeaderNames are the headers a 304 must carry as its 200 does.
var securityHeaderNames = []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
	"Cross-Origin-Opener-Policy", "Permissions-Policy", "Cache-Control"}

// TestConditional_HiddenResourcesNeverAnswer304 (issue 21 item 3): every
// route that can answer 304 — found from the source and the router, so a
// new one fails here until it is given a case — answers a hidden resource
// (an unpublished stage or class, a game of one, a draft event and what it
// holds) with exactly what a plain GET gets (404, X-Frame-Options DENY, no
// validators) whether the request carries If-None-Match: *, the tag the
// page would have had, or an If-Modified-Since far in the future. On a
// visible resource, the 304 carries the same security headers as the 200
// (an embed's frame-ancestors included). Both databases; about four
// seconds on PostgreSQL, as it sends some five hundred requests.
func TestConditional_HiddenResourcesNeverAnswer304(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newPubFixture(t, a)
		d := seedDay(t, a, 4, 1)
		ctx := context.Background()
		if d.event.Status != office.StatusDraft {
			t.Fatalf("the day event is %s, want a draft", d.event.Status)
		}
		if err := a.srv.Office.SetOrganiserEmbedOrigins(ctx, x.f.Admin, x.f.Org.ID, "https://example.jp"); err != nil {
			t.Fatal(err)
		}
		id := func(n int64) string { return fmt.Sprint(n) }
		ev := func(pattern string) []condPath { // an event's route, on the draft event
			return []condPath{{strings.Replace(pattern, ":id", id(x.draft), 1), x.draft}}
		}
		dayEv := func(pattern string) []condPath {
			return []condPath{{strings.NewReplacer(":id", id(d.event.ID), ":n", "1").Replace(pattern), d.event.ID}}
		}
		dayCl := func(pattern string) []condPath {
			return []condPath{{strings.NewReplacer(":cid", id(d.class.ID), ":n", "1").Replace(pattern), d.event.ID}}
		}
		dayAPI := func(pattern string) []condPath { // a day class under /api/v1 (:id)
			return []condPath{{strings.NewReplacer(":id", id(d.class.ID), ":n", "1").Replace(pattern), d.event.ID}}
		}
		// Team events (issue 25 item 5): one published with round 1
		// published and round 2 hidden (no order in), one a draft.
		tv, tvRound, _ := seedTeamRound(t, a, "条件団体公開", 2)
		tvHidden, err := tv.tm.SaveRound(ctx, tv.admin, teams.RoundInput{EventID: tv.event.ID, Number: "2",
			Deadline: a.now.Add(2 * time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
		if err != nil {
			t.Fatal(err)
		}
		td, tdRound, _ := seedTeamRound(t, a, "条件団体下書", 2)
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", td.event.ID).Update("status", office.StatusDraft).Error; err != nil {
			t.Fatal(err)
		}
		teamEv := func(pattern string) []condPath {
			return []condPath{{strings.Replace(pattern, ":id", id(td.event.ID), 1), td.event.ID}}
		}
		teamRd := func(pattern string) []condPath {
			return []condPath{{strings.Replace(pattern, ":id", id(tdRound), 1), td.event.ID}}
		}
		stage := func(pattern string) []condPath {
			return []condPath{{strings.Replace(pattern, ":id", id(x.setupSt), 1), x.ko}, {strings.Replace(pattern, ":id", id(x.draftSt), 1), x.draft}}
		}
		class := func(pattern string) []condPath {
			return []condPath{{strings.NewReplacer(":cid", id(x.classB), ":id", id(x.classB)).Replace(pattern), x.term}}
		}
		game := func(pattern string) []condPath {
			return []condPath{{strings.Replace(pattern, ":id", id(x.gameB), 1), x.term}, {strings.Replace(pattern, ":id", id(x.draftGame), 1), x.draft}}
		}
		const registry = "the player registry and ratings are public; nothing in them is unpublished"
		A, term, ko, gA := id(x.classA), id(x.term), id(x.ko), id(x.gameA)
		cases := map[string]condCase{
			"GET /api/v1/events":                    {none: "a list of public events (drafts are left out of it: office.Events)"},
			"GET /api/v1/events/:id":                {hidden: ev("/api/v1/events/:id"), visible: "/api/v1/events/" + term},
			"GET /api/v1/events/:id/games":          {hidden: ev("/api/v1/events/:id/games"), visible: "/api/v1/events/" + term + "/games"},
			"GET /api/v1/events/:id/league":         {hidden: ev("/api/v1/events/:id/league"), visible: "/api/v1/events/" + term + "/league"},
			"GET /api/v1/events/:id/stages":         {hidden: ev("/api/v1/events/:id/stages"), visible: "/api/v1/events/" + ko + "/stages"},
			"GET /api/v1/games/:id":                 {hidden: game("/api/v1/games/:id"), visible: "/api/v1/games/" + gA},
			"GET /api/v1/events/:id/day":            {hidden: dayEv("/api/v1/events/:id/day")},
			"GET /api/v1/day-classes/:id/rounds":    {hidden: dayAPI("/api/v1/day-classes/:id/rounds")},
			"GET /api/v1/day-classes/:id/rounds/:n": {hidden: dayAPI("/api/v1/day-classes/:id/rounds/:n")},
			"GET /api/v1/day-classes/:id/standings": {hidden: dayAPI("/api/v1/day-classes/:id/standings")},
			"GET /api/v1/events/:id/teams":          {hidden: teamEv("/api/v1/events/:id/teams"), visible: "/api/v1/events/" + id(tv.event.ID) + "/teams"},
			"GET /api/v1/team-rounds/:id/orders":    {hidden: teamRd("/api/v1/team-rounds/:id/orders"), visible: "/api/v1/team-rounds/" + id(tvRound) + "/orders"},
			"GET /api/v1/team-rounds/:id/matches": {hidden: append(teamRd("/api/v1/team-rounds/:id/matches"),
				condPath{"/api/v1/team-rounds/" + id(tvHidden.ID) + "/matches", tv.event.ID}), visible: "/api/v1/team-rounds/" + id(tvRound) + "/matches"},
			"GET /api/v1/events/:id/teams/standings":         {hidden: teamEv("/api/v1/events/:id/teams/standings"), visible: "/api/v1/events/" + id(tv.event.ID) + "/teams/standings"},
			"GET /api/v1/league-classes/:id":                 {hidden: class("/api/v1/league-classes/:id"), visible: "/api/v1/league-classes/" + A},
			"GET /api/v1/openapi.json":                       {none: "the API's own description", visible: "/api/v1/openapi.json"},
			"GET /api/v1/organisers":                         {none: "organisers of public events"},
			"GET /api/v1/organisers/:id":                     {none: "an organiser's public fields"},
			"GET /api/v1/players":                            {none: registry},
			"GET /api/v1/players/:id":                        {none: registry},
			"GET /api/v1/ratings":                            {none: registry},
			"GET /day/classes/:cid":                          {hidden: dayCl("/day/classes/:cid")},
			"GET /day/classes/:cid/blocks/print":             {hidden: dayCl("/day/classes/:cid/blocks/print")},
			"GET /day/classes/:cid/edit":                     {hidden: dayCl("/day/classes/:cid/edit")},
			"GET /day/classes/:cid/final":                    {hidden: dayCl("/day/classes/:cid/final")},
			"GET /day/classes/:cid/rounds/:n/boards":         {hidden: dayCl("/day/classes/:cid/rounds/:n/boards")},
			"GET /day/classes/:cid/rounds/:n/pairings/print": {hidden: dayCl("/day/classes/:cid/rounds/:n/pairings/print")},
			"GET /day/classes/:cid/rounds/:n/slips/print":    {hidden: dayCl("/day/classes/:cid/rounds/:n/slips/print")},
			"GET /day/classes/:cid/standings":                {hidden: dayCl("/day/classes/:cid/standings")},
			"GET /day/classes/:cid/rounds/:n":                {hidden: dayCl("/day/classes/:cid/rounds/:n")},
			"GET /day/classes/:cid/standings/print":          {hidden: dayCl("/day/classes/:cid/standings/print")},
			"GET /embed/league/:cid":                         {hidden: class("/embed/league/:cid"), visible: "/embed/league/" + A},
			"GET /embed/stages/:id":                          {hidden: stage("/embed/stages/:id"), visible: "/embed/stages/" + id(x.stage)},
			"GET /embed/games/:id":                           {hidden: game("/embed/games/:id"), visible: "/embed/games/" + gA},
			"GET /events/:id":                                {hidden: ev("/events/:id"), visible: "/events/" + term},
			"GET /events/:id/brackets":                       {hidden: ev("/events/:id/brackets"), visible: "/events/" + ko + "/brackets"},
			"GET /events/:id/day":                            {hidden: dayEv("/events/:id/day")},
			"GET /events/:id/day/checkin/print":              {hidden: dayEv("/events/:id/day/checkin/print")},
			"GET /events/:id/day/director":                   {hidden: dayEv("/events/:id/day/director")},
			"GET /events/:id/day/reception":                  {hidden: dayEv("/events/:id/day/reception")},
			"GET /events/:id/day/reception/rows":             {hidden: dayEv("/events/:id/day/reception/rows")},
			"GET /events/:id/day/reception/search":           {hidden: dayEv("/events/:id/day/reception/search?q=a")},
			"GET /events/:id/day/entry":                      {hidden: dayEv("/events/:id/day/entry")},
			"GET /events/:id/day/entries":                    {hidden: dayEv("/events/:id/day/entries")},
			"GET /events/:id/day/rounds/:n/boards":           {hidden: dayEv("/events/:id/day/rounds/:n/boards")},
			"GET /events/:id/games":                          {hidden: ev("/events/:id/games"), visible: "/events/" + term + "/games"},
			"GET /events/:id/handicap":                       {hidden: ev("/events/:id/handicap")},
			"GET /events/:id/league":                         {hidden: ev("/events/:id/league"), visible: "/events/" + term + "/league"},
			"GET /events/:id/live":                           {hidden: ev("/events/:id/live"), visible: "/events/" + term + "/live"},
			"GET /events/:id/projector":                      {hidden: ev("/events/:id/projector"), visible: "/events/" + term + "/projector"},
			"GET /events/:id/records.zip":                    {hidden: ev("/events/:id/records.zip?format=kif"), visible: "/events/" + ko + "/records.zip?format=kif"},
			"GET /games/:id":                                 {hidden: game("/games/:id"), visible: "/games/" + gA},
			"GET /games/:id/live":                            {hidden: game("/games/:id/live"), visible: "/games/" + gA + "/live"},
			"GET /games/:id/record.csa":                      {hidden: game("/games/:id/record.csa")},
			"GET /games/:id/record.kif":                      {hidden: game("/games/:id/record.kif"), visible: "/games/" + gA + "/record.kif"},
			"GET /games/:id/record.usi":                      {hidden: game("/games/:id/record.usi")},
			"GET /league/:cid":                               {hidden: class("/league/:cid"), visible: "/league/" + A},
			"GET /league/:cid/calendar.ics":                  {hidden: class("/league/:cid/calendar.ics"), visible: "/league/" + A + "/calendar.ics"},
			"GET /league/:cid/schedule.csv":                  {hidden: class("/league/:cid/schedule.csv"), visible: "/league/" + A + "/schedule.csv"},
			"GET /players/:id/edit":                          {none: registry},
			"GET /players/:id/record":                        {none: registry, visible: fmt.Sprintf("/players/%d/record", x.playerB.ID)},
			"GET /players/:id/record.csv":                    {none: registry},
			"GET /players/:id/record/h2h":                    {none: registry},
			"GET /players/new":                               {none: registry},
			"GET /r/:token":                                  {hidden: []condPath{{"/r/nonexistent-slip-token", d.event.ID}}},
			"GET /day/entries/:token":                        {hidden: []condPath{{"/day/entries/nonexistent-entry-token", d.event.ID}}},
			"GET /ratings":                                   {none: registry, visible: "/ratings"},
			"GET /ratings/export.csv":                        {none: registry},
			"GET /ratings/settings":                          {none: registry},
			"GET /stages/:id":                                {hidden: stage("/stages/:id")},
			"GET /stages/:id/csv":                            {hidden: stage("/stages/:id/csv"), visible: "/stages/" + id(x.stage) + "/csv"},
			"GET /stages/:id/records.zip":                    {hidden: stage("/stages/:id/records.zip?format=kif"), visible: "/stages/" + id(x.stage) + "/records.zip?format=kif"},
			"GET /stages/:id/seeds":                          {hidden: stage("/stages/:id/seeds")},
		}
		routes := conditionalRoutes(t, a)
		if len(routes) < 20 {
			t.Fatalf("only %d conditional routes found: the source scan is broken", len(routes))
		}
		known := map[string]bool{}
		for _, r := range routes {
			known[r] = true
			if _, ok := cases[r]; !ok {
				t.Errorf("%s can answer 304 but has no case here: add what it hides (or why nothing)", r)
			}
		}
		for r := range cases {
			if !known[r] {
				t.Errorf("case %s is no conditional route (any more): remove it", r)
			}
		}

		var send func(method, path string, hdr map[string]string) (*http.Response, string)
		// get sends a request as a client without cookies (the only kind
		// whose If-Modified-Since is believed).
		get := func(path string, hdr map[string]string) (*http.Response, string) {
			t.Helper()
			return send(http.MethodGet, path, hdr)
		}
		send = func(method, path string, hdr map[string]string) (*http.Response, string) {
			t.Helper()
			req, err := http.NewRequest(method, a.ts.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			return a.send(&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, req)
		}
		// tagOf is the tag the page at path would carry for such a client
		// at its event's current revision (cache.go pageKey).
		tagOf := func(path string, eventID int64) string {
			t.Helper()
			pr, err := a.srv.Office.PageRevision(ctx, x.f.Admin, eventID)
			if err != nil {
				t.Fatal(err)
			}
			c := a.srv.Echo.NewContext(httptest.NewRequest(http.MethodGet, path, nil), httptest.NewRecorder())
			c.Set("lang", "ja")
			return a.srv.PageKey(c, pr, true)
		}
		// The tag computed here is the server's own: checked on a visible page.
		if resp, _ := get("/league/"+A, nil); resp.Header.Get("ETag") != tagOf("/league/"+A, x.term) {
			t.Fatalf("computed tag %s, the page's %s: the guessed tags below would prove nothing", tagOf("/league/"+A, x.term), resp.Header.Get("ETag"))
		}

		future := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat)
		for _, r := range routes {
			cs := cases[r]
			if len(cs.hidden) == 0 && cs.none == "" {
				t.Errorf("%s: no hidden resource and no reason why", r)
			}
			for _, hp := range cs.hidden {
				plain, _ := get(hp.path, nil)
				if plain.StatusCode == http.StatusOK || plain.StatusCode == http.StatusNotModified {
					t.Errorf("%s: plain GET of hidden %s: %d", r, hp.path, plain.StatusCode)
					continue
				}
				for name, hdr := range map[string]map[string]string{
					"If-None-Match: *":   {"If-None-Match": "*"},
					"its tag":            {"If-None-Match": tagOf(hp.path, hp.event)},
					"If-Modified-Since":  {"If-Modified-Since": future},
					"weak tag with date": {"If-None-Match": `W/"1.0-000000000000000000000000"`, "If-Modified-Since": future},
				} {
					resp, _ := get(hp.path, hdr)
					if resp.StatusCode != plain.StatusCode {
						t.Errorf("%s: %s with %s: %d, a plain GET %d", r, hp.path, name, resp.StatusCode, plain.StatusCode)
					}
					if resp.Header.Get("ETag") != "" || resp.Header.Get("Last-Modified") != "" {
						t.Errorf("%s: %s with %s carries validators", r, hp.path, name)
					}
					if resp.Header.Get("X-Frame-Options") != "DENY" {
						t.Errorf("%s: %s with %s: X-Frame-Options %q, want DENY", r, hp.path, name, resp.Header.Get("X-Frame-Options"))
					}
				}
			}
			for _, hp := range cs.hidden { // HEAD answers as GET does (issue 21 item 12)
				plain, _ := send(http.MethodHead, hp.path, nil)
				cond, _ := send(http.MethodHead, hp.path, map[string]string{"If-None-Match": "*", "If-Modified-Since": future})
				if cond.StatusCode != plain.StatusCode || cond.StatusCode == http.StatusNotModified {
					t.Errorf("%s: HEAD %s with validators: %d, a plain HEAD %d", r, hp.path, cond.StatusCode, plain.StatusCode)
				}
			}
			if cs.visible == "" {
				continue
			}
			ok, _ := get(cs.visible, nil)
			etag := ok.Header.Get("ETag")
			if ok.StatusCode != http.StatusOK || etag == "" {
				t.Errorf("%s: visible %s: %d, ETag %q; want 200 with a tag", r, cs.visible, ok.StatusCode, etag)
				continue
			}
			nm, _ := get(cs.visible, map[string]string{"If-None-Match": etag})
			if nm.StatusCode != http.StatusNotModified {
				t.Errorf("%s: visible %s with its tag: %d, want 304", r, cs.visible, nm.StatusCode)
				continue
			}
			for _, h := range securityHeaderNames {
				if got, want := nm.Header.Values(h), ok.Header.Values(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: %s: the 304's %s is %q, the 200's %q", r, cs.visible, h, got, want)
				}
			}
		}
	})
}
