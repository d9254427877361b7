package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/store"
)

// Sign-in limit (issue 21 item 9, docs/accounts-and-events.md). Three
// counters, all over the attempts of the last LoginWindow, all in the
// database so they hold across processes:
//
//   - per (login, address): LoginMaxFailures attempts are free; each
//     further one must wait PairDelay after the previous, doubling with
//     every attempt, at most PairMaxDelay;
//   - per login, from any address: LoginFreeAttempts are free; then
//     LoginDelay after the previous, doubling, at most LoginMaxDelay — so
//     an attack spread over many addresses slows the login, boundedly;
//   - per address, for any login: AddressMaxFailures; then refused until
//     the oldest leaves the window. The ceiling is high, so a venue whose
//     players and staff share one address is never locked out by one
//     person's (or an attacker's) failures: another login from the same
//     address is judged by its own (login, address) and login counters.
//
// A success resets the (login, address) counter only.
const (
	LoginWindow        = 15 * time.Minute
	LoginMaxFailures   = 5
	PairDelay          = 30 * time.Second
	PairMaxDelay       = 10 * time.Minute
	LoginFreeAttempts  = 10
	LoginDelay         = 10 * time.Second
	LoginMaxDelay      = 5 * time.Minute
	AddressMaxFailures = 100
)

