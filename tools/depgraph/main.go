//go:build ignore

// depgraph: which web file uses which web file's declarations.
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
	"sort"
	"strings"
)

func main() {
	dir := os.Args[1]
	withTests := len(os.Args) > 2
	fset := token.NewFileSet()
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") && !withTests {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.ParseComments)
		if err != nil {
			panic(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(err error) {}}
	pkg, _ := conf.Check("kisen/web", fset, files, info)
	edges := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		// package-level or method/field
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string][]string{}
		}
		edges[from][to] = append(edges[from][to], obj.Name())
	}
	var fs []string
	for f := range edges {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	for _, f := range fs {
		var tos []string
		for t, names := range edges[f] {
			u := map[string]bool{}
			var un []string
			for _, n := range names {
				if !u[n] {
					u[n] = true
					un = append(un, n)
				}
			}
			sort.Strings(un)
			tos = append(tos, t+"{"+strings.Join(un, ",")+"}")
		}
		sort.Strings(tos)
		fmt.Println(f, "->", strings.Join(tos, " "))
	}
}
