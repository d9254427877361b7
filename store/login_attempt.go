package store

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// LoginAttempt is one failed sign-in, counted per login and per client
// address for the rate limit.
type LoginAttempt struct {
	ID          int64  `gorm:"primaryKey"`
	Login       string `gorm:"not null"`
	IP          string `gorm:"column:ip;not null"`
	AttemptedAt time.Time
}

// RecordLoginFailure stores one failed attempt.
func (s *Store) RecordLoginFailure(ctx context.Context, login, ip string, at time.Time) error {
	row := LoginAttempt{Login: login, IP: ip, AttemptedAt: at.UTC()}
	return notFound(s.DB(ctx).Create(&row).Error, "record login failure")
}

// LoginFailures counts failures after since (exclusive) for a login and an
// address.
func (s *Store) LoginFailures(ctx context.Context, login, ip string, since time.Time) (byLogin, byIP int64, err error) {
	since = since.UTC()
	if err = s.DB(ctx).Model(&LoginAttempt{}).Where("login = ? AND attempted_at > ?", login, since).Count(&byLogin).Error; err != nil {
		return 0, 0, notFound(err, "count login failures")
	}
	if err = s.DB(ctx).Model(&LoginAttempt{}).Where("ip = ? AND attempted_at > ?", ip, since).Count(&byIP).Error; err != nil {
		return 0, 0, notFound(err, "count login failures")
	}
	return byLogin, byIP, nil
}

// ClearLoginFailures forgets the failures of a login from one address
// (after a success there): the (login, address) counter restarts, while
// failures for the login from other addresses, and for other logins from
// the address, still count.
func (s *Store) ClearLoginFailures(ctx context.Context, login, ip string) error {
	return notFound(s.DB(ctx).Where("login = ? AND ip = ?", login, ip).Delete(&LoginAttempt{}).Error, "clear login failures")
}

// PruneLoginAttempts deletes failures older than before; they no longer
// count towards any window.
func (s *Store) PruneLoginAttempts(ctx context.Context, before time.Time) error {
	return notFound(s.DB(ctx).Where("attempted_at < ?", before.UTC()).Delete(&LoginAttempt{}).Error, "prune login failures")
}

// LoginCounts are the attempts in the window that a new sign-in attempt
// is judged by: for the (login, address) pair, for the login from any
// address, and for the address for any login, with the newest attempt of
// the pair and of the login and the oldest of the address (zero when
// there is none).
type LoginCounts struct {
	Pair, Login, Address         int64
	PairLast, LoginLast, IPFirst time.Time
}

// ReserveLoginAttempt counts one sign-in attempt before its password is
// checked, so attempts racing each other cannot all be checked. In one
// transaction it prunes attempts older than since, reads the LoginCounts
// after since, and asks notBefore when the attempt may be made: when that
// is after at, nothing is written and the time is returned (ok false);
// otherwise the attempt is stored (ok true). ip "" is not counted per
// address. On PostgreSQL, transaction-scoped advisory locks on the login
// and then the address serialise reservations (under READ COMMITTED two
// transactions could both read the same counts); SQLite's transactions are
// BEGIN IMMEDIATE (SQLiteDSN), which serialises them already.
func (s *Store) ReserveLoginAttempt(ctx context.Context, login, ip string, at, since time.Time,
	notBefore func(LoginCounts) time.Time) (retryAt time.Time, ok bool, err error) {
	at, since = at.UTC(), since.UTC()
	err = s.Tx(ctx, func(tx *Store) error {
		if tx.dialect == Postgres {
			// Always the login first, then the address: no lock cycle.
			for _, key := range []string{"kisen-login:" + login, "kisen-ip:" + ip} {
				if err := tx.DB(ctx).Exec("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", key).Error; err != nil {
					return notFound(err, "lock sign-in counter")
				}
			}
		}
		if err := tx.PruneLoginAttempts(ctx, since); err != nil {
			return err
		}
		var c LoginCounts
		var err error
		if c.Pair, c.PairLast, err = tx.loginWindow(ctx, "login = ? AND ip = ?", []any{login, ip}, since, "attempted_at DESC"); err != nil {
			return err
		}
		if c.Login, c.LoginLast, err = tx.loginWindow(ctx, "login = ?", []any{login}, since, "attempted_at DESC"); err != nil {
			return err
		}
		if ip != "" {
			if c.Address, c.IPFirst, err = tx.loginWindow(ctx, "ip = ?", []any{ip}, since, "attempted_at ASC"); err != nil {
				return err
			}
		}
		if nb := notBefore(c); nb.After(at) {
			retryAt = nb
			return nil
		}
		ok = true
		return tx.RecordLoginFailure(ctx, login, ip, at)
	})
	return retryAt, ok, err
}

// loginWindow counts the attempts matching where after since and returns
// the first of them in order (newest or oldest).
func (s *Store) loginWindow(ctx context.Context, where string, args []any, since time.Time, order string) (int64, time.Time, error) {
	var n int64
	q := func() *gorm.DB {
		return s.DB(ctx).Model(&LoginAttempt{}).Where(where, args...).Where("attempted_at > ?", since)
	}
	if err := q().Count(&n).Error; err != nil {
		return 0, time.Time{}, notFound(err, "count sign-in attempts")
	}
	if n == 0 {
		return 0, time.Time{}, nil
	}
	var row LoginAttempt
	if err := q().Order(order).Limit(1).Take(&row).Error; err != nil {
		return 0, time.Time{}, notFound(err, "read sign-in attempts")
	}
	return n, row.AttemptedAt, nil
}
