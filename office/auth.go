package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kisen/store"
)

// Login rate limit: after LoginMaxFailures failed attempts within
// LoginWindow for one login, or from one client address, further attempts
// for it are refused until the oldest failure leaves the window. The
// failures live in the database so the limit holds across processes.
const (
	LoginMaxFailures = 5
	LoginWindow      = 15 * time.Minute
)

var (
	// ErrLoginFailed: the login or the password is wrong, or the account is
	// disabled — one answer for all three, so it reveals nothing.
	ErrLoginFailed = errors.New("login or password is wrong")
	// ErrRateLimited: too many failures; web answers 429.
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
// The attempt is counted first (store.ReserveLoginAttempt: one statement
// that inserts it only while the login's and the address's windows have
// room), and only then is the password checked, outside any transaction
// (argon2id takes a noticeable time and must not hold a lock). So however
// many attempts race, at most LoginMaxFailures per login, and per address,
// are ever checked in a window. A success forgets the login's attempts.
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
	if err := a.o.store.ClearLoginFailures(ctx, login); err != nil {
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
// with ErrRateLimited when either window is full.
func (a Accounts) reserve(ctx context.Context, login, ip string, now time.Time) error {
	ok, err := a.o.store.ReserveLoginAttempt(ctx, login, ip, now, now.Add(-LoginWindow), LoginMaxFailures, LoginMaxFailures)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("sign-in %q from %s: %w", login, ip, ErrRateLimited)
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
	New     string
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
	checkNewPassword(v, "new", "new2", in.New, in.New2, u.Login)
	ok, err := a.verify(u.PasswordHash, in.Current)
	if err != nil && !errors.Is(err, ErrBadHash) {
		return err
	}
	if ok {
		// The right current password: the attempt reserved above is not a
		// failure.
		if err := a.o.store.ClearLoginFailures(ctx, u.Login); err != nil {
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
