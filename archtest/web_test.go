package archtest

import (
	"slices"
	"strings"
	"testing"
)

// Data flows one way, web → office → store (shared/ARCHITECTURE.md;
// docs/rooms.md, "web reads through office"): no package under kisen/web
// imports kisen/store in its own (non-test) files, so every read a page
// makes goes through an office use case that knows who is asking. Tests
// may still seed fixtures through the store. There is no exception.

// webStoreImporters names the web packages among ps whose non-test files
// import kisen/store.
func webStoreImporters(ps []listedImports) []string {
	var bad []string
	for _, p := range ps {
		if (p.ImportPath == "kisen/web" || strings.HasPrefix(p.ImportPath, "kisen/web/")) && slices.Contains(p.Imports, "kisen/store") {
			bad = append(bad, p.ImportPath)
		}
	}
	return bad
}

func TestWebStoreImportersFindsTheImporter(t *testing.T) {
	ps := []listedImports{
		{ImportPath: "kisen/web", Imports: []string{"kisen/office"}},
		{ImportPath: "kisen/web/day", Imports: []string{"kisen/office", "kisen/store"}},
		{ImportPath: "kisen/webhooks", Imports: []string{"kisen/store"}},
		{ImportPath: "kisen/cmd/kisen", Imports: []string{"kisen/store", "kisen/web"}},
	}
	if got, want := webStoreImporters(ps), []string{"kisen/web/day"}; !slices.Equal(got, want) {
		t.Errorf("webStoreImporters = %v, want %v", got, want)
	}
}

func TestWebImportsNoStore(t *testing.T) {
	ps := goList(t, "kisen/web/...")
	if len(ps) == 0 {
		t.Fatal("go list kisen/web/...: no packages")
	}
	for _, p := range webStoreImporters(ps) {
		t.Errorf("%s imports kisen/store: read through an office use case instead (docs/rooms.md)", p)
	}
}
