package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"kisen/pairing"
)

// bracketEntrant is one entrant in the JSON of `kisen draw bracket`
// (docs/knockout.md).
type bracketEntrant struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	Seed       int    `json:"seed,omitempty"`
	Master     string `json:"master,omitempty"`
	EnterRound int    `json:"enter_round,omitempty"`
}

// bracketInput is what the command reads; with --check it also reads the
// output fields (slots, …), so a drawn bracket can be fed straight back.
type bracketInput struct {
	Entrants           []bracketEntrant `json:"entrants"`
	Stage              string           `json:"stage"`
	Seed               *uint64          `json:"seed"`
	DrawDate           string           `json:"draw_date"`
	MasterStudentPairs [][2]string      `json:"master_student_pairs"`
	ThirdPlace         bool             `json:"third_place"`
	Consolation        bool             `json:"consolation"`
	Qualifiers         int              `json:"qualifiers"`
}

// bracketOutput is the drawn bracket. Every input field is echoed so the
// output is a complete record and valid --check input.
type bracketOutput struct {
	bracketInput
	Size       int                 `json:"size"`
	Method     string              `json:"method"`
	Slots      []*string           `json:"slots"`
	Round1     []bracketGame       `json:"round1"`
	Byes       []bracketBye        `json:"byes"`
	Violations []pairing.Violation `json:"violations"`
}

type bracketGame struct {
	Game    string    `json:"game"`
	Slots   [2]int    `json:"slots"`
	Players [2]string `json:"players"`
}

type bracketBye struct {
	Slot   int    `json:"slot"`
	Player string `json:"player"`
}

type bracketCheckOutput struct {
	OK         bool                `json:"ok"`
	Violations []pairing.Violation `json:"violations"`
}

type bracketNoDraw struct {
	Error   string      `json:"error"`
	Reason  string      `json:"reason"`
	Players []string    `json:"players"`
	Pairs   [][2]string `json:"pairs"`
	Groups  [][]string  `json:"groups"`
	Barrier []string    `json:"barrier"`
}

const drawBracketUsage = `usage: kisen draw bracket [--check] < input.json

Draws a knockout bracket (抽選) from the JSON on stdin and prints it as JSON.
With --check, reads a bracket (the draw's output, or entrants, stage and
slots) and reports every rule it breaks.

Exit codes: 0 ok; 1 no valid draw exists / --check found violations;
2 bad input (the message names the field). See docs/knockout.md.
`

func runDrawBracket(_ context.Context, e env) int {
	fs := flag.NewFlagSet("draw bracket", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, drawBracketUsage) }
	check := fs.Bool("check", false, "judge the bracket on stdin instead of drawing")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen draw bracket: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	raw, err := io.ReadAll(e.stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket: read stdin: %v\n", err)
		return 2
	}
	if *check {
		return checkBracket(e, raw)
	}
	var in bracketInput
	if err := decodeBracketJSON(raw, &in, true); err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket: %v\n", err)
		return 2
	}
	if in.Seed == nil {
		fmt.Fprintln(e.stderr, "kisen draw bracket: seed: missing; the witnesses' number (0 … 18446744073709551615) makes the draw reproducible")
		return 2
	}
	req, err := bracketRequest(in)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket: %v\n", err)
		return 2
	}
	b, err := pairing.Draw(req)
	var nv *pairing.NoValidDrawError
	switch {
	case errors.As(err, &nv):
		fmt.Fprintf(e.stderr, "kisen draw bracket: %v\n", err)
		out := bracketNoDraw{Error: "no_valid_draw", Reason: nv.Reason, Players: nv.Players,
			Pairs: nv.Pairs, Groups: nv.Groups, Barrier: nv.Barrier}
		if out.Pairs == nil {
			out.Pairs = [][2]string{}
		}
		if out.Barrier == nil {
			out.Barrier = []string{}
		}
		if out.Groups == nil {
			out.Groups = [][]string{}
		}
		writeBracketJSON(e.stdout, out)
		return 1
	case err != nil:
		fmt.Fprintf(e.stderr, "kisen draw bracket: %v\n", err)
		return 2
	}
	v, err := pairing.Check(b, req)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket: check the draw: %v\n", err)
		return 2
	}
	writeBracketJSON(e.stdout, bracketOutputOf(in, b, v))
	return 0
}

