// Package archtest holds tests about the shape of the code base itself.
package archtest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pureRooms may not reach a framework, a database, HTTP, the clock or global
// randomness (ARCHITECTURE.md, "Rooms").
var pureRooms = []string{"rules", "adjudication", "pairing", "league", "rating"}

// forbiddenImports are import-path prefixes a pure room may not depend on,
// directly or through another package.
var forbiddenImports = []string{
	"gorm.io/",
	"github.com/labstack/echo",
	"github.com/a-h/templ",
	"database/sql",
	"net/http",
	"kisen/office",
	"kisen/store",
	"kisen/web",
	"kisen/migrations",
	"kisen/config",
}

// forbiddenCalls are package-level functions that read the clock or a
// global random source.
var forbiddenCalls = map[string][]string{
	"time":         {"Now", "Since", "Until", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc"},
	"math/rand":    {"Int", "Intn", "Int31", "Int31n", "Int63", "Int63n", "Uint32", "Uint64", "Float32", "Float64", "Perm", "Shuffle", "Seed", "Read", "NormFloat64", "ExpFloat64"},
	"math/rand/v2": {"Int", "IntN", "Int32", "Int32N", "Int64", "Int64N", "Uint32", "Uint32N", "Uint64", "Uint64N", "UintN", "N", "Float32", "Float64", "Perm", "Shuffle", "NormFloat64", "ExpFloat64"},
	"crypto/rand":  {"Read", "Int", "Prime", "Text"},
}

func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Dir(filepath.Dir(file))
}

func forbidden(dep string) bool {
	for _, bad := range forbiddenImports {
		if dep == bad || strings.HasPrefix(dep, bad+"/") || (strings.HasSuffix(bad, "/") && strings.HasPrefix(dep, bad)) {
			return true
		}
	}
	return false
}

type listedPackage struct {
	ImportPath string
	Deps       []string
}

func TestPureRoomsImportNoFramework(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	for _, room := range pureRooms {
		cmd := exec.Command("go", "list", "-json", "./"+room+"/...")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", room, err)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p listedPackage
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("decode go list output: %v", err)
			}
			for _, dep := range p.Deps {
				if forbidden(dep) {
					t.Errorf("%s depends on %s; pure rooms may not", p.ImportPath, dep)
				}
			}
		}
	}
}

func TestPureRoomsUseNoClockOrGlobalRandomness(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	for _, room := range pureRooms {
		files, err := filepath.Glob(filepath.Join(root, room, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		sub, _ := filepath.Glob(filepath.Join(root, room, "*", "*.go"))
		files = append(files, sub...)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			checkFile(t, f)
		}
	}
}

func checkFile(t *testing.T, path string) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	for _, v := range violations(fset, file) {
		t.Errorf("%s reads the clock or global randomness; take it as an argument", v)
	}
}

// violations lists the calls in file that read the clock or a global random
// source, as "position: package.Func".
func violations(fset *token.FileSet, file *ast.File) []string {
	local := map[string]string{} // local name → import path
	for _, imp := range file.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if _, watched := forbiddenCalls[p]; !watched {
			continue
		}
		name := filepath.Base(p)
		if p == "math/rand/v2" {
			name = "rand"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = p
	}
	var found []string
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		p, ok := local[id.Name]
		if !ok {
			return true
		}
		for _, fn := range forbiddenCalls[p] {
			if sel.Sel.Name == fn {
				found = append(found, fmt.Sprintf("%s: %s.%s", fset.Position(sel.Pos()), p, fn))
			}
		}
		return true
	})
	return found
}

// TestPurityCheckCatchesViolations makes sure the clock check can fail.
func TestPurityCheckCatchesViolations(t *testing.T) {
	t.Parallel()
	src := "package x\nimport (\n\"time\"\nr \"math/rand\"\n)\nfunc f() { _ = time.Now(); _ = r.Intn(3); _ = time.Duration(1) }\n"
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := violations(fset, file); len(got) != 2 {
		t.Fatalf("expected 2 violations (time.Now, rand.Intn), found %v", got)
	}
}

// TestForbiddenImportListMatches makes sure the dependency check can fail:
// the web room does import net/http, so the same matching must flag it.
func TestForbiddenImportListMatches(t *testing.T) {
	t.Parallel()
	for _, dep := range []string{"gorm.io/gorm", "net/http", "github.com/labstack/echo/v4", "kisen/store"} {
		if !forbidden(dep) {
			t.Errorf("%s should be forbidden in a pure room", dep)
		}
	}
	for _, dep := range []string{"strings", "kisen/rules", "net/http2x", "kisen/storefront"} {
		if forbidden(dep) {
			t.Errorf("%s should be allowed in a pure room", dep)
		}
	}
}
