package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"kisen/rules"
)

// runRulesMoves lists every legal move of a position, sorted by USI, one
// per line: the USI move, the record-style text and the compact text of
// the federation's notation (seed 002):
//
//	kisen rules moves [--sfen SFEN] [--prev SQUARE]
//	5i5h	▲５八玉	58玉
//
// --prev is the previous move's destination ("76" or a USI move such as
// 7g7f), so a capture there is written 同. Exit 2 on a bad SFEN or flag.
func runRulesMoves(_ context.Context, e env) int {
	fs := flag.NewFlagSet("kisen rules moves", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sfen := fs.String("sfen", "startpos", "position in SFEN, or startpos")
	prevText := fs.String("prev", "", "previous move's destination (76) or USI move (7g7f), for 同")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(e.stdout, "usage: kisen rules moves [--sfen SFEN] [--prev SQUARE]")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(e.stderr, "kisen rules moves: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen rules moves: unexpected argument %q (quote the SFEN: --sfen \"...\")\n", fs.Arg(0))
		return 2
	}
	pos, err := rules.ParseSFEN(*sfen)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rules moves: --sfen: %v\n", err)
		return 2
	}
	prev, err := parsePrevSquare(*prevText)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rules moves: --prev: %v\n", err)
		return 2
	}
	moves := pos.LegalMoves(nil)
	slices.SortFunc(moves, func(a, b rules.Move) int { return strings.Compare(a.USI(), b.USI()) })
	var out strings.Builder
	for _, m := range moves {
		fmt.Fprintf(&out, "%s\t%s\t%s\n", m.USI(), pos.MoveText(m, prev, rules.StyleRecord), pos.MoveText(m, prev, rules.StyleCompact))
	}
	fmt.Fprint(e.stdout, out.String())
	return 0
}

// parsePrevSquare reads "76", "７六" or a USI move's destination.
func parsePrevSquare(s string) (rules.Square, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return rules.NoSquare, nil
	}
	if m, err := rules.ParseUSIMove(s); err == nil {
		return m.To(), nil
	}
	rs := []rune(s)
	if len(rs) == 2 {
		f, okF := digit(rs[0])
		r, okR := digit(rs[1])
		if okF && okR {
			return rules.NewSquare(f, r), nil
		}
	}
	return rules.NoSquare, fmt.Errorf("%q is not a square (76) or a USI move (7g7f)", s)
}

func digit(r rune) (int, bool) {
	switch {
	case r >= '1' && r <= '9':
		return int(r - '0'), true
	case r >= '１' && r <= '９':
		return int(r - '０'), true
	}
	if i := strings.IndexRune("一二三四五六七八九", r); i >= 0 {
		return i/len("一") + 1, true
	}
	return 0, false
}
