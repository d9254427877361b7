package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"kisen/rules"
)

// maxPerftDepth bounds --depth: perft(8) from the start is 4·10^11 leaves,
// hours of work; deeper asks are almost surely mistakes.
const maxPerftDepth = 8

type perftResult struct {
	SFEN    string  `json:"sfen"`
	Depth   int     `json:"depth"`
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
}

// runRulesPerft counts the leaves of the legal-move tree of a position:
//
//	kisen rules perft [--sfen SFEN] --depth N [--divide]
//
// It prints one JSON line; with --divide, first one "USI count" line per
// root move, sorted by USI. Exit 2 on bad flags or a bad SFEN.
func runRulesPerft(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("kisen rules perft", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sfen := fs.String("sfen", "startpos", "position in SFEN, or startpos")
	depth := fs.Int("depth", -1, "plies to search (0.."+fmt.Sprint(maxPerftDepth)+")")
	divide := fs.Bool("divide", false, "print the count below each root move first")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(e.stdout, "usage: kisen rules perft [--sfen SFEN] --depth N [--divide]")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(e.stderr, "kisen rules perft: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen rules perft: unexpected argument %q (quote the SFEN: --sfen \"...\")\n", fs.Arg(0))
		return 2
	}
	depthSet := false
	fs.Visit(func(f *flag.Flag) { depthSet = depthSet || f.Name == "depth" })
	switch {
	case !depthSet:
		fmt.Fprintln(e.stderr, "kisen rules perft: --depth is required")
		return 2
	case *depth < 0 || *depth > maxPerftDepth:
		fmt.Fprintf(e.stderr, "kisen rules perft: --depth %d is out of range: want 0..%d\n", *depth, maxPerftDepth)
		return 2
	}
	pos, err := rules.ParseSFEN(*sfen)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rules perft: --sfen: %v\n", err)
		return 2
	}

	start := time.Now()
	res := perftResult{SFEN: pos.SFEN(), Depth: *depth}
	if *divide && *depth > 0 {
		type line struct {
			usi   string
			nodes uint64
		}
		var lines []line
		for _, m := range pos.LegalMoves(nil) {
			if err := ctx.Err(); err != nil {
				fmt.Fprintf(e.stderr, "kisen rules perft: %v\n", err)
				return 1
			}
			u := pos.Do(m)
			n := pos.Perft(*depth - 1)
			pos.Undo(m, u)
			lines = append(lines, line{m.USI(), n})
			res.Nodes += n
		}
		slices.SortFunc(lines, func(a, b line) int {
			switch {
			case a.usi < b.usi:
				return -1
			case a.usi > b.usi:
				return 1
			}
			return 0
		})
		for _, l := range lines {
			fmt.Fprintf(e.stdout, "%s %d\n", l.usi, l.nodes)
		}
	} else {
		res.Nodes = pos.Perft(*depth)
	}
	res.Seconds = time.Since(start).Seconds()
	out, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rules perft: %v\n", err)
		return 1
	}
	fmt.Fprintln(e.stdout, string(out))
	return 0
}
