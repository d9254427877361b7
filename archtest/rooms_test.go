package archtest

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The rooms under office/ (office/day, office/ratings; docs/rooms.md)
// import office; office never imports one of them, directly or through
// another package, or the arrows would turn into a cycle the day a room
// is imported back. officetest is for tests only.

// roomsIn lists the office rooms among deps (import paths under
// kisen/office/), sorted.
func roomsIn(deps []string) []string {
	var rooms []string
	for _, d := range deps {
		if strings.HasPrefix(d, "kisen/office/") {
			rooms = append(rooms, d)
		}
	}
	slices.Sort(rooms)
	return rooms
}

func TestRoomsIn(t *testing.T) {
	t.Parallel()
	got := roomsIn([]string{"kisen/store", "kisen/office/ratings", "kisen/office", "kisen/officer", "kisen/office/day"})
	if want := []string{"kisen/office/day", "kisen/office/ratings"}; !slices.Equal(got, want) {
		t.Errorf("roomsIn = %v, want %v", got, want)
	}
}

type listedImports struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func goList(t *testing.T, pattern string) []listedImports {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", pattern)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	var ps []listedImports
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedImports
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestOfficeImportsNoRoom(t *testing.T) {
	t.Parallel()
	ps := goList(t, "kisen/office")
	if len(ps) != 1 {
		t.Fatalf("go list kisen/office: %d packages", len(ps))
	}
	if rooms := roomsIn(ps[0].Deps); len(rooms) > 0 {
		t.Errorf("kisen/office depends on %v; rooms import office, never the other way round", rooms)
	}
}

func TestOfficetestOnlyInTests(t *testing.T) {
	t.Parallel()
	for _, p := range goList(t, "./...") {
		if p.ImportPath != "kisen/office/officetest" && slices.Contains(p.Imports, "kisen/office/officetest") {
			t.Errorf("%s imports kisen/office/officetest outside its tests", p.ImportPath)
		}
	}
}
