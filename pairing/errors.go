package pairing

import (
	"errors"
	"fmt"
)

// ErrInvalid marks bad input: the caller (CLI, web form) should answer with
// the field named in the wrapping FieldError, never a server error.
var ErrInvalid = errors.New("invalid input")

// FieldError names the input field that is wrong and why. It wraps
// ErrInvalid so callers can test with errors.Is.
type FieldError struct {
	Field  string // e.g. "entrants[3].seed"
	Reason string // the English sentence of the command line
	// Code and Params say the same for a caller that speaks another
	// language (issue 24 item 3): one of the Field… codes, with the values
	// it names (players by entrant id). "" for input only a program sends.
	Code   string
	Params map[string]any
}

// Codes of FieldError. Params named in brackets.
const (
	FieldTooFewEntrants = "too_few_entrants" // [Count]
	FieldBracketSize    = "bracket_size"     // the field is larger than a bracket may be [Count]
	FieldSeedGap        = "seed_gap"         // seeds must run 1..n [Player, Seed, Want]
	FieldSeedNoLine     = "seed_no_line"     // more seeds than the bracket has lines [Player, Seed]
	FieldEntryNeedsByes = "entry_needs_byes" // a late entry's byes are taken [Player, Seed, Round]
	FieldEntryRound     = "entry_round"      // entry round out of range [Player, Round, Max]
	FieldEntryUnseeded  = "entry_unseeded"   // only seeds enter after round 1 [Player]
	FieldQualifiers     = "qualifiers"       // not a power of two below the size [Qualifiers, Size]
)

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// Unwrap lets errors.Is(err, ErrInvalid) hold for every FieldError.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// codedErr is fieldErr with the code and values a caller translates.
func codedErr(code string, params map[string]any, field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...), Code: code, Params: params}
}
