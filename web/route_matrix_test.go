package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"kisen/office"
	"kisen/web/api"
)

// The route × principal matrix (issue 21, "Done when"; docs/security.md
// section G). Every route the router holds is tried as every principal on
// the ids of two sides: 甲 (every event a draft) and 乙 (published). The
// expectation of each route is one line of routeExpectations, keyed by
// method and path pattern; a route without a line fails the test, so a new
// route cannot be added without saying who may use it.
//
// Only reads and refused writes are sent: a refused write must change
// nothing, and the test checks at the end that no table gained or lost a
// row. Writes by a principal who may make them are the business of each
// area's own tests.

// A route's expectation. Kinds:
//
//	open          no event: anybody gets 2xx/3xx
//	user          no event, signed-in users (requireUser): the public is sent to /login
//	admin         administrators only
//	admin-hidden  an event's page for administrators only: everyone else, signed in or
//	              not, gets 404 as for a missing event (the ranking groups' next term)
//	public        an event's public read: everyone on a published event; on a draft,
//	              its staff and administrators, 404 for everyone else
//	staff:r,…     the event's holders of one of the roles (and administrators);
//	              a signed-in user without one gets 403 on a published event, 404 on a draft
//	api           a public API read: 2xx on a published event, 404 on a draft, whatever
//	              the token or cookie
//	token:scope   an API write by a token of that scope on the event: no token or a
//	              revoked one is 401; another scope 403; another event's token 403 or 404
//	embed         a widget for other sites: 2xx on a published event, 404 on a draft
//	              for everyone (an embed is shown to the public, never a preview)
//	hidden:r,…    like staff, but a signed-in user without one of the roles is told
//	              the target does not exist (404), published or not (the recorder's page)
//	skip:why      not tried here (the reason names the test that covers it)
var routeExpectations = map[string]string{
	"GET /healthz":             "open",
	"GET /readyz":              "open",
	"GET /metrics":             "skip: item 12 (wt-harden) decides whether /metrics is on the main address; metrics_test.go",
	"GET /static/*":            "open",
	"GET /":                    "open",
	"GET /start":               "user",
	"GET /lang":                "open",
	"GET /setup":               "skip: the first-run link (a secret in the query); TestSetup_LinkCreatesFirstAdminThenLoginLogout",
	"POST /setup":              "skip: the first-run link; TestSetup_LinkCreatesFirstAdminThenLoginLogout",
	"GET /login":               "open",
	"POST /login":              "skip: signing in is limited per address (accounts_test.go, item 9)",
	"POST /logout":             "skip: ends the principal's session; TestSetup_LinkCreatesFirstAdminThenLoginLogout",
	"GET /account":             "user",
	"POST /account/password":   "user-write",
	"GET /users":               "admin",
	"POST /users":              "admin",
	"POST /users/:id/disabled": "admin",
	"POST /users/:id/admin":    "admin",

	"GET /players":                            "open",
	"GET /players/export.csv":                 "open",
	"GET /players/new":                        "admin",
	"POST /players":                           "admin",
	"GET /players/import":                     "admin",
	"POST /players/import":                    "admin",
	"GET /players/:id":                        "open",
	"GET /players/:id/edit":                   "admin",
	"POST /players/:id":                       "admin",
	"GET /players/:id/master":                 "admin",
	"POST /players/:id/master":                "admin",
	"POST /players/:id/master/end":            "admin",
	"POST /players/:id/master/period":         "admin",
	"GET /players/picker":                     "admin",
	"GET /players/picker/choose":              "admin",
	"GET /players/paste":                      "admin",
	"POST /players/paste":                     "admin",
	"GET /players/:id/relatives":              "open",
	"POST /players/:id/relatives":             "admin",
	"POST /players/:id/relatives/:rid/delete": "admin",
	"GET /players/:id/record":                 "open",
	"GET /players/:id/record.csv":             "open",
	"GET /players/:id/record/h2h":             "open",
	"GET /ratings":                            "open",
	"GET /ratings/export.csv":                 "open",
	"GET /ratings/settings":                   "admin",
	"POST /ratings/settings":                  "admin",

	"GET /organisers":               "admin",
	"POST /organisers":              "admin",
	"GET /organisers/:id/edit":      "admin",
	"POST /organisers/:id":          "admin",
	"GET /organisers/:id/handicap":  "admin",
	"POST /organisers/:id/handicap": "admin",
	"GET /organisers/:id/settings":  "admin",
	"POST /organisers/:id/settings": "admin",
	"GET /organisers/:id/embeds":    "admin",
	"POST /organisers/:id/embeds":   "admin",

	"GET /events":                         "open",
	"POST /events":                        "admin",
	"GET /events/:id":                     "public",
	"GET /events/:id/stream":              "skip: a stream that stays open; its visibility is tested in live_test.go",
	"GET /events/:id/projector":           "public",
	"POST /events/:id/status":             "staff:director",
	"POST /events/:id/roles":              "staff:director",
	"POST /events/:id/roles/revoke":       "staff:director",
	"GET /events/:id/settings":            "public",
	"POST /events/:id/settings":           "staff:director",
	"POST /events/:id/settings/unlock":    "admin",
	"GET /events/:id/tokens":              "staff:director",
	"POST /events/:id/tokens":             "staff:director",
	"POST /events/:id/tokens/:tid/revoke": "staff:director",
	"GET /events/:id/records.zip":         "public",
	"GET /events/:id/handicap":            "public",
	"POST /events/:id/handicap":           "staff:director",

	"GET /events/:id/games":          "public",
	"POST /events/:id/games":         "staff:director,scheduler",
	"GET /games/:id":                 "public",
	"GET /games/:id/record.kif":      "public",
	"GET /games/:id/record.csa":      "public",
	"GET /games/:id/record.usi":      "public",
	"POST /games/:id/record/preview": "staff:director,arbiter,recorder",
	"POST /games/:id/record":         "staff:director,arbiter,recorder",
	"POST /games/:id/end/preview":    "staff:director,arbiter,recorder",
	"POST /games/:id/end":            "staff:director,arbiter,recorder",
	"POST /games/:id/claims":         "staff:director,arbiter,recorder",
	"POST /games/:id/undo":           "staff:director,arbiter,recorder",
	"POST /games/:id/rulings":        "staff:director,arbiter",
	"POST /games/:id/confirm":        "staff:director,arbiter",
	"POST /games/:id/seat":           "staff:director",
	// The recorder's page and link (issue 26, web/recorder).
	"GET /games/:id/recorder":              "hidden:director,arbiter,recorder",
	"POST /games/:id/recorder/moves":       "hidden:director,arbiter,recorder",
	"POST /games/:id/recorder/undo":        "hidden:director,arbiter,recorder",
	"POST /games/:id/recorder-link":        "hidden:director,arbiter",
	"POST /games/:id/recorder-link/revoke": "hidden:director,arbiter",
	"GET /rec/:token":                      "skip: a recorder link secret; TestRecorderWeb_TokenAccess",
	"POST /rec/:token/moves":               "skip: a recorder link secret; TestRecorderWeb_TokenAccess",
	"POST /rec/:token/undo":                "skip: a recorder link secret; TestRecorderWeb_TokenAccess",

	"GET /games/:id/appeals/new":            "staff:director,arbiter",
	"POST /games/:id/appeals":               "staff:director,arbiter",
	"GET /games/:id/appeals/:aid":           "public",
	"GET /games/:id/appeals/:aid/document":  "public",
	"POST /games/:id/appeals/:aid/decision": "staff:director,arbiter",

	"GET /events/:id/brackets":              "public",
	"POST /events/:id/stages":               "staff:director,scheduler",
	"GET /stages/:id":                       "staff:director,scheduler,arbiter,recorder",
	"GET /stages/:id/csv":                   "public",
	"GET /stages/:id/records.zip":           "public",
	"POST /stages/:id/entrants":             "staff:director,scheduler",
	"POST /stages/:id/entrants/bulk":        "staff:director,scheduler",
	"POST /stages/:id/entrants/:eid/remove": "staff:director,scheduler",
	"POST /stages/:id/draw":                 "staff:director,scheduler",
	"POST /stages/:id/swap":                 "staff:director,scheduler",
	"POST /stages/:id/publish":              "staff:director",
	"POST /stages/:id/unpublish":            "staff:director",
	"POST /stages/:id/result":               "staff:director,arbiter,recorder",
	"POST /stages/:id/withdraw":             "staff:director",
	"POST /stages/:id/toss":                 "staff:director",
	"POST /stages/:id/main-seats":           "staff:director",
	"GET /events/:id/ranking-term":          "admin-hidden",
	"POST /events/:id/ranking-term":         "admin-hidden",
	"GET /events/:id/ranking":               "public",
	"GET /stages/:id/seeds":                 "staff:director",
	"POST /stages/:id/seeds":                "staff:director",
	"GET /embed/stages/:id":                 "embed",
	"GET /embed/league/:cid":                "embed",
	// The public live board (issue 26): shown as the public sees it, so a
	// draft's is 404 for everyone, like an embed.
	"GET /games/:id/live":   "embed",
	"GET /events/:id/live":  "embed",
	"GET /embed/games/:id":  "embed",
	"GET /games/:id/stream": "skip: a stream that stays open; its visibility and its move events are tested in liveboard_test.go",

	"GET /events/:id/league":           "public",
	"POST /events/:id/league/classes":  "staff:director,scheduler",
	"POST /events/:id/league/import":   "staff:director,scheduler",
	"POST /events/:id/league/rollover": "staff:director,scheduler",
	"GET /league/:cid":                 "public",
	"POST /league/:cid/generate":       "staff:director,scheduler",
	"POST /league/:cid/edit":           "staff:director,scheduler",
	"POST /league/:cid/members":        "staff:director,scheduler",
	"GET /league/:cid/publish":         "staff:director,scheduler",
	"POST /league/:cid/publish":        "staff:director,scheduler",
	"POST /league/:cid/unpublish":      "staff:director,scheduler",
	"POST /league/:cid/settings":       "staff:director,scheduler",
	"POST /league/:cid/playoff":        "staff:director,scheduler",
	"POST /league/:cid/result":         "staff:director,scheduler,arbiter,recorder",
	"GET /league/:cid/calendar.ics":    "public",
	"GET /league/:cid/schedule.csv":    "public",

	"GET /events/:id/day":                                "public",
	"POST /events/:id/day/classes":                       "staff:director",
	"GET /events/:id/day/reception":                      "staff:director",
	"GET /events/:id/day/reception/rows":                 "staff:director",
	"GET /events/:id/day/reception/search":               "staff:director",
	"POST /events/:id/day/reception/undo":                "staff:director",
	"POST /events/:id/day/entrants":                      "staff:director",
	"POST /events/:id/day/checkin":                       "staff:director",
	"POST /events/:id/day/fee":                           "staff:director",
	"POST /events/:id/day/fee-category":                  "staff:director",
	"POST /events/:id/day/move":                          "staff:director",
	"POST /events/:id/day/withdraw":                      "staff:director",
	"POST /events/:id/day/walkin":                        "staff:director",
	"GET /events/:id/day/rounds/:n/boards":               "staff:director,arbiter,recorder",
	"GET /events/:id/day/checkin/print":                  "staff:director,arbiter,recorder",
	"GET /events/:id/day/director":                       "staff:director,arbiter,recorder",
	"GET /day/classes/:cid":                              "public",
	"GET /day/classes/:cid/edit":                         "staff:director",
	"POST /day/classes/:cid":                             "staff:director",
	"GET /day/classes/:cid/standings":                    "public",
	"GET /day/classes/:cid/rounds/:n":                    "public",
	"POST /day/classes/:cid/draw":                        "staff:director",
	"POST /day/classes/:cid/draw/confirm":                "staff:director",
	"GET /day/classes/:cid/rounds/:n/boards":             "staff:director,arbiter,recorder",
	"POST /day/classes/:cid/rounds/:n/boards/:b/preview": "staff:director,arbiter,recorder",
	"POST /day/classes/:cid/rounds/:n/boards/:b":         "staff:director,arbiter,recorder",
	"POST /day/classes/:cid/rounds/:n/boards/:b/toss":    "staff:director,arbiter,recorder",
	"POST /day/classes/:cid/rounds/:n/boards/:b/report":  "staff:director,arbiter,recorder",
	"GET /day/classes/:cid/final":                        "staff:director",
	"POST /day/classes/:cid/final":                       "staff:director",
	"GET /day/classes/:cid/rounds/:n/pairings/print":     "public",
	"GET /day/classes/:cid/rounds/:n/slips/print":        "staff:director,arbiter,recorder",
	"POST /day/classes/:cid/rounds/:n/slips/print":       "staff:director",
	"GET /day/classes/:cid/blocks/print":                 "public",
	"GET /day/classes/:cid/standings/print":              "public",
	"POST /day/classes/:cid/paper":                       "staff:director",
	"GET /events/:id/day/entry":                          "public",
	"POST /events/:id/day/entry":                         "skip: an entry spends the address's rate limit (a write by design); TestDayEntryWeb_ClosedDraftAndRateLimit, TestDayEntryWeb_FormLinkAndWithdraw",
	"GET /day/entries/:token":                            "skip: an entry's private link; every miss is counted per address (a write by design); TestDayEntryWeb_FormLinkAndWithdraw",
	"POST /day/entries/:token/withdraw":                  "skip: an entry's private link; every miss is counted per address (a write by design); TestDayEntryWeb_FormLinkAndWithdraw",
	"GET /events/:id/day/entries":                        "staff:director",
	"POST /events/:id/day/entries/settings":              "staff:director",
	"POST /events/:id/day/entries/:entry/approve":        "staff:director",
	"POST /events/:id/day/entries/:entry/refuse":         "staff:director",
	"POST /events/:id/day/entries/:entry/edit":           "staff:director",
	"POST /events/:id/day/entries/bulk":                  "staff:director",
	"POST /events/:id/day/entries/bulk/confirm":          "staff:director",
	"POST /events/:id/day/entries/approve-all":           "staff:director",
	"POST /events/:id/day/entries/approve-all/confirm":   "staff:director",
	// Team events (issue 25 items 1 and 2, web/teams/).
	"GET /events/:id/teams":                      "public",
	"POST /events/:id/teams/settings":            "staff:director",
	"GET /events/:id/teams/new":                  "staff:director",
	"POST /events/:id/teams":                     "staff:director",
	"POST /events/:id/teams/import":              "staff:director",
	"POST /events/:id/teams/import/confirm":      "staff:director",
	"POST /events/:id/teams/rounds":              "staff:director",
	"GET /teams/:team/edit":                      "staff:director",
	"POST /teams/:team":                          "staff:director",
	"GET /team-rounds/:round":                    "public",
	"GET /team-rounds/:round/print":              "public",
	"GET /team-rounds/:round/teams/:team":        "public",
	"POST /team-rounds/:round/teams/:team/order": "staff:director,arbiter",
	// Team matches and standings (issue 25 item 3, web/teams/matches.go).
	"GET /team-rounds/:round/matches":  "public",
	"POST /team-rounds/:round/matches": "staff:director",
	"POST /team-matches/:match/start":  "staff:director",
	"GET /events/:id/teams/standings":  "public",
	// The team Swiss draw and the scoring form (issue 25, web/teams/draw.go).
	"GET /team-rounds/:round/draw":   "staff:director",
	"POST /team-rounds/:round/draw":  "staff:director",
	"GET /events/:id/teams/scoring":  "staff:director",
	"POST /events/:id/teams/scoring": "staff:director",
	"GET /r/:token":                  "skip: a report secret; every miss is counted per address to stop guessing (a write by design); TestDayReport_WebFlow, day_paper_qr_test.go",
	"POST /r/:token":                 "skip: a report secret; every miss is counted per address to stop guessing (a write by design); TestDayReport_WebFlow, day_paper_qr_test.go",
	// Crosstable, team pages, prizes and paper (issue 25 items 5 and 6, web/teams/crosstable.go, paper.go).
	"GET /events/:id/teams/crosstable":          "public",
	"GET /events/:id/teams/prizes":              "public",
	"GET /teams/:team":                          "public",
	"GET /team-rounds/:round/teams/:team/print": "public",
	"GET /team-rounds/:round/slips":             "public",
	"GET /team-matches/:match/slip":             "public",
	// The desk's match entry by table (issue 25 item 5, web/teams/desk.go).
	"GET /team-rounds/:round/desk":                "staff:director,arbiter,recorder",
	"POST /team-rounds/:round/desk/:table/:board": "staff:director,arbiter,recorder",

	"GET /api/v1/openapi.json":       "open",
	"GET /api/v1/organisers":         "open",
	"GET /api/v1/organisers/:id":     "api",
	"GET /api/v1/events":             "open",
	"GET /api/v1/events/:id":         "api",
	"GET /api/v1/events/:id/stages":  "api",
	"GET /api/v1/events/:id/league":  "api",
	"GET /api/v1/league-classes/:id": "api",
	"GET /api/v1/events/:id/games":   "api",
	"GET /api/v1/games/:id":          "api",
	"GET /api/v1/players":            "open",
	"GET /api/v1/players/:id":        "open",
	"GET /api/v1/ratings":            "open",
	"POST /api/v1/games/:id/result":  "token:results",
	"POST /api/v1/games/:id/record":  "token:records",
	"POST /api/v1/games/:id/moves":   "token:records",
	"POST /api/v1/games/:id/confirm": "token:confirmations",
	"POST /api/v1/games/:id/rulings": "token:rulings",

	// The amateur day's reads (issue 23 §4, api_day.go).
	"GET /api/v1/events/:id/day":            "api",
	"GET /api/v1/day-classes/:id/rounds":    "api",
	"GET /api/v1/day-classes/:id/rounds/:n": "api",
	"GET /api/v1/day-classes/:id/standings": "api",

	// The team event's reads (issue 25 item 5, api_teams.go).
	"GET /api/v1/events/:id/teams":           "api",
	"GET /api/v1/team-rounds/:id/orders":     "api",
	"GET /api/v1/team-rounds/:id/matches":    "api",
	"GET /api/v1/events/:id/teams/standings": "api",
}

