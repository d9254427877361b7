package archtest

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// The web is in rooms (docs/rooms.md, "The web rooms"): kisen/web/site is
// what they all share and imports none of them; each room imports site
// and only the rooms named for it below; kisen/web (the route table)
// imports every room and no room imports it. The table is the arrows'
// one place: a new arrow is a decision, written here and in
// docs/rooms.md, and it may never close a loop.
var webRoomArrows = map[string][]string{
	"site":      nil,
	"accounts":  {"site"},
	"players":   {"site"},
	"games":     {"site"},
	"leagues":   {"site"},
	"knockouts": {"site", "games", "players"},
	"day":       {"site", "players"},
	"api":       {"site", "players"},
	"live":      {"site", "knockouts", "leagues", "games"},
	"events":    {"site", "day", "games", "knockouts"},
	"teams":     {"site"},
	"recorder":  {"site", "games", "day"},
}

// webArrowBreaches lists the arrows among ps (packages under kisen/web)
// that the table does not allow, as "from → to".
func webArrowBreaches(ps []listedImports, allowed map[string][]string) []string {
	var bad []string
	for _, p := range ps {
		from, ok := strings.CutPrefix(p.ImportPath, "kisen/web/")
		if !ok {
			continue // kisen/web itself: the route table imports every room
		}
		room, _, _ := strings.Cut(from, "/")
		for _, imp := range p.Imports {
			if imp == "kisen/web" {
				bad = append(bad, from+" → web")
				continue
			}
			to, ok := strings.CutPrefix(imp, "kisen/web/")
			if !ok {
				continue
			}
			toRoom, _, _ := strings.Cut(to, "/")
			if toRoom == room {
				continue
			}
			if !slices.Contains(allowed[room], toRoom) {
				bad = append(bad, from+" → "+to)
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// loopIn reports a room that reaches itself through the table's arrows.
func loopIn(allowed map[string][]string) (string, bool) {
	var reaches func(from, target string, seen map[string]bool) bool
	reaches = func(from, target string, seen map[string]bool) bool {
		for _, to := range allowed[from] {
			if to == target {
				return true
			}
			if !seen[to] {
				seen[to] = true
				if reaches(to, target, seen) {
					return true
				}
			}
		}
		return false
	}
	rooms := make([]string, 0, len(allowed))
	for r := range allowed {
		rooms = append(rooms, r)
	}
	sort.Strings(rooms)
	for _, r := range rooms {
		if reaches(r, r, map[string]bool{}) {
			return r, true
		}
	}
	return "", false
}

func TestWebArrowBreachesFindsTheBreach(t *testing.T) {
	t.Parallel()
	ps := []listedImports{
		{ImportPath: "kisen/web", Imports: []string{"kisen/web/games", "kisen/web/site"}},
		{ImportPath: "kisen/web/games", Imports: []string{"kisen/web/site", "kisen/office"}},
		{ImportPath: "kisen/web/site", Imports: []string{"kisen/web/games"}},
		{ImportPath: "kisen/web/players", Imports: []string{"kisen/web"}},
	}
	allowed := map[string][]string{"site": nil, "games": {"site"}, "players": {"site"}}
	got := webArrowBreaches(ps, allowed)
	want := []string{"players → web", "site → games"}
	if !slices.Equal(got, want) {
		t.Errorf("webArrowBreaches = %v, want %v", got, want)
	}
	if r, ok := loopIn(map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}); !ok || r != "a" {
		t.Errorf("loopIn(a→b→c→a) = %q, %v; want a, true", r, ok)
	}
	if r, ok := loopIn(allowed); ok {
		t.Errorf("loopIn(no loop) = %q", r)
	}
}

func TestWebRoomsArrowsRunOneWay(t *testing.T) {
	t.Parallel()
	if r, ok := loopIn(webRoomArrows); ok {
		t.Fatalf("the web rooms' table loops through %s", r)
	}
	if len(webRoomArrows["site"]) != 0 {
		t.Fatalf("site imports rooms %v; it is what they share", webRoomArrows["site"])
	}
	ps := goList(t, "kisen/web/...")
	seen := map[string]bool{}
	for _, p := range ps {
		if r, ok := strings.CutPrefix(p.ImportPath, "kisen/web/"); ok {
			room, _, _ := strings.Cut(r, "/")
			seen[room] = true
		}
	}
	for room := range seen {
		if _, ok := webRoomArrows[room]; !ok {
			t.Errorf("kisen/web/%s is not in the rooms' table (archtest/web_rooms_test.go, docs/rooms.md)", room)
		}
	}
	for _, b := range webArrowBreaches(ps, webRoomArrows) {
		t.Errorf("%s: an arrow the rooms' table does not allow (docs/rooms.md)", b)
	}
}
