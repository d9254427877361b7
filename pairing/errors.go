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
	Reason string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// Unwrap lets errors.Is(err, ErrInvalid) hold for every FieldError.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
