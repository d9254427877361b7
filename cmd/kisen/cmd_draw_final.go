package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"kisen/pairing"
)

// finalQualifier is one qualifier in the JSON of `kisen draw final`
// (docs/final-knockout.md).
type finalQualifier struct {
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`
	Block    string `json:"block,omitempty"`
	Place    int    `json:"place,omitempty"`
	Standing int    `json:"standing,omitempty"`
	Club     string `json:"club,omitempty"`
	Master   string `json:"master,omitempty"`
	Family   string `json:"family,omitempty"`
}

// finalInput is what the command reads: the qualifiers of a class's
// preliminary, the class's relation settings and the witnesses' number.
type finalInput struct {
	Seed       *uint64          `json:"seed"`
	Relations  poolsRelations   `json:"relations"`
	Qualifiers []finalQualifier `json:"qualifiers"`
}

type finalNotKept struct {
	Relation string    `json:"relation"`
	Players  [2]string `json:"players"`
	Names    [2]string `json:"names"`
	Game     int       `json:"game"`
}

type finalTogether struct {
	Block   string    `json:"block"`
	Players [2]string `json:"players"`
	Names   [2]string `json:"names"`
	Round   int       `json:"round"`
	Slots   [2]int    `json:"slots"`
}

// finalOutput repeats the input, so `--check` reads it back as it is.
type finalOutput struct {
	finalInput
	Size     int             `json:"size"`
	Slots    []string        `json:"slots"`
	NotKept  []finalNotKept  `json:"not_kept"`
	Together []finalTogether `json:"together"`
}

type finalCheckOutput struct {
	OK         bool                `json:"ok"`
	Violations []pairing.Violation `json:"violations"`
}

type finalNoPlacement struct {
	Error   string   `json:"error"`
	Reason  string   `json:"reason"`
	Players []string `json:"players"`
}

const drawFinalUsage = `usage: kisen draw final [--check] < input.json

Places the qualifiers of a class's preliminary into its final knockout
(決勝トーナメント): block winners on the top seed lines, players of one block
in different halves, relations the class keeps apart out of round 1. Without
blocks, "standing" (the preliminary's order) gives the seed lines. With
--check, judges the placement in "slots" (the command's own output, perhaps
edited) instead.

Exit codes: 0 ok; 1 no placement keeps the "never" relations / --check found
violations; 2 bad input (the message names the field). See
docs/final-knockout.md.
`

func runDrawFinal(_ context.Context, e env) int {
	fs := flag.NewFlagSet("draw final", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, drawFinalUsage) }
	check := fs.Bool("check", false, "judge the placement in \"slots\" instead of drawing")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	name := "kisen draw final"
	if *check {
		name += " --check"
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "%s: unexpected argument %q (the input is read from stdin)\n", name, fs.Arg(0))
		return 2
	}
	raw, err := io.ReadAll(io.LimitReader(e.stdin, maxPoolsInputBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: read stdin: %v\n", name, err)
		return 2
	}
	if len(raw) > maxPoolsInputBytes {
		fmt.Fprintf(e.stderr, "%s: input: larger than the limit of %d bytes (1 MiB)\n", name, maxPoolsInputBytes)
		return 2
	}
	var in finalInput
	var slots []string
	if *check {
		var out finalOutput
		err = decodeBracketJSON(raw, &out, false)
		in, slots = out.finalInput, out.Slots
		if err == nil && slots == nil {
			err = errors.New("slots: missing; --check judges the placement given in \"slots\"")
		}
	} else {
		err = decodeBracketJSON(raw, &in, true)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if in.Seed == nil && !*check {
		fmt.Fprintf(e.stderr, "%s: seed: missing; the witnesses' number (0 … 18446744073709551615) makes the draw reproducible\n", name)
		return 2
	}
	req := finalRequest(in)
	if *check {
		return checkFinal(e, name, req, slots)
	}
	p, err := pairing.PlaceFinal(req)
	var np *pairing.NoFinalPlacementError
	switch {
	case errors.As(err, &np):
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		writeBracketJSON(e.stdout, finalNoPlacement{Error: "no_placement", Reason: np.Reason, Players: np.Players})
		return 1
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	out := finalOutput{finalInput: in, Size: p.Size, Slots: p.Slots, NotKept: []finalNotKept{}, Together: []finalTogether{}}
	for _, x := range p.NotKept {
		out.NotKept = append(out.NotKept, finalNotKept(x))
	}
	for _, x := range p.Together {
		out.Together = append(out.Together, finalTogether(x))
	}
	writeBracketJSON(e.stdout, out)
	return 0
}

func checkFinal(e env, name string, req pairing.FinalRequest, slots []string) int {
	v, err := pairing.CheckFinal(req, slots)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if v == nil {
		v = []pairing.Violation{}
	}
	writeBracketJSON(e.stdout, finalCheckOutput{OK: len(v) == 0, Violations: v})
	if len(v) > 0 {
		for _, x := range v {
			fmt.Fprintf(e.stderr, "%s: %s\n", x.Rule, x.Message)
		}
		return 1
	}
	return 0
}

func finalRequest(in finalInput) pairing.FinalRequest {
	req := pairing.FinalRequest{Relations: pairing.RelationPolicy{Club: pairing.Policy(in.Relations.Club),
		MasterStudent: pairing.Policy(in.Relations.MasterStudent), FellowDisciple: pairing.Policy(in.Relations.FellowDisciple),
		Family: pairing.Policy(in.Relations.Family)}}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	for _, q := range in.Qualifiers {
		req.Qualifiers = append(req.Qualifiers, pairing.FinalQualifier(q))
	}
	return req
}
