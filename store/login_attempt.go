package store

import (
	"context"
	"time"
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

// ClearLoginFailures forgets the failures of a login (after a success).
func (s *Store) ClearLoginFailures(ctx context.Context, login string) error {
	return notFound(s.DB(ctx).Where("login = ?", login).Delete(&LoginAttempt{}).Error, "clear login failures")
}

// PruneLoginAttempts deletes failures older than before; they no longer
// count towards any window.
func (s *Store) PruneLoginAttempts(ctx context.Context, before time.Time) error {
	return notFound(s.DB(ctx).Where("attempted_at < ?", before.UTC()).Delete(&LoginAttempt{}).Error, "prune login failures")
}

// ReserveLoginAttempt counts one sign-in attempt before its password is
// checked, so attempts racing each other cannot all be checked: one
// INSERT … SELECT adds the row only while the login has fewer than
// maxLogin attempts after since and the address fewer than maxIP (ip ""
// is not counted). ok is false, and nothing is written, when either window
// is full. Attempts older than since are pruned in the same transaction.
// On PostgreSQL, transaction-scoped advisory locks on the login and then
// the address serialise reservations (under READ COMMITTED two INSERT …
// SELECTs could both see four); SQLite's transactions are BEGIN IMMEDIATE
// (SQLiteDSN), which serialises them already.
func (s *Store) ReserveLoginAttempt(ctx context.Context, login, ip string, at, since time.Time, maxLogin, maxIP int) (bool, error) {
	ok := false
	err := s.Tx(ctx, func(tx *Store) error {
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
		res := tx.DB(ctx).Exec(`INSERT INTO login_attempts (login, ip, attempted_at)
			SELECT ?, ?, ?
			WHERE (SELECT COUNT(*) FROM login_attempts WHERE login = ? AND attempted_at > ?) < ?
			AND (? = '' OR (SELECT COUNT(*) FROM login_attempts WHERE ip = ? AND attempted_at > ?) < ?)`,
			login, ip, at.UTC(), login, since.UTC(), maxLogin, ip, ip, since.UTC(), maxIP)
		if res.Error != nil {
			return notFound(res.Error, "reserve sign-in attempt")
		}
		ok = res.RowsAffected == 1
		return nil
	})
	return ok, err
}
