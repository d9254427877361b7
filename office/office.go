// Package office holds the use cases people perform — record a player,
// draw a bracket, record a result, rule on a game — each one transaction
// over the store and the pure rooms.
package office

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/store"
)

// Sentinel errors; web maps them to 404, 409, 403 and 422.
var (
	ErrNotFound  = store.ErrNotFound
	ErrConflict  = store.ErrConflict
	ErrForbidden = errors.New("forbidden")
	ErrInvalid   = errors.New("invalid input")
)

// Office runs the use cases. It holds no per-request or process-only state.
type Office struct {
	store *store.Store
	now   func() time.Time
	// drawBudget bounds one league draw's search (LeagueDrawTimeBudget).
	drawBudget time.Duration
	views      *viewCache // brackets and league tables by event revision (view_cache.go)
	// passwords is the argon2id cost of new password hashes made by
	// Accounts (DefaultPasswordParams; tests lower it).
	passwords PasswordParams
}

// New returns the use cases over s; now is the clock (time.Now in the server).
func New(s *store.Store, now func() time.Time) *Office {
	return &Office{store: s, now: now, drawBudget: LeagueDrawTimeBudget, views: &viewCache{}, passwords: DefaultPasswordParams}
}

// UsePasswordParams makes Accounts hash new passwords with p from now on.
// Only tests call it, with a cheap set, so that the hundreds of accounts
// the suite creates and signs in cost microseconds instead of a strong
// hash each (64 MiB, and slower still under -race); `kisen serve` never
// does (TestOffice_NewHashesPasswordsWithTheDefaultCost). Hashes carry
// their parameters, so verifying is the same whatever made them.
func (o *Office) UsePasswordParams(p PasswordParams) { o.passwords = p }

// Store exposes the store for read-only queries by the web layer's views.
func (o *Office) Store() *store.Store { return o.store }

// Now is the office's clock.
func (o *Office) Now() time.Time { return o.now() }

// Actor is who performs a use case. The zero Actor is the public.
type Actor struct {
	UserID      int64
	Login       string
	DisplayName string
	Admin       bool
	// Token is set when a program acts through an API token
	// (api_token.go): then the token's grant decides, never the user's
	// roles.
	Token *TokenGrant
	// RecorderToken is the secret of a game's recorder link (issue 26,
	// record_live.go): it admits its holder as that game's recorder only.
	RecorderToken string
}

// Anonymous reports whether the actor is the public (not signed in).
func (a Actor) Anonymous() bool { return a.UserID == 0 }

// RequireAdmin fails with ErrForbidden unless the actor is an administrator.
func (a Actor) RequireAdmin() error {
	if a.Anonymous() || !a.Admin {
		return fmt.Errorf("administrator required: %w", ErrForbidden)
	}
	return nil
}

// RequireUser fails with ErrForbidden unless someone is signed in.
func (a Actor) RequireUser() error {
	if a.Anonymous() {
		return fmt.Errorf("sign-in required: %w", ErrForbidden)
	}
	return nil
}

// FieldError says what is wrong with one input field. Code is a message id
// (in web/site/locales) so the user reads it in their language; Line is set for
// rows of an imported file.
type FieldError struct {
	Line  int            // 0 when not from a file
	Field string         // form field or CSV column
	Code  string         // message id, e.g. "error.required"
	Args  map[string]any // template data for the message
}

// ValidationError collects every field error of one request; nothing was
// written when it is returned.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Fields))
	for _, f := range e.Fields {
		if f.Line > 0 {
			parts = append(parts, fmt.Sprintf("line %d %s: %s", f.Line, f.Field, f.Code))
		} else {
			parts = append(parts, fmt.Sprintf("%s: %s", f.Field, f.Code))
		}
	}
	return "invalid input: " + strings.Join(parts, "; ")
}

// Unwrap lets errors.Is(err, ErrInvalid) hold.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Add records one field error.
func (e *ValidationError) Add(line int, field, code string, args map[string]any) {
	e.Fields = append(e.Fields, FieldError{Line: line, Field: field, Code: code, Args: args})
}

// OrNil returns e when it holds errors, else nil.
func (e *ValidationError) OrNil() error {
	if e == nil || len(e.Fields) == 0 {
		return nil
	}
	return e
}

// FieldMessage returns the message code for a field, or "".
func (e *ValidationError) FieldMessage(field string) string {
	for _, f := range e.Fields {
		if f.Field == field && f.Line == 0 {
			return f.Code
		}
	}
	return ""
}
