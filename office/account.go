package office

import (
	"strings"
	"sync/atomic"
)

// Accounts are the use cases that create or check passwords: first-run
// setup, sign-in, password change and user administration. They carry
// the argon2id cost used for new hashes, so tests can pass a cheaper set
// explicitly instead of flipping a global switch.
type Accounts struct {
	o       *Office
	params  PasswordParams
	checked *atomic.Int64 // counts password checks when set (WithCheckCounter)
}

// WithCheckCounter returns a copy of a that adds one to n for every
// password it checks against a stored hash — how tests prove the sign-in
// limit holds under parallel attempts.
func (a Accounts) WithCheckCounter(n *atomic.Int64) Accounts {
	a.checked = n
	return a
}

// Accounts returns the account use cases with the office's password cost
// (DefaultPasswordParams unless a test lowered it: UsePasswordParams).
func (o *Office) Accounts() Accounts { return Accounts{o: o, params: o.passwords} }

// Params is the argon2id cost a's new password hashes are made with.
func (a Accounts) Params() PasswordParams { return a.params }

// AccountsWithParams returns the account use cases hashing new passwords
// with p (tests use a cheap set; hashes carry their parameters, so
// verification works whatever set made them).
func (o *Office) AccountsWithParams(p PasswordParams) Accounts { return Accounts{o: o, params: p} }

// Password and login rules (documented in docs/accounts-and-events.md).
const (
	MinPasswordLen  = 10   // characters
	MaxPasswordLen  = 1024 // bytes; argon2 takes any length, this bounds the work per request
	MinLoginLen     = 3
	MaxLoginLen     = 32
	MaxDisplayName  = 100 // characters
	loginRuneSymbol = "._-"
)

// NormalizeLogin trims and lower-cases a login as typed, so "Sato" and
// "sato" are one account.
func NormalizeLogin(login string) string { return strings.ToLower(strings.TrimSpace(login)) }

// checkNewPassword applies the password rules a tag cannot state, once
// the password's own tags passed (at least 10 characters, at most 1024
// bytes): not the login itself, typed the same twice.
func checkNewPassword(v *ValidationError, field, confirmField, pw, confirm, login string) {
	if v.FieldMessage(field) != "" {
		return
	}
	// domain rule, not a tag: a password that is the login, or typed
	// differently the second time, is compared with another field.
	switch {
	case login != "" && strings.EqualFold(strings.TrimSpace(pw), login):
		v.Add(0, field, "accounts.err.password_is_login", nil)
	case pw != confirm:
		v.Add(0, confirmField, "accounts.err.password_mismatch", nil)
	}
}
