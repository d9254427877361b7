package store

import (
	"context"
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
