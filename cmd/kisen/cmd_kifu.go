package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"kisen/office"
	"kisen/rules/kifu"
)

// runKifu reads and writes game records: kisen kifu check|convert.
func runKifu(ctx context.Context, e env) int {
	return subcommand(ctx, e, "kifu", map[string]command{
		"check":   runKifuCheck,
		"convert": runKifuConvert,
	})
}

// checkLine is one record's line of `kisen kifu check` output.
type checkLine struct {
	File     string `json:"file"`
	Format   string `json:"format"`
	Encoding string `json:"encoding"`
	kifu.Report
}

// readRecordFile reads FILE ("-" is stdin) in the given format (or the
// detected one).
func readRecordFile(e env, name string, f kifu.Format) (kifu.ReadResult, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return kifu.ReadResult{}, err
		}
		defer file.Close()
		r = file
	}
	// The same limits as a record entered on the web or the API (issue 21
	// item 7, docs/input.md): never read more than one byte past them.
	data, err := io.ReadAll(io.LimitReader(r, office.MaxRecordBytes+1))
	if err != nil {
		return kifu.ReadResult{}, err
	}
	if len(data) > office.MaxRecordBytes {
		return kifu.ReadResult{}, fmt.Errorf("larger than the limit of %d bytes for a game record", office.MaxRecordBytes)
	}
	res, err := kifu.Read(data, name, f)
	if err == nil && len(res.Record.Moves()) > office.MaxRecordPlies {
		return kifu.ReadResult{}, fmt.Errorf("%d moves, more than the longest game the rules allow (%d: the 500-move rule and the series of checks it lets finish)", len(res.Record.Moves()), office.MaxRecordPlies)
	}
	return res, err
}

func parseFormatFlag(s string) (kifu.Format, error) {
	if s == "" || s == "auto" {
		return kifu.FormatUnknown, nil
	}
	return kifu.ParseFormat(s)
}

// runKifuCheck replays each record with the rules engine and prints one
// JSON object per record:
//
//	kisen kifu check [--from kif|ki2|csa|usi] FILE…
//
// Bad input: the file, line and reason on stderr, exit 2 (after the
// files that could be read have been reported).
func runKifuCheck(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("kisen kifu check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	from := fs.String("from", "auto", "record format: kif, ki2, csa, usi, or auto (extension, then content)")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(e.stdout, "usage: kisen kifu check [--from FORMAT] FILE…  (FILE - reads stdin)")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(e.stderr, "kisen kifu check: %v\n", err)
		return 2
	}
	f, err := parseFormatFlag(*from)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu check: --from: %v\n", err)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "kisen kifu check: name at least one record file (or - for stdin)")
		return 2
	}
	code := 0
	for _, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(e.stderr, "kisen kifu check: %v\n", err)
			return 1
		}
		res, err := readRecordFile(e, name, f)
		if err != nil {
			fmt.Fprintf(e.stderr, "kisen kifu check: %s: %v\n", name, err)
			code = 2
			continue
		}
		rep, err := kifu.Check(res.Record)
		if err != nil {
			fmt.Fprintf(e.stderr, "kisen kifu check: %s: %v\n", name, err)
			code = 2
			continue
		}
		out, err := json.Marshal(checkLine{File: name, Format: res.Format.String(), Encoding: res.Encoding.String(), Report: rep})
		if err != nil {
			fmt.Fprintf(e.stderr, "kisen kifu check: %s: %v\n", name, err)
			return 1
		}
		fmt.Fprintln(e.stdout, string(out))
	}
	return code
}

// runKifuConvert writes a record in another format on stdout:
//
//	kisen kifu convert --to kif|ki2|csa|usi [--from FORMAT] [--sjis] FILE
//
// What the target format cannot hold (variations in CSA, times in KI2,
// everything but the moves in USI) is named on stderr as a note.
func runKifuConvert(_ context.Context, e env) int {
	fs := flag.NewFlagSet("kisen kifu convert", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	to := fs.String("to", "", "target format: kif, ki2, csa or usi")
	from := fs.String("from", "auto", "source format: kif, ki2, csa, usi, or auto")
	sjis := fs.Bool("sjis", false, "write Shift_JIS instead of UTF-8 (for programs that need .kif in Shift_JIS)")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(e.stdout, "usage: kisen kifu convert --to kif|ki2|csa|usi [--from FORMAT] [--sjis] FILE")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(e.stderr, "kisen kifu convert: %v\n", err)
		return 2
	}
	target, err := kifu.ParseFormat(*to)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu convert: --to: %v\n", err)
		return 2
	}
	f, err := parseFormatFlag(*from)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu convert: --from: %v\n", err)
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "kisen kifu convert: name exactly one record file (or - for stdin)")
		return 2
	}
	name := fs.Arg(0)
	res, err := readRecordFile(e, name, f)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu convert: %s: %v\n", name, err)
		return 2
	}
	text, err := kifu.Write(res.Record, target)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu convert: %s: %v\n", name, err)
		return 2
	}
	for _, loss := range kifu.Losses(res.Record, target) {
		fmt.Fprintf(e.stderr, "kisen kifu convert: note: %s not written: %s\n", name, loss)
	}
	out := []byte(text)
	if *sjis {
		if out, err = kifu.EncodeShiftJIS(text); err != nil {
			fmt.Fprintf(e.stderr, "kisen kifu convert: %s: %v\n", name, err)
			return 2
		}
	}
	if _, err := e.stdout.Write(out); err != nil {
		fmt.Fprintf(e.stderr, "kisen kifu convert: %v\n", err)
		return 1
	}
	return 0
}
