package web

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/routes.md is the whole site at a glance: every route the router
// holds, the room that serves it and the handler, read from the router
// itself (routes.go registers them). The test fails when the page and the
// router differ; `make routes-doc` writes the page again.

// webRoom names the package under kisen/web that a handler's echo name
// ("kisen/web/day.(*Room).DayPage-fm") comes from; the handler's own name
// is handlerFuncName's (conditional_routes_test.go).
var webRoom = regexp.MustCompile(`^kisen/web(?:/(\w+))?\.`)

func roomAndHandler(name string) (string, string) {
	m := webRoom.FindStringSubmatch(name)
	if m == nil {
		return "—", handlerFuncName(name)
	}
	room := m[1]
	if room == "" {
		room = "web"
	}
	return room, handlerFuncName(name)
}

func TestRoomAndHandler(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][2]string{
		"kisen/web/day.(*Room).DayPage-fm":              {"day", "DayPage"},
		"kisen/web.(*Server).home-fm":                   {"web", "home"},
		"kisen/web/site.(*Server).Static-fm":            {"site", "Static"},
		"kisen/web/games.(*Room).GameRoutes.func1":      {"games", "GameRoutes"},
		"github.com/labstack/echo/v4.WrapHandler.func1": {"—", "WrapHandler"},
		"kisen/web/api.(*Room).apiGame-fm":              {"api", "apiGame"},
	} {
		if r, h := roomAndHandler(name); r != want[0] || h != want[1] {
			t.Errorf("roomAndHandler(%q) = %s, %s; want %s, %s", name, r, h, want[0], want[1])
		}
	}
}

func routesPage(a *testApp) string {
	type row struct{ path, method, room, handler string }
	var rows []row
	for _, r := range a.srv.Echo.Routes() {
		if r.Method == "HEAD" && strings.HasPrefix(r.Path, "/api/") || r.Method == "echo_route_not_found" {
			continue // the API answers HEAD wherever GET (api.go); echo's own fallbacks
		}
		room, h := roomAndHandler(r.Name)
		rows = append(rows, row{r.Path, r.Method, room, h})
	}
	slices.SortFunc(rows, func(x, y row) int {
		if c := strings.Compare(x.path, y.path); c != 0 {
			return c
		}
		return strings.Compare(x.method, y.method)
	})
	rows = slices.Compact(rows)
	var b strings.Builder
	b.WriteString("# Every route\n\n")
	b.WriteString("Every route of `kisen serve`, read from the router (`web/routes.go` registers them), with the\n")
	b.WriteString("room that serves it ([rooms.md](rooms.md), \"The web rooms\") and the handler. Written by\n")
	b.WriteString("`make routes-doc`; `TestRoutesDoc` fails when this page and the router differ. Who may use each\n")
	b.WriteString("route is the route matrix's (`web/route_matrix_test.go`).\n\n")
	b.WriteString("| path | method | room | handler |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | `%s` |\n", r.path, r.method, r.room, r.handler)
	}
	fmt.Fprintf(&b, "\n%d routes.\n", len(rows))
	return b.String()
}

func TestRoutesDoc(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	got := routesPage(a)
	path := filepath.Join("..", "docs", "routes.md")
	if os.Getenv("KISEN_WRITE_ROUTES_DOC") == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("docs/routes.md differs from the router: run `make routes-doc` and commit it")
	}
}
