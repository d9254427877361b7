package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestI18n_EveryKeyInBothLanguages(t *testing.T) {
	t.Parallel()
	m, err := LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	ja, en := m.IDs("ja"), m.IDs("en")
	if len(ja) == 0 {
		t.Fatal("no messages loaded")
	}
	for _, id := range ja {
		if !m.Has("en", id) {
			t.Errorf("message %q has Japanese but no English", id)
		}
	}
	for _, id := range en {
		if !m.Has("ja", id) {
			t.Errorf("message %q has English but no Japanese", id)
		}
	}
}

// usedKey finds message ids used literally in components and handlers:
// T(ctx, "id" …), lz.T("id" …), .T("id" …).
var usedKey = regexp.MustCompile(`\bT\((?:ctx, )?"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"`)

func TestI18n_EveryUsedKeyExists(t *testing.T) {
	t.Parallel()
	m, err := LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !(strings.HasSuffix(path, ".templ") || (strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_templ.go"))) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, match := range usedKey.FindAllStringSubmatch(string(src), -1) {
			checked++
			for _, lang := range Languages {
				if !m.Has(lang, match[1]) {
					t.Errorf("%s uses message %q, missing in %s", path, match[1], lang)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("found no message ids in the sources; the pattern is broken")
	}
}

func TestI18n_MissingKeyIsCaught(t *testing.T) {
	t.Parallel()
	if !usedKey.MatchString(`T(ctx, "nav.players")`) || !usedKey.MatchString(`lz.T("error.not_found")`) {
		t.Fatal("key pattern does not match the forms used in the code")
	}
	m, _ := LoadMessages()
	if m.Has("ja", "no.such.key") {
		t.Fatal("Has reports a key that does not exist")
	}
}
