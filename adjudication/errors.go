package adjudication

import (
	"errors"
	"fmt"
)

// ErrInvalid marks every error caused by bad input; callers map it to exit
// code 2 or HTTP 422 with errors.Is.
var ErrInvalid = errors.New("invalid input")

// FieldError is bad input in one field. Field is a JSON path such as
// "fouls[1].ply" or "settings.time.byoyomi".
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// prefixed puts prefix in front of the field of a FieldError (so errors
// from a nested value name the whole path); other errors get it as context.
func prefixed(prefix string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		field := prefix
		if fe.Field != "" {
			field = prefix + "." + fe.Field
		}
		return &FieldError{Field: field, Msg: fe.Msg}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}
