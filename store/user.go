package store

import (
	"context"
	"fmt"
	"time"
)

// User is a person who signs in. Administrators are global; every other
// role is per event.
type User struct {
	ID           int64  `gorm:"primaryKey"`
	Login        string `gorm:"not null;uniqueIndex"`
	DisplayName  string `gorm:"not null"`
	PasswordHash string `gorm:"not null"`
	IsAdmin      bool   `gorm:"not null;default:false"`
	Disabled     bool   `gorm:"not null;default:false"`
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// UserByID loads one user.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	var u User
	err := s.DB(ctx).Where("id = ?", id).Take(&u).Error
	return u, notFound(err, "user")
}

// UserByLogin loads the user with login (logins are stored lower-case).
func (s *Store) UserByLogin(ctx context.Context, login string) (User, error) {
	var u User
	err := s.DB(ctx).Where("login = ?", login).Take(&u).Error
	return u, notFound(err, "user "+login)
}

// Users lists every user by login.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	var out []User
	err := s.DB(ctx).Order("login").Find(&out).Error
	return out, notFound(err, "list users")
}

// CreateUser inserts u; a taken login is ErrConflict.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	u.CreatedAt, u.UpdatedAt = u.CreatedAt.UTC(), u.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(u).Error, "create user "+u.Login)
}

// UserUpdate names the columns of one user to change; nil leaves a column
// as it is.
type UserUpdate struct {
	DisplayName  *string
	PasswordHash *string
	IsAdmin      *bool
	Disabled     *bool
}

// UpdateUser changes the given columns of user id and stamps updated_at.
func (s *Store) UpdateUser(ctx context.Context, id int64, up UserUpdate, now time.Time) error {
	cols := map[string]any{"updated_at": now.UTC()}
	if up.DisplayName != nil {
		cols["display_name"] = *up.DisplayName
	}
	if up.PasswordHash != nil {
		cols["password_hash"] = *up.PasswordHash
	}
	if up.IsAdmin != nil {
		cols["is_admin"] = *up.IsAdmin
	}
	if up.Disabled != nil {
		cols["disabled"] = *up.Disabled
	}
	res := s.DB(ctx).Model(&User{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return notFound(res.Error, "update user")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("update user %d: %w", id, ErrNotFound)
	}
	return nil
}

// CountActiveAdmins counts administrators who are not disabled.
func (s *Store) CountActiveAdmins(ctx context.Context) (int64, error) {
	var n int64
	err := s.DB(ctx).Model(&User{}).Where("is_admin = ? AND disabled = ?", true, false).Count(&n).Error
	return n, notFound(err, "count administrators")
}

// adminLockKey is the PostgreSQL advisory lock that serialises changes to
// who is an administrator (first-run setup, last-admin protection).
const adminLockKey = 0x4b6973656e01 // "Kisen" + 1

// LockAdmins must be called inside Tx before a read-then-write on the set
// of administrators. On PostgreSQL it takes a transaction-scoped advisory
// lock, so two processes cannot both see "no administrator" (or "two
// administrators") and act on it; SQLite transactions already begin
// IMMEDIATE, which serialises every writer.
func (s *Store) LockAdmins(ctx context.Context) error {
	if s.dialect != Postgres {
		return nil
	}
	return notFound(s.DB(ctx).Exec("SELECT pg_advisory_xact_lock(?)", int64(adminLockKey)).Error, "lock administrators")
}

// UsersByIDs loads the users with the given ids, keyed by id, in one
// statement (a log lists who did what without a query per line).
func (s *Store) UsersByIDs(ctx context.Context, ids []int64) (map[int64]User, error) {
	return rowsByID(ctx, s, ids, "read users", func(u User) int64 { return u.ID })
}
