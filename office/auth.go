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
// It is not one transaction on purpose: the argon2id check takes a
// noticeable time and must not hold a write lock. The failure count is
// read first, the failure (or the clearing after a success) written after;
// two attempts racing past the count can exceed the limit by one each,
// which the limit tolerates.
func (a Accounts) Login(ctx context.Context, in LoginInput) (store.User, error) {
	login := NormalizeLogin(in.Login)
	now := a.o.now()
	if err := a.checkRate(ctx, login, in.IP, now); err != nil {
		return store.User{}, err
	}
	u, err := a.o.store.UserByLogin(ctx, login)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Spend the same work as for a real account so timing does not tell
		// which logins exist.
		a.burnVerify(in.Password)
		return store.User{}, a.fail(ctx, login, in.IP, now)
	case err != nil:
		return store.User{}, err
	}
	ok, err := VerifyPassword(u.PasswordHash, in.Password)
	if err != nil && !errors.Is(err, ErrBadHash) {
		return store.User{}, err
	}
	if !ok || u.Disabled {
		return store.User{}, a.fail(ctx, login, in.IP, now)
	}
	if err := a.o.store.ClearLoginFailures(ctx, login); err != nil {
		return store.User{}, err
	}
	return u, nil
}

// burnVerify verifies against a throwaway hash made with the current
// parameters.
func (a Accounts) burnVerify(pw string) {
	if h, err := HashPassword("", a.params, nil); err == nil {
		_, _ = VerifyPassword(h, pw)
	}
}

func (a Accounts) checkRate(ctx context.Context, login, ip string, now time.Time) error {
	byLogin, byIP, err := a.o.store.LoginFailures(ctx, login, ip, now.Add(-LoginWindow))
	if err != nil {
		return err
	}
	if byLogin >= LoginMaxFailures || (ip != "" && byIP >= LoginMaxFailures) {
		return fmt.Errorf("sign-in %q from %s: %w", login, ip, ErrRateLimited)
	}
	return nil
}

// fail records a failed attempt (pruning ones past the window) and
// returns ErrLoginFailed.
func (a Accounts) fail(ctx context.Context, login, ip string, now time.Time) error {
	err := a.o.store.Tx(ctx, func(tx *store.Store) error {
		if err := tx.PruneLoginAttempts(ctx, now.Add(-LoginWindow)); err != nil {
			return err
		}
		return tx.RecordLoginFailure(ctx, login, ip, now)
	})
	if err != nil {
		return err
	}
	return fmt.Errorf("sign-in %q: %w", login, ErrLoginFailed)
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
	if err := a.checkRate(ctx, u.Login, in.IP, now); err != nil {
		return err
	}
	v := &ValidationError{}
	checkNewPassword(v, "new", "new2", in.New, in.New2, u.Login)
	ok, err := VerifyPassword(u.PasswordHash, in.Current)
	if err != nil && !errors.Is(err, ErrBadHash) {
		return err
	}
	if !ok {
		if err := a.fail(ctx, u.Login, in.IP, now); !errors.Is(err, ErrLoginFailed) {
			return err
		}
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