func checkBracket(e env, raw []byte) int {
	var in bracketOutput
	if err := decodeBracketJSON(raw, &in, false); err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket --check: %v\n", err)
		return 2
	}
	if in.Slots == nil {
		fmt.Fprintln(e.stderr, "kisen draw bracket --check: slots: missing; give the bracket to judge")
		return 2
	}
	req, err := bracketRequest(in.bracketInput)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket --check: %v\n", err)
		return 2
	}
	b := pairing.Bracket{Stage: req.Stage, Size: len(in.Slots), Slots: make([]string, len(in.Slots))}
	for i, s := range in.Slots {
		if s != nil {
			if *s == "" {
				fmt.Fprintf(e.stderr, "kisen draw bracket --check: slots[%d]: empty id; write null for a bye\n", i)
				return 2
			}
			b.Slots[i] = *s
		}
	}
	v, err := pairing.Check(b, req)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw bracket --check: %v\n", err)
		return 2
	}
	if v == nil {
		v = []pairing.Violation{}
	}
	writeBracketJSON(e.stdout, bracketCheckOutput{OK: len(v) == 0, Violations: v})
	if len(v) > 0 {
		for _, x := range v {
			fmt.Fprintf(e.stderr, "%s: %s\n", x.Rule, x.Message)
		}
		return 1
	}
	return 0
}

// decodeBracketJSON decodes one JSON value, naming the field at fault.
// strict rejects unknown fields (a typo such as "seeds" must not silently
// draw without seeds); --check accepts the output's extra fields.
func decodeBracketJSON(raw []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case err == nil:
		if dec.More() {
			return errors.New("input: more than one JSON value")
		}
		return nil
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "input"
		}
		if field == "seed" {
			return fmt.Errorf("seed: %s is not a whole number in 0 … 18446744073709551615", typeErr.Value)
		}
		return fmt.Errorf("%s: a JSON %s cannot be a %s", field, typeErr.Value, typeErr.Type)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("input: bad JSON at byte %d: %v", syntaxErr.Offset, err)
	case errors.Is(err, io.EOF):
		return errors.New("input: empty; expected a JSON object on stdin")
	}
	return fmt.Errorf("input: %v", err) // e.g. `json: unknown field "seeds"`
}

func bracketRequest(in bracketInput) (pairing.DrawRequest, error) {
	st, err := pairing.ParseStage(in.Stage)
	if err != nil {
		return pairing.DrawRequest{}, err
	}
	req := pairing.DrawRequest{Stage: st, MasterStudentPairs: in.MasterStudentPairs,
		ThirdPlace: in.ThirdPlace, Consolation: in.Consolation, Qualifiers: in.Qualifiers}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	if in.DrawDate != "" {
		d, err := time.Parse(time.DateOnly, in.DrawDate)
		if err != nil {
			return pairing.DrawRequest{}, fmt.Errorf("draw_date: %q is not a date like 2026-11-21", in.DrawDate)
		}
		req.DrawDate = d
	}
	for _, x := range in.Entrants {
		req.Entrants = append(req.Entrants, pairing.Entrant{ID: x.ID, Name: x.Name, Seed: x.Seed, Master: x.Master, EnterRound: x.EnterRound})
	}
	return req, nil
}

func bracketOutputOf(in bracketInput, b pairing.Bracket, v []pairing.Violation) bracketOutput {
	out := bracketOutput{bracketInput: in, Size: b.Size, Method: b.Method, Slots: make([]*string, len(b.Slots)),
		Round1: []bracketGame{}, Byes: []bracketBye{}, Violations: v}
	if out.MasterStudentPairs == nil {
		out.MasterStudentPairs = [][2]string{}
	}
	if out.Violations == nil {
		out.Violations = []pairing.Violation{}
	}
	for i := range b.Slots {
		if b.Slots[i] != "" {
			out.Slots[i] = &b.Slots[i]
		}
	}
	for s := 0; s < len(b.Slots); s += 2 {
		x, y := b.Slots[s], b.Slots[s+1]
		switch {
		case x != "" && y != "":
			out.Round1 = append(out.Round1, bracketGame{Game: fmt.Sprintf("R1-G%d", s/2+1), Slots: [2]int{s, s + 1}, Players: [2]string{x, y}})
		case x != "":
			out.Byes = append(out.Byes, bracketBye{Slot: s, Player: x})
		case y != "":
			out.Byes = append(out.Byes, bracketBye{Slot: s + 1, Player: y})
		}
	}
	return out
}

func writeBracketJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
