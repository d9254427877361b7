package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"kisen/adjudication"
	"kisen/adjudication/analysis"
)

// maxAdjudicateInput bounds stdin; a 500-move KIF record is well under 100 kB.
const maxAdjudicateInput = 8 << 20

const adjudicateUsage = `usage: kisen adjudicate < game.json

Reads one game's facts as JSON on stdin (settings, players, handicap,
remaining times, the record or USI moves, how it ended, foul claims,
rulings, redo count) and prints the outcome as JSON: the result, the
reason, the rule ids and seed articles applied, and for a redo the redo
game's sides and time allowance. See docs/adjudication.md.

Exit codes: 0 outcome printed, 2 bad input (the message names the field).
`

// adjudicateOutput is the outcome with the record's findings, when a
// record was read, so a reader can see what the engine found.
type adjudicateOutput struct {
	adjudication.Outcome
	Findings *adjudication.Findings `json:"findings,omitempty"`
}

func runAdjudicate(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("adjudicate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, adjudicateUsage) }
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen adjudicate: unexpected argument %q (the game comes on stdin)\n", fs.Arg(0))
		return 2
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(e.stderr, "kisen adjudicate: %v\n", err)
		return 1
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxAdjudicateInput+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen adjudicate: reading stdin: %v\n", err)
		return 2
	}
	if len(data) > maxAdjudicateInput {
		fmt.Fprintf(e.stderr, "kisen adjudicate: input: more than %d bytes\n", maxAdjudicateInput)
		return 2
	}
	out, err := adjudicate(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen adjudicate: %v\n", err)
		return 2
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(e.stderr, "kisen adjudicate: writing the outcome: %v\n", err)
		return 1
	}
	return 0
}

// adjudicate is the whole path from JSON to outcome: parse, let the rules
// engine read the record, decide. The web runs the same three calls.
func adjudicate(data []byte) (adjudicateOutput, error) {
	g, err := adjudication.ParseGame(data)
	if err != nil {
		return adjudicateOutput{}, err
	}
	r, err := analysis.Read(g)
	if err != nil {
		return adjudicateOutput{}, err
	}
	o, err := g.Decide(r)
	if err != nil {
		return adjudicateOutput{}, err
	}
	return adjudicateOutput{Outcome: o, Findings: r.Findings}, nil
}
