//go:build ignore

// exporter: renames (exports) objects declared in the "site" files of
// package web that are used from other files. Usage:
//   go run exporter.go DIR SITEFILES.txt [MAP.txt] [-n]
// MAP lines: "old new" to choose names (old is Name or Type.name).
package main

import (
	"bufio"
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
	"unicode"
)

func main() {
	dir := os.Args[1]
	siteB, _ := os.ReadFile(os.Args[2])
	site := map[string]bool{}
	for _, f := range strings.Fields(string(siteB)) {
		site[f] = true
	}
	manual := map[string]string{}
	dry := false
	for _, a := range os.Args[3:] {
		if a == "-n" {
			dry = true
			continue
		}
		f, _ := os.Open(a)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			p := strings.Fields(sc.Text())
			if len(p) == 2 {
				manual[p[0]] = p[1]
			}
		}
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
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(err error) { fmt.Fprintln(os.Stderr, "typeerr:", err) }}
	pkg, _ := conf.Check("kisen/web", fset, files, info)
	base := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	// key of an object
	keyOf := func(obj types.Object) string {
		switch o := obj.(type) {
		case *types.Func:
			if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
				t := sig.Recv().Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					return n.Obj().Name() + "." + o.Name()
				}
			}
		case *types.Var:
			if o.IsField() {
				return "field." + o.Name() + "@" + fmt.Sprint(fset.Position(o.Pos()))
			}
		}
		return obj.Name()
	}
	_ = keyOf
	isPkgLevelOrMember := func(obj types.Object) bool {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return false
		}
		if obj.Parent() == pkg.Scope() {
			return true
		}
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return true
		}
		if f, ok := obj.(*types.Func); ok && f.Type().(*types.Signature).Recv() != nil {
			return true
		}
		return false
	}
	need := map[types.Object]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Exported() || !isPkgLevelOrMember(obj) {
			continue
		}
		if !site[base(obj.Pos())] || site[base(id.Pos())] {
			continue
		}
		need[obj] = true
	}
	// a field's or method's display name
	disp := func(obj types.Object) string {
		switch o := obj.(type) {
		case *types.Func:
			if r := o.Type().(*types.Signature).Recv(); r != nil {
				t := r.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					return n.Obj().Name() + "." + o.Name()
				}
			}
		case *types.Var:
			if o.IsField() {
				// find the struct's type name by position
				for _, obj2 := range info.Defs {
					if tn, ok := obj2.(*types.TypeName); ok && tn.Pkg() == pkg {
						if st, ok := tn.Type().Underlying().(*types.Struct); ok {
							for i := 0; i < st.NumFields(); i++ {
								if st.Field(i) == o {
									return tn.Name() + "." + o.Name()
								}
							}
						}
					}
				}
				return "?." + o.Name()
			}
		}
		return obj.Name()
	}
	rename := map[types.Object]string{}
	var list []string
	for obj := range need {
		d := disp(obj)
		n := manual[d]
		if n == "" {
			r := []rune(obj.Name())
			r[0] = unicode.ToUpper(r[0])
			n = string(r)
		}
		if n == obj.Name() {
			continue
		}
		rename[obj] = n
		list = append(list, d+" -> "+n)
	}
	sort.Strings(list)
	// collisions: package scope names, and member names of same type
	coll := false
	for obj, n := range rename {
		d := disp(obj)
		if strings.Contains(d, ".") {
			tname := strings.SplitN(d, ".", 2)[0]
			if t := pkg.Scope().Lookup(tname); t != nil {
				if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(t.Type()), true, pkg, n); o != nil {
					fmt.Println("COLLISION member", d, "->", n)
					coll = true
				}
			}
		} else if pkg.Scope().Lookup(n) != nil {
			fmt.Println("COLLISION pkg", d, "->", n)
			coll = true
		}
	}
	for _, l := range list {
		fmt.Println(l)
	}
	if coll || dry {
		return
	}
	// edits
	type edit struct {
		off int
		old string
		new string
	}
	edits := map[string][]edit{}
	templNames := map[string]map[string]string{} // templ file -> old->new
	add := func(id *ast.Ident, obj types.Object) {
		n, ok := rename[obj]
		if !ok {
			return
		}
		p := fset.Position(id.Pos())
		if strings.HasSuffix(p.Filename, "_templ.go") {
			tf := strings.TrimSuffix(p.Filename, "_templ.go") + ".templ"
			if templNames[tf] == nil {
				templNames[tf] = map[string]string{}
			}
			templNames[tf][obj.Name()] = n
		}
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, id.Name, n})
	}
	for id, obj := range info.Defs {
		if obj != nil {
			add(id, obj)
		}
	}
	for id, obj := range info.Uses {
		if obj != nil {
			add(id, obj)
		}
	}
	for fn, es := range edits {
		b, _ := os.ReadFile(fn)
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		last := -1
		for _, e := range es {
			if e.off == last {
				continue
			}
			last = e.off
			if string(b[e.off:e.off+len(e.old)]) != e.old {
				panic(fn)
			}
			b = append(b[:e.off], append([]byte(e.new), b[e.off+len(e.old):]...)...)
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
		for o, n := range m {
			re := regexp.MustCompile(`(^|[^\w"])` + regexp.QuoteMeta(o) + `\b`)
			s = re.ReplaceAllString(s, "${1}"+n)
		}
		os.WriteFile(tf, []byte(s), 0o644)
		fmt.Println("templ edited", tf, m)
	}
}
