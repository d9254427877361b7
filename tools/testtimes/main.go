// Command testtimes reads the output of `go test -json` and prints how long
// each package took, how many tests it ran, and the slowest tests. Given two
// files it prints them side by side (before → after). It is how the figures
// in docs/development.md ("How the suite stays fast") are produced.
//
//	go test -race -json -count=1 ./... > /tmp/after.json
//	go run ./tools/testtimes /tmp/after.json
//	go run ./tools/testtimes -n 30 -sub /tmp/before.json /tmp/after.json
//	go test -json ./office | go run ./tools/testtimes
//
// Lines that are not JSON (build output, a panic) are skipped. The package
// time is go test's own (the test binary's run, not its build). A test's
// time is also go test's own: a parallel test's time starts when it
// resumes, so waiting for a free slot is not counted; and a test whose
// subtests all call t.Parallel() ends before they run, so its own time is
// near zero — list subtests (-sub) to see where such a test spends it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
}

type pkg struct {
	elapsed float64
	result  string // pass, fail, skip, or "" when the package never ended
	runs    int    // every test and subtest started
	top     int    // top-level tests started
	skips   int
	fails   int
}

type test struct {
	pkg, name string
	elapsed   float64
}

type run struct {
	pkgs  map[string]*pkg
	tests []test
}

func read(r io.Reader) (*run, error) {
	out := &run{pkgs: map[string]*pkg{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if json.Unmarshal(line, &e) != nil || e.Package == "" {
			continue
		}
		p := out.pkgs[e.Package]
		if p == nil {
			p = &pkg{}
			out.pkgs[e.Package] = p
		}
		if e.Test == "" {
			switch e.Action {
			case "pass", "fail", "skip":
				p.elapsed, p.result = e.Elapsed, e.Action
			}
			continue
		}
		switch e.Action {
		case "run":
			p.runs++
			if !strings.Contains(e.Test, "/") {
				p.top++
			}
		case "skip":
			p.skips++
		case "fail":
			p.fails++
		}
		switch e.Action {
		case "pass", "fail", "skip":
			out.tests = append(out.tests, test{pkg: e.Package, name: e.Test, elapsed: e.Elapsed})
		}
	}
	return out, sc.Err()
}

func readFile(name string) (*run, error) {
	if name == "-" {
		return read(os.Stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}

func main() {
	n := flag.Int("n", 20, "how many of the slowest tests to list")
	sub := flag.Bool("sub", false, "list subtests among the slowest too (default: top-level tests only)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: testtimes [-n 20] [-sub] [file.json | before.json after.json]   (stdin when no file)")
		flag.PrintDefaults()
	}
	flag.Parse()
	files := flag.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	if len(files) > 2 {
		flag.Usage()
		os.Exit(2)
	}
	var runs []*run
	for _, f := range files {
		r, err := readFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testtimes:", err)
			os.Exit(1)
		}
		runs = append(runs, r)
	}
	if len(runs) == 1 {
		printOne(os.Stdout, runs[0])
	} else {
		printTwo(os.Stdout, runs[0], runs[1])
	}
	fmt.Println()
	last := runs[len(runs)-1]
	printSlowest(os.Stdout, last, *n, *sub)
}

func names(runs ...*run) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range runs {
		for name := range r.pkgs {
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

func printOne(w io.Writer, r *run) {
	fmt.Fprintf(w, "%-32s %9s %7s %7s %6s %5s  %s\n", "package", "seconds", "tests", "runs", "skips", "fails", "result")
	var total float64
	var runs, top, skips, fails int
	for _, name := range names(r) {
		p := r.pkgs[name]
		if p.result == "" && p.runs == 0 {
			continue
		}
		total += p.elapsed
		runs += p.runs
		top += p.top
		skips += p.skips
		fails += p.fails
		fmt.Fprintf(w, "%-32s %9.1f %7d %7d %6d %5d  %s\n", name, p.elapsed, p.top, p.runs, p.skips, p.fails, orNone(p.result))
	}
	fmt.Fprintf(w, "%-32s %9.1f %7d %7d %6d %5d\n", "total (sum of packages)", total, top, runs, skips, fails)
	fmt.Fprintln(w, "tests: top-level tests started; runs: tests and subtests started (`run` actions)")
}

func printTwo(w io.Writer, a, b *run) {
	fmt.Fprintf(w, "%-32s %9s %9s %7s %15s %15s\n", "package", "before s", "after s", "×", "runs", "skips")
	var ta, tb float64
	var ra, rb, sa, sb int
	for _, name := range names(a, b) {
		pa, pb := a.pkgs[name], b.pkgs[name]
		if pa == nil {
			pa = &pkg{}
		}
		if pb == nil {
			pb = &pkg{}
		}
		if pa.runs == 0 && pb.runs == 0 && pa.result == "" && pb.result == "" {
			continue
		}
		ta += pa.elapsed
		tb += pb.elapsed
		ra += pa.runs
		rb += pb.runs
		sa += pa.skips
		sb += pb.skips
		fmt.Fprintf(w, "%-32s %9.1f %9.1f %7s %15s %15s%s\n", name, pa.elapsed, pb.elapsed, ratio(pa.elapsed, pb.elapsed),
			fmt.Sprintf("%d → %d", pa.runs, pb.runs), fmt.Sprintf("%d → %d", pa.skips, pb.skips), failNote(pa, pb))
	}
	fmt.Fprintf(w, "%-32s %9.1f %9.1f %7s %15s %15s\n", "total (sum of packages)", ta, tb, ratio(ta, tb),
		fmt.Sprintf("%d → %d", ra, rb), fmt.Sprintf("%d → %d", sa, sb))
	fmt.Fprintln(w, "runs: tests and subtests started (`run` actions); ×: before / after")
}

func printSlowest(w io.Writer, r *run, n int, sub bool) {
	var ts []test
	for _, t := range r.tests {
		if sub || !strings.Contains(t.name, "/") {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].elapsed > ts[j].elapsed })
	if len(ts) > n {
		ts = ts[:n]
	}
	what := "top-level tests"
	if sub {
		what = "tests and subtests"
	}
	fmt.Fprintf(w, "slowest %d %s:\n", len(ts), what)
	for _, t := range ts {
		fmt.Fprintf(w, "%8.2fs  %-24s %s\n", t.elapsed, strings.TrimPrefix(t.pkg, "kisen/"), t.name)
	}
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", a/b)
}

func orNone(s string) string {
	if s == "" {
		return "(no end)"
	}
	return s
}

func failNote(a, b *pkg) string {
	if a.fails == 0 && b.fails == 0 && a.result != "fail" && b.result != "fail" {
		return ""
	}
	return fmt.Sprintf("  FAILS %d → %d", a.fails, b.fails)
}
