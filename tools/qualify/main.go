//go:build ignore

// qualify: in package web's non-site files, prefix uses of package-level
// objects declared in site files with "site.".
package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	dir := os.Args[1]
	prefix := os.Args[3]
	siteB, _ := os.ReadFile(os.Args[2])
	site := map[string]bool{}
	for _, f := range strings.Fields(string(siteB)) {
		site[f] = true
	}
	fset := token.NewFileSet()
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, m := range matches {
		f, err := parser.ParseFile(fset, m, nil, parser.ParseComments)
		if err != nil {
			panic(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(err error) { fmt.Fprintln(os.Stderr, "typeerr:", err) }}
	pkg, _ := conf.Check("kisen/web", fset, files, info)
	base := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	edits := map[string][]int{}
	templNames := map[string]map[string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || obj.Parent() != pkg.Scope() {
			continue
		}
		if !site[base(obj.Pos())] || site[base(id.Pos())] {
			continue
		}
		if !obj.Exported() {
			fmt.Println("UNEXPORTED", obj.Name(), "used in", fset.Position(id.Pos()))
			continue
		}
		p := fset.Position(id.Pos())
		if strings.HasSuffix(p.Filename, "_templ.go") {
			tf := strings.TrimSuffix(p.Filename, "_templ.go") + ".templ"
			if templNames[tf] == nil {
				templNames[tf] = map[string]bool{}
			}
			templNames[tf][obj.Name()] = true
		}
		edits[p.Filename] = append(edits[p.Filename], p.Offset)
	}
	for fn, offs := range edits {
		b, _ := os.ReadFile(fn)
		sort.Sort(sort.Reverse(sort.IntSlice(offs)))
		for _, o := range offs {
			b = append(b[:o], append([]byte(prefix+"."), b[o:]...)...)
		}
		os.WriteFile(fn, b, 0o644)
	}
	for tf, m := range templNames {
		b, err := os.ReadFile(tf)
		if err != nil {
			fmt.Println("no templ", tf)
			continue
		}
		s := string(b)
		for o := range m {
			re := regexp.MustCompile(`(^|[^.\w"])` + regexp.QuoteMeta(o) + `\b`)
			s = re.ReplaceAllString(s, "${1}"+prefix+"."+o)
		}
		os.WriteFile(tf, []byte(s), 0o644)
		var ns []string
		for o := range m {
			ns = append(ns, o)
		}
		sort.Strings(ns)
		fmt.Println("templ", tf, ns)
	}
}