// knownHole is a (route, principal) pair that answers wrongly on main
// today because of a hole another part of issue 21 is fixing: the matrix
// logs it instead of failing. The list is emptied as the fixes land; an
// entry that no longer fails is reported so it can be removed.
type knownHole struct {
	route string // "METHOD /pattern"
	match string // a failure of that route whose message holds all these texts (" && " between them)
	item  string // the item of issue 21 that fixes it (its worktree)
}

// Empty since issue 21's fixes landed: every hole the matrix found on main
// (items 1-4, the token revoke, the hidden stage's and class's staff
// routes) is closed. A new entry is for a hole being fixed elsewhere, and
// fails the test once it is no longer seen.
var knownHolesBeingFixed = []knownHole{}

// mxPrincipal is one caller: a browser (its session cookie) or an API
// client (its bearer token).
type mxPrincipal struct {
	name   string
	side   string // the side whose role or token it holds
	role   string // an event role, or anon, user, admin, disabled
	scope  string // API: a token scope, "revoked", or "" (no token)
	client *http.Client
	bearer string
}

// relation is what the principal is to the target side: admin, anon, an
// event role there, or user (signed in, no role there).
func (p mxPrincipal) relation(target *matrixSide) string {
	switch {
	case p.role == "admin":
		return "admin"
	case p.role == "anon" || p.role == "disabled" || p.bearer != "":
		return "anon"
	case p.role == "user" || p.side != target.owner:
		return "user"
	}
	return p.role
}