// loginBackoff is the wait before the (excess)th attempt beyond the free
// ones: base, 2·base, 4·base, …, at most max.
func loginBackoff(excess int64, base, max time.Duration) time.Duration {
	d := base
	for i := int64(1); i < excess && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

// loginNotBefore is when the next attempt may be made, given the attempts
// in the window (the zero time: now).
func loginNotBefore(c store.LoginCounts) time.Time {
	var nb time.Time
	later := func(t time.Time) {
		if t.After(nb) {
			nb = t
		}
	}
	if c.Pair >= LoginMaxFailures {
		later(c.PairLast.Add(loginBackoff(c.Pair-LoginMaxFailures+1, PairDelay, PairMaxDelay)))
	}
	if c.Login >= LoginFreeAttempts {
		later(c.LoginLast.Add(loginBackoff(c.Login-LoginFreeAttempts+1, LoginDelay, LoginMaxDelay)))
	}
	if c.Address >= AddressMaxFailures {
		later(c.IPFirst.Add(LoginWindow))
	}
	return nb
}

// RateLimitedError says when the next attempt may be made; it is
// ErrRateLimited for errors.Is.
type RateLimitedError struct {
	Login, IP string
	RetryAt   time.Time
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("sign-in %q from %s: too many failed sign-in attempts, next at %s", e.Login, e.IP, e.RetryAt.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimitedError) Is(target error) bool { return target == ErrRateLimited }

// RetryAt is when a refused sign-in may be tried again (ok false for any
// other error).
func RetryAt(err error) (time.Time, bool) {
	var rl *RateLimitedError
	if errors.As(err, &rl) {
		return rl.RetryAt, true
	}
	return time.Time{}, false
}

var (
	// ErrLoginFailed: the login or the password is wrong, or the account is
	// disabled — one answer for all three, so it reveals nothing.
	ErrLoginFailed = errors.New("login or password is wrong")
	// ErrRateLimited: too many failures; web answers 429.
	// RateLimitedError carries when to try again.
	ErrRateLimited = errors.New("too many failed sign-in attempts")
)

// LoginInput is the sign-in form plus the client address.
type LoginInput struct {
	Login    string
	Password string
	IP       string
}

// Login checks a login and password and returns the user.
//
// The attempt is counted first (store.ReserveLoginAttempt: one
// transaction that stores it only when loginNotBefore allows it now), and
// only then is the password checked, outside any transaction (argon2id
// takes a noticeable time and must not hold a lock). So however many
// attempts race, at most LoginMaxFailures per (login, address) are checked
// before the delays start. A success forgets the attempts of that login
// from that address.
func (a Accounts) Login(ctx context.Context, in LoginInput) (store.User, error) {
	login := NormalizeLogin(in.Login)
	now := a.o.now()
	if err := a.reserve(ctx, login, in.IP, now); err != nil {
		return store.User{}, err
	}
	u, err := a.o.store.UserByLogin(ctx, login)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Spend the same work as for a real account so timing does not tell
		// which logins exist.
		a.burnVerify(in.Password)
		return store.User{}, fmt.Errorf("sign-in %q: %w", login, ErrLoginFailed)
	case err != nil:
		return store.User{}, err
	}
	ok, err := a.verify(u.PasswordHash, in.Password)
	if err != nil && !errors.Is(err, ErrBadHash) {
		return store.User{}, err
	}
	if !ok || u.Disabled {
		return store.User{}, fmt.Errorf("sign-in %q: %w", login, ErrLoginFailed)
	}
	if err := a.o.store.ClearLoginFailures(ctx, login, in.IP); err != nil {
		return store.User{}, err
	}
	return u, nil
}

// verify checks a password against its hash; tests count the calls
// (Accounts.Checked) to prove the limit holds in parallel.
func (a Accounts) verify(hash, pw string) (bool, error) {
	if a.checked != nil {
		a.checked.Add(1)
	}
	return VerifyPassword(hash, pw)
}

// reserve counts one attempt for the login and the address, or refuses
// with a RateLimitedError saying when to try again.
func (a Accounts) reserve(ctx context.Context, login, ip string, now time.Time) error {
	retry, ok, err := a.o.store.ReserveLoginAttempt(ctx, login, ip, now, now.Add(-LoginWindow), loginNotBefore)
	if err != nil {
		return err
	}
	if !ok {
		return &RateLimitedError{Login: login, IP: ip, RetryAt: retry}
	}
	return nil
}

// burnVerify verifies against a throwaway hash made with the current
// parameters.
func (a Accounts) burnVerify(pw string) {
	if h, err := HashPassword("", a.params, nil); err == nil {
		_, _ = a.verify(h, pw)
	}
}

// PasswordChange is the form for changing one's own password.
type PasswordChange struct {
	Current string
	New     string `field:"new" validate:"required,min=10,maxbytes=1024" msg:"accounts.err,min=password_short,maxbytes=password_long"`
	New2    string
	IP      string // counts a wrong current password towards the rate limit
}

// ChangePassword sets a new password for the signed-in actor after
// checking the current one. A wrong current password counts as a failed
// sign-in. Other sessions of the user stay signed in (documented).
func (a Accounts) ChangePassword(ctx context.Context, actor Actor, in PasswordChange) error {
	if err := actor.RequireUser(); err != nil {
		return err
	}
	u, err := a.o.store.UserByID(ctx, actor.UserID)
	if err != nil {
		return err
	}
	now := a.o.now()
	if err := a.reserve(ctx, u.Login, in.IP, now); err != nil {
		return err
	}
	v := &ValidationError{}
	checkInput(v, 0, in)
	checkNewPassword(v, "new", "new2", in.New, in.New2, u.Login)
	ok, err := a.verify(u.PasswordHash, in.Current)
	if err != nil && !errors.Is(err, ErrBadHash) {
		return err
	}
	if ok {
		// The right current password: the attempt reserved above is not a
		// failure.
		if err := a.o.store.ClearLoginFailures(ctx, u.Login, in.IP); err != nil {
			return err
		}
	}
	if !ok {
		v.Fields = append([]FieldError{{Field: "current", Code: "accounts.err.current_wrong"}}, v.Fields...)
	} else if strings.TrimSpace(in.New) != "" && in.New == in.Current {
		v.Add(0, "new", "accounts.err.password_same", nil)
	}
	if err := v.OrNil(); err != nil {
		return err
	}
	hash, err := HashPassword(in.New, a.params, nil)
	if err != nil {
		return err
	}
	return a.o.store.Tx(ctx, func(tx *store.Store) error {
		return tx.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &hash}, now)
	})
}
