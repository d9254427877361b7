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