// mxWant is the answer a (route, principal, side) must get.
type mxWant struct {
	allowed bool  // the principal may use the route (reads: 2xx/3xx)
	status  []int // refused: the statuses accepted
	login   bool  // refused: a redirect to /login
	hidden  bool  // the principal may not see the target (a draft): no name of it may show
	// names the answer must not hold whatever its status: what only the
	// unpublished stage and class show, on a published event's pages.
	unseen []string
}

func (w mxWant) String() string {
	switch {
	case w.allowed:
		return "allowed"
	case w.login:
		return "303 to /login"
	}
	return fmt.Sprint(w.status)
}

func expectWeb(spec string, p mxPrincipal, target *matrixSide) mxWant {
	w := expectWebStatus(spec, p, target)
	rel := p.relation(target)
	w.hidden = !w.allowed && !target.published && (rel == "anon" || rel == "user")
	return w
}

func expectWebStatus(spec string, p mxPrincipal, target *matrixSide) mxWant {
	rel := p.relation(target)
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "open":
		return mxWant{allowed: true}
	case "embed":
		if target.published {
			return mxWant{allowed: true}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	case "user", "user-write":
		if rel == "anon" {
			return mxWant{login: true}
		}
		return mxWant{allowed: true}
	case "admin":
		switch rel {
		case "admin":
			return mxWant{allowed: true}
		case "anon":
			return mxWant{login: true}
		}
		return mxWant{status: []int{http.StatusForbidden}}
	case "admin-hidden":
		if rel == "admin" {
			return mxWant{allowed: true}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	case "public":
		if target.published || rel == "admin" || slices.Contains(office.EventRoleNames, rel) {
			return mxWant{allowed: true}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	case "staff":
		roles := strings.Split(arg, ",")
		switch {
		case rel == "admin" || slices.Contains(roles, rel):
			return mxWant{allowed: true}
		case rel == "anon":
			return mxWant{login: true}
		case target.published || slices.Contains(office.EventRoleNames, rel):
			return mxWant{status: []int{http.StatusForbidden}}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	case "hidden":
		roles := strings.Split(arg, ",")
		switch {
		case rel == "admin" || slices.Contains(roles, rel):
			return mxWant{allowed: true}
		case rel == "anon":
			return mxWant{login: true}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	}
	panic("unknown expectation " + spec)
}

func expectAPI(spec, pattern string, p mxPrincipal, target *matrixSide) mxWant {
	w := expectAPIStatus(spec, pattern, p, target)
	w.hidden = !w.allowed && !target.published && p.side != target.owner
	return w
}

func expectAPIStatus(spec, pattern string, p mxPrincipal, target *matrixSide) mxWant {
	kind, arg, _ := strings.Cut(spec, ":")
	if p.scope == "revoked" {
		// A token that is not one is refused wherever it is sent.
		return mxWant{status: []int{http.StatusUnauthorized}}
	}
	switch kind {
	case "open":
		return mxWant{allowed: true}
	case "api":
		// A read_drafts token sees its own event (the side's knockout)
		// in draft, not the side's other events (its league, its day).
		own := p.side == target.owner && p.scope == office.ScopeReadDrafts && !strings.Contains(pattern, "league") && !strings.Contains(pattern, "day") &&
			!strings.Contains(pattern, "team")
		if target.published || own {
			return mxWant{allowed: true}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	case "token":
		switch {
		case p.scope == "" || p.scope == "revoked":
			return mxWant{status: []int{http.StatusUnauthorized}}
		case p.scope != arg:
			// The scope is checked first, whatever the id: a 403 that
			// says nothing of the game.
			return mxWant{status: []int{http.StatusForbidden}}
		case p.side == target.owner:
			return mxWant{allowed: true}
		case target.published:
			return mxWant{status: []int{http.StatusForbidden}}
		}
		return mxWant{status: []int{http.StatusNotFound}}
	}
	panic("unknown API expectation " + spec)
}

// fillPath puts the side's ids into a route's pattern.
func fillPath(pattern string, sd *matrixSide) string {
	segs := strings.Split(pattern, "/")
	isAPI := strings.HasPrefix(pattern, api.APIPrefix+"/")
	for i, s := range segs {
		if !strings.HasPrefix(s, ":") && s != "*" {
			continue
		}
		prev, next := "", ""
		if i > 0 {
			prev = segs[i-1]
		}
		if i+1 < len(segs) {
			next = segs[i+1]
		}
		var v int64
		switch {
		case s == "*":
			segs[i] = "app.css"
			continue
		case s == ":team":
			v = sd.team
		case s == ":round":
			v = sd.teamRound
		case s == ":match":
			v = sd.teamMatch
		case prev == "team-rounds":
			v = sd.teamRound // the API's :id
		case s == ":n" || s == ":b" || s == ":rid" || s == ":table" || s == ":board":
			v = 1
		case s == ":token":
			segs[i] = "not-a-report-secret"
			continue
		case s == ":eid":
			v = sd.entrant
		case s == ":entry":
			v = 1 // a day entry; refused before it is read
		case s == ":tid":
			v = sd.token
		case s == ":aid":
			v = sd.appeal
		case prev == "games" && strings.Contains(pattern, "/appeals"):
			v = sd.openGame // the appeal is against a ruling on the open game
		case s == ":cid" && prev == "classes":
			v = sd.dayClass
		case s == ":cid":
			v = sd.class
		case prev == "events" && next == "day":
			v = sd.day
		case prev == "events" && next == "teams":
			v = sd.teamEvent
		case prev == "events" && next == "league":
			v = sd.league
		case prev == "events":
			v = sd.knockout
		case prev == "stages":
			v = sd.stage
		case prev == "games" && isAPI:
			v = sd.openGame
		case prev == "games":
			v = sd.game
		case prev == "players":
			v = sd.players[0]
		case prev == "organisers":
			v = sd.organiser
		case prev == "users":
			v = sd.staff[office.RoleDirector].ID
		case prev == "league-classes":
			v = sd.class
		case prev == "day-classes":
			v = sd.dayClass
		default:
			panic("no id for " + s + " in " + pattern)
		}
		segs[i] = strconv.FormatInt(v, 10)
	}
	if strings.HasSuffix(pattern, "/appeals/new") {
		// The form is for one ruling, named in the query: one not yet
		// appealed.
		return strings.Join(segs, "/") + "?ruling=" + strconv.FormatInt(sd.freshRuling, 10)
	}
	return strings.Join(segs, "/")
}

// routeFingerprint is the row count of every table (sessions aside) and
// the states a refused write could flip without adding a row: event, stage
// and class statuses, revoked tokens, check-ins and withdrawals.
func routeFingerprint(t *testing.T, a *testApp) map[string]int64 {
	t.Helper()
	out := rowCounts(t, a)
	// app_settings gains one row on the first paged API read: the key that
	// signs page cursors (web/api/api_cursor.go), made on first use; counted
	// without it.
	delete(out, "app_settings")
	for _, q := range []string{
		"SELECT COUNT(*) FROM app_settings WHERE key <> 'api.cursor_key'",
		"SELECT COUNT(*) FROM events WHERE status = 'draft'",
		"SELECT COUNT(*) FROM events WHERE status = 'published'",
		"SELECT COUNT(*) FROM knockout_stages WHERE status = 'published'",
		"SELECT COUNT(*) FROM league_classes WHERE status = 'published'",
		"SELECT COUNT(*) FROM api_tokens WHERE revoked_at IS NOT NULL",
		"SELECT COUNT(*) FROM day_entrants WHERE checkin = 'present'",
		"SELECT COUNT(*) FROM day_entrants WHERE withdrawn_at IS NOT NULL",
	} {
		var n int64
		if err := a.store.DB(context.Background()).Raw(q).Scan(&n).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out[q] = n
	}
	return out
}

type mxResult struct {
	route, principal, side, path string
	status                       int
	location, body               string
}

// TestRouteMatrix_EveryRouteEveryPrincipal sends every route of the router
// as every principal, on both sides' ids, and checks the answer against
// routeExpectations. It takes 5-10 s per database on a 2-core machine
// (about 50 s under -race alone; 3–6 min among the package's other tests
// at -parallel 8, the two databases at once): about 5,000 requests (≈170 web routes × 14
// browser principals × 2 sides plus the unpublished stage and class,
// ≈30 API routes × 13 token principals, conditional repeats of every 404
// read, and 30 body probes), each a full page render on a small site; the
// fixture is built once per database and shared. KISEN_MATRIX_DISCOVER=1
// prints every answer instead of judging (writes included: for reading
// the router's behaviour when writing a new line, not for CI).
func TestRouteMatrix_EveryRouteEveryPrincipal(t *testing.T) {
	t.Parallel()
	discover := os.Getenv("KISEN_MATRIX_DISCOVER") != ""
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		root := a.addUser("matrix-root", true)
		admin := office.Actor{UserID: root.ID, Login: root.Login, Admin: true}
		sideA := newMatrixSide(t, a, admin, "甲", false)
		sideB := newMatrixSide(t, a, admin, "乙", true)
		sides := []*matrixSide{sideA, sideB}
		// 乙's drawn but unpublished stage and 順位戦 class, in its
		// published events (items 2 and 3): their routes must answer as a
		// draft's do, to everyone but 乙's staff and administrators.
		unpub := *sideB
		unpub.tag, unpub.stage, unpub.class, unpub.published, unpub.names = "乙(未公開)", sideB.hiddenStage, sideB.hiddenClass, false, sideB.hiddenNames
		unpub.only = func(pattern string) bool {
			return strings.Contains(pattern, "/stages/:id") || strings.Contains(pattern, "/league/:cid") || strings.HasPrefix(pattern, api.APIPrefix+"/league-classes/")
		}
		targets := []*matrixSide{sideA, sideB, &unpub}

		browser := func(name, side, role string, userID int64) mxPrincipal {
			c := a.newClient()
			if userID != 0 {
				a.signIn(c, userID)
			}
			return mxPrincipal{name: name, side: side, role: role, client: c}
		}
		plain := a.addUser("matrix-plain", false)
		gone := a.addUser("matrix-disabled", false)
		for _, e := range []int64{sideA.knockout, sideA.league, sideA.day} {
			if err := a.srv.Office.GrantEventRole(ctx, admin, office.RoleGrant{EventID: e, UserID: gone.ID, Role: office.RoleDirector}); err != nil {
				t.Fatal(err)
			}
		}
		web := []mxPrincipal{browser("anonymous", "", "anon", 0), browser("user", "", "user", plain.ID), browser("admin", "", "admin", root.ID)}
		for _, sd := range sides {
			for _, role := range office.EventRoleNames {
				web = append(web, browser(sd.tag+":"+role, sd.tag, role, sd.staff[role].ID))
			}
		}
		// A director who was disabled keeps a session cookie; it is the public's.
		dis := browser("甲:director(disabled)", "甲", "disabled", gone.ID)
		if err := a.store.DB(ctx).Model(&gone).Update("disabled", true).Error; err != nil {
			t.Fatal(err)
		}
		web = append(web, dis)
		// A bearer token sent to a web route is not a session: the public.
		web = append(web, mxPrincipal{name: "甲:results-token-on-web", side: "甲", role: "anon", client: a.newClient(), bearer: sideA.secrets[office.ScopeResults]})

		apiPs := []mxPrincipal{{name: "no-token", role: "anon", client: a.newClient()}}
		// The API never reads the session cookie: a signed-in administrator is the public there.
		apiPs = append(apiPs, mxPrincipal{name: "admin-cookie", role: "anon", client: web[2].client})
		for _, sd := range sides {
			for _, scope := range office.TokenScopes {
				apiPs = append(apiPs, mxPrincipal{name: sd.tag + ":token-" + scope, side: sd.tag, scope: scope, client: a.newClient(), bearer: sd.secrets[scope]})
			}
		}
		apiPs = append(apiPs, mxPrincipal{name: "甲:token-revoked", side: "甲", scope: "revoked", client: a.newClient(), bearer: sideA.secrets["revoked"]})
		for _, p := range web {
			a.csrfToken(p.client) // the CSRF cookie, fetched once
		}

		before := routeFingerprint(t, a)
		var mu sync.Mutex
		var results []mxResult
		var failures []string
		holes := map[int]bool{}
		record := func(r mxResult, want mxWant, fail string) {
			mu.Lock()
			defer mu.Unlock()
			if discover {
				results = append(results, r)
				return
			}
			if fail == "" {
				return
			}
			full := fmt.Sprintf("%s as %s on %s: %s", r.route, r.principal, r.side, fail)
			for i, h := range knownHolesBeingFixed {
				if h.route == r.route && containsAll(full, strings.Split(h.match, " && ")) {
					holes[i] = true
					t.Logf("known hole (%s): %s as %s on %s: %s", h.item, r.route, r.principal, r.side, fail)
					return
				}
			}
			if r.path == "" { // a body probe: its message says who sent what
				failures = append(failures, fmt.Sprintf("%s: %s", r.route, fail))
				return
			}
			failures = append(failures, fmt.Sprintf("%s as %s on %s's ids (%s): %s", r.route, r.principal, r.side, r.path, fail))
		}

		routes := a.srv.Echo.Routes()
		seen := map[string]bool{}
		type job struct {
			route, method string
			p             mxPrincipal
			sd            *matrixSide
			want          mxWant
			isAPI         bool
			cond          bool // with If-None-Match: * and a future If-Modified-Since
		}
		var reads, writes []job
		for _, r := range routes {
			if r.Method == "echo_route_not_found" {
				continue // the group's own 404 answer (api.go), not a route
			}
			key := r.Method + " " + r.Path
			method := r.Method
			spec, ok := routeExpectations[key]
			if r.Method == http.MethodHead {
				// HEAD answers as GET does (issue 21 item 12).
				spec, ok = routeExpectations["GET "+r.Path]
			}
			if !ok {
				t.Errorf("route %s has no expectation: add a line to routeExpectations in web/route_matrix_test.go saying who may use it", key)
				continue
			}
			seen[key] = true
			if strings.HasPrefix(spec, "skip:") {
				continue
			}
			isAPI := strings.HasPrefix(r.Path, api.APIPrefix+"/")
			ps := web
			if isAPI {
				ps = apiPs
			}
			for _, sd := range targets {
				if sd.only != nil && !sd.only(r.Path) {
					continue
				}
				for _, p := range ps {
					var want mxWant
					if isAPI {
						want = expectAPI(spec, r.Path, p, sd)
					} else {
						want = expectWeb(spec, p, sd)
					}
					if sd == sideB && !slices.Contains([]string{"admin", office.RoleDirector, office.RoleScheduler, office.RoleArbiter, office.RoleRecorder}, p.relation(sd)) &&
						eventScoped(r.Path) && !(isAPI && p.side == sideB.tag) {
						want.unseen = sideB.hiddenNames
					}
					j := job{route: key, method: method, p: p, sd: sd, want: want, isAPI: isAPI}
					switch {
					case method == http.MethodGet || method == http.MethodHead:
						reads = append(reads, j)
						if !want.allowed && slices.Contains(want.status, http.StatusNotFound) {
							// A conditional request learns no more than a
							// plain one: visibility is decided first (item 3).
							c := j
							c.cond = true
							reads = append(reads, c)
						}
					case !want.allowed || discover:
						writes = append(writes, j)
					}
				}
			}
		}
		for key, spec := range routeExpectations {
			if !seen[key] && !strings.HasPrefix(spec, "skip:") {
				t.Errorf("routeExpectations has %s, which is no longer a route: remove the line", key)
			}
		}

		run := func(j job) {
			path := fillPath(strings.TrimPrefix(j.route, j.method+" "), j.sd)
			var body io.Reader
			ct := ""
			if j.method != http.MethodGet && j.method != http.MethodHead {
				if j.isAPI {
					body, ct = strings.NewReader("{}"), "application/json"
				} else {
					// An empty form: a refused principal must get 403/404
					// whatever the body holds, never 422 (item 4).
					body, ct = strings.NewReader(url.Values{"_csrf": {a.csrfToken(j.p.client)}}.Encode()), "application/x-www-form-urlencoded"
				}
			}
			req, err := http.NewRequest(j.method, a.ts.URL+path, body)
			if err != nil {
				t.Error(err)
				return
			}
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			if j.p.bearer != "" {
				req.Header.Set("Authorization", "Bearer "+j.p.bearer)
			}
			name := j.p.name
			if j.cond {
				req.Header.Set("If-None-Match", "*")
				req.Header.Set("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")
				name += "+conditional"
			}
			resp, err := j.p.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			res := mxResult{route: j.route, principal: name, side: j.sd.tag, path: path, status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(b)}
			record(res, j.want, judge(j.want, res, j.method, j.sd))
		}
		// Reads change nothing: they run four at a time. Refused writes
		// change nothing either (the fingerprint below checks it), so they
		// too run four at a time, after the reads; only in discover mode,
		// where allowed writes run as well, do they run one by one. (One by
		// one, the 2,453 refused writes made this test the web package's
		// last to end.)
		runAll := func(jobs []job, workers int) {
			var wg sync.WaitGroup
			queue := make(chan job)
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for j := range queue {
						run(j)
					}
				}()
			}
			for _, j := range jobs {
				queue <- j
			}
			close(queue)
			wg.Wait()
		}
		runAll(reads, 4)
		if discover {
			runAll(writes, 1)
		} else {
			runAll(writes, 4)
		}
		t.Logf("%d reads and %d refused writes over %d routes", len(reads), len(writes), len(routes))

		if discover {
			sort.Slice(results, func(i, j int) bool {
				if results[i].route != results[j].route {
					return results[i].route < results[j].route
				}
				return results[i].side+results[i].principal < results[j].side+results[j].principal
			})
			for _, r := range results {
				fmt.Printf("MX\t%s\t%s\t%s\t%d\t%s\n", r.route, r.side, r.principal, r.status, r.location)
			}
			return
		}
		// Foreign ids in bodies: refused exactly as missing ones. Sent
		// after the matrix (they are writes), one by one.
		clients := map[string]*http.Client{}
		for _, p := range web {
			clients[p.name] = p.client
		}
		probeForeignBodyIDs(t, a, sides, clients, func(route, msg string) {
			record(mxResult{route: route, principal: "staff", side: "the other side"}, mxWant{}, msg)
		})

		sort.Strings(failures)
		for _, f := range failures {
			t.Error(f)
		}
		for i, h := range knownHolesBeingFixed {
			if !holes[i] {
				t.Errorf("known hole no longer seen (remove it from knownHolesBeingFixed): %+v", h)
			}
		}
		after := routeFingerprint(t, a)
		for tb, n := range before {
			if after[tb] != n {
				t.Errorf("refused requests changed table %s: %d rows, then %d", tb, n, after[tb])
			}
		}
	})
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// eventScoped says whether a route shows an event's own pages (the player
// registry and rating lists name every player, published or not).
func eventScoped(pattern string) bool {
	for _, p := range []string{"/events/:id", "/league/", "/stages/", "/embed/", "/games/", api.APIPrefix + "/events/:id", api.APIPrefix + "/league-classes/", api.APIPrefix + "/games/"} {
		if strings.HasPrefix(pattern, p) {
			return true
		}
	}
	return false
}

// judge says what is wrong with an answer ("" when nothing).
func judge(want mxWant, r mxResult, method string, target *matrixSide) string {
	for _, n := range want.unseen {
		if strings.Contains(r.body, n) {
			return fmt.Sprintf("the answer shows %q of an unpublished draw", n)
		}
	}
	write := method != http.MethodGet && method != http.MethodHead
	switch {
	case r.status >= 500:
		return fmt.Sprintf("%d (server error)", r.status)
	case want.allowed:
		// 409: the principal may use the route, the state says not now
		// (a class already published).
		if r.status >= 400 && r.status != http.StatusConflict {
			return fmt.Sprintf("%d, want 2xx/3xx", r.status)
		}
		return ""
	case write && r.status < 400 && !strings.HasPrefix(r.location, "/login"):
		return fmt.Sprintf("a refused write answered %d (Location %q)", r.status, r.location)
	case write && r.status == http.StatusUnprocessableEntity:
		return "422 to a principal who may not use the route (permission before validation)"
	case want.login:
		if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/login") {
			return fmt.Sprintf("%d (Location %q), want 303 to /login", r.status, r.location)
		}
		return ""
	case !slices.Contains(want.status, r.status):
		return fmt.Sprintf("%d, want %v", r.status, want.status)
	}
	if want.hidden {
		// A refused principal learns nothing of a draft: no name of it in the answer.
		for _, n := range target.names {
			if strings.Contains(r.body, n) {
				return fmt.Sprintf("the answer names %q of a draft it may not see", n)
			}
		}
	}
	return ""
}

// mxMissing is an id no row has: what a foreign id must answer like.
const mxMissing = 99999999

// bodyProbe is a write of the acting side's staff on their own route with
// an id of the other side in the form (or in the path's second id): the
// id does not belong to the route's stage, class, board or event, so it
// must be refused exactly as an id no row has — same status, and nothing
// of the other side in the answer (issue 21 item 1: "same for every route
// that takes a game, board, entrant or class id in its body").
type bodyProbe struct {
	role  string
	route string                                     // the route's pattern (for knownHolesBeingFixed)
	path  func(own *matrixSide, id int64) string     // id: the foreign or missing id when it is in the path
	form  func(own *matrixSide, id int64) url.Values // id: the foreign or missing id
	id    func(foreign *matrixSide) int64
}

func bodyProbes() []bodyProbe {
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	stage := func(suffix string) func(*matrixSide, int64) string {
		return func(o *matrixSide, _ int64) string { return "/stages/" + n(o.stage) + suffix }
	}
	board := func(suffix string) func(*matrixSide, int64) string {
		return func(o *matrixSide, _ int64) string {
			return "/day/classes/" + n(o.dayClass) + "/rounds/1/boards/1" + suffix
		}
	}
	desk := func(suffix string) func(*matrixSide, int64) string {
		return func(o *matrixSide, _ int64) string { return "/events/" + n(o.day) + "/day/" + suffix }
	}
	form := func(kv ...string) func(*matrixSide, int64) url.Values {
		return func(_ *matrixSide, id int64) url.Values {
			v := url.Values{}
			for i := 0; i < len(kv); i += 2 {
				if kv[i+1] == "ID" {
					v.Set(kv[i], n(id))
				} else {
					v.Set(kv[i], kv[i+1])
				}
			}
			return v
		}
	}
	game := func(f *matrixSide) int64 { return f.game }
	// The quick result of the own stage's decided game, seen at a version
	// that is not the newest: the stale (409) answer is what leaked.
	quick := func(confirm bool) func(*matrixSide, int64) url.Values {
		return func(o *matrixSide, id int64) url.Values {
			v := url.Values{"game": {o.gameLabel}, "game_id": {n(id)}, "version": {"99"}, "reason": {office.ReasonResignation}, "winner": {n(o.players[0])}}
			if confirm {
				v.Set("confirm", "1")
			}
			return v
		}
	}
	dayGame := func(f *matrixSide) int64 { return f.dayGame }
	dayPlayer := func(f *matrixSide) int64 { return f.dayPlayer }
	return []bodyProbe{
		{office.RoleDirector, "POST /stages/:id/result", stage("/result"), quick(true), game},
		{office.RoleRecorder, "POST /stages/:id/result", stage("/result"), quick(false), game},
		{office.RoleRecorder, "POST /day/classes/:cid/rounds/:n/boards/:b", board(""), form("game_id", "ID", "version", "99", "result", "sente_win"), dayGame},
		{office.RoleDirector, "POST /day/classes/:cid/rounds/:n/boards/:b/preview", board("/preview"), form("game_id", "ID", "version", "99", "result", "sente_win"), dayGame},
		{office.RoleDirector, "POST /day/classes/:cid/rounds/:n/boards/:b/toss", board("/toss"), form("game_id", "ID", "version", "0", "tosser", "1", "fu", "3", "to", "2"), dayGame},
		{office.RoleDirector, "POST /league/:cid/result", func(o *matrixSide, _ int64) string { return "/league/" + n(o.class) + "/result" },
			form("game", "ID", "version", "99", "result", "sente_win", "confirm", "1"), func(f *matrixSide) int64 { return f.leagueGame }},
		{office.RoleArbiter, "POST /games/:id/rulings", func(o *matrixSide, _ int64) string { return "/games/" + n(o.openGame) + "/rulings" },
			form("supersedes", "ID", "kind", "other", "reason", "取消", "version", "0", "correction_confirm", "1"), func(f *matrixSide) int64 { return f.ruling }},
		{office.RoleDirector, "POST /events/:id/tokens/:tid/revoke", func(o *matrixSide, id int64) string {
			return "/events/" + n(o.knockout) + "/tokens/" + n(id) + "/revoke"
		},
			form(), func(f *matrixSide) int64 { return f.token }},
		{office.RoleDirector, "POST /stages/:id/entrants/:eid/remove", func(o *matrixSide, id int64) string {
			return "/stages/" + n(o.stage) + "/entrants/" + n(id) + "/remove"
		},
			form(), func(f *matrixSide) int64 { return f.entrant }},
		{office.RoleDirector, "POST /stages/:id/withdraw", stage("/withdraw"), form("player_id", "ID", "reason", "体調不良", "correction_confirm", "1"),
			func(f *matrixSide) int64 { return f.players[0] }},
		{office.RoleDirector, "POST /events/:id/day/checkin", desk("checkin"), form("player_id", "ID", "state", "present"), dayPlayer},
		{office.RoleDirector, "POST /events/:id/day/withdraw", desk("withdraw"), form("player_id", "ID"), dayPlayer},
		{office.RoleDirector, "POST /events/:id/day/reception/undo", desk("reception/undo"), form("player_id", "ID"), dayPlayer},
		{office.RoleDirector, "POST /events/:id/day/fee", desk("fee"), form("player_id", "ID", "fee_status", "paid", "fee_amount", "1000"), dayPlayer},
		{office.RoleDirector, "POST /events/:id/day/fee-category", desk("fee-category"), form("player_id", "ID", "fee_category", "full"), dayPlayer},
		{office.RoleDirector, "POST /events/:id/day/move", desk("move"), func(o *matrixSide, id int64) url.Values {
			return url.Values{"player_id": {n(o.dayPlayer)}, "class_id": {n(id)}}
		}, func(f *matrixSide) int64 { return f.dayClass }},
	}
}

// probeForeignBodyIDs runs every bodyProbe both ways (甲's staff with 乙's
// ids, 乙's staff with 甲's) and reports what answers differently from a
// missing id.
func probeForeignBodyIDs(t *testing.T, a *testApp, sides []*matrixSide, clients map[string]*http.Client, fail func(route, msg string)) {
	t.Helper()
	for _, pr := range bodyProbes() {
		for i, own := range sides {
			foreign := sides[1-i]
			c := clients[own.tag+":"+pr.role]
			send := func(id int64) (*http.Response, string) {
				f := pr.form(own, id)
				f.Set("_csrf", a.csrfToken(c))
				return a.do(c, http.MethodPost, pr.path(own, id), strings.NewReader(f.Encode()), "application/x-www-form-urlencoded")
			}
			fid := pr.id(foreign)
			mresp, _ := send(mxMissing)
			fresp, fbody := send(fid)
			what := fmt.Sprintf("%s:%s with %s's id %d", own.tag, pr.role, foreign.tag, fid)
			t.Logf("%s %s: foreign %d, missing %d", pr.route, what, fresp.StatusCode, mresp.StatusCode)
			switch {
			case fresp.StatusCode < 400 || fresp.StatusCode >= 500:
				fail(pr.route, fmt.Sprintf("%s: %d (the foreign id was taken)", what, fresp.StatusCode))
			case fresp.StatusCode != mresp.StatusCode:
				fail(pr.route, fmt.Sprintf("%s: %d, but a missing id answers %d", what, fresp.StatusCode, mresp.StatusCode))
			}
			for _, name := range foreign.names {
				if strings.Contains(fbody, name) {
					fail(pr.route, fmt.Sprintf("%s: the answer names %q of the other side", what, name))
					break
				}
			}
		}
	}
}
