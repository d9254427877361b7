package store

import (
	"context"
	"time"
)

// EventRole gives a user a role in one event (director, scheduler,
// arbiter, recorder). Administrators are a flag on User instead.
type EventRole struct {
	ID        int64  `gorm:"primaryKey"`
	EventID   int64  `gorm:"not null"`
	UserID    int64  `gorm:"not null"`
	Role      string `gorm:"not null"`
	GrantedBy int64  `gorm:"not null"`
	CreatedAt time.Time
}

// EventRoleHolder is one row of an event's role list, with the user's names.
type EventRoleHolder struct {
	EventRole
	Login       string
	DisplayName string
}

// UserEventRole is one role a user holds, with the event's names.
type UserEventRole struct {
	EventRole
	EventName   string
	EventNameEn string
}

// GrantEventRole adds a role; holding it already is ErrConflict.
func (s *Store) GrantEventRole(ctx context.Context, r *EventRole) error {
	r.CreatedAt = r.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "grant event role")
}

// RevokeEventRole removes a role; reports whether it was held.
func (s *Store) RevokeEventRole(ctx context.Context, eventID, userID int64, role string) (bool, error) {
	res := s.DB(ctx).Where("event_id = ? AND user_id = ? AND role = ?", eventID, userID, role).Delete(&EventRole{})
	return res.RowsAffected > 0, notFound(res.Error, "revoke event role")
}

// HasEventRole reports whether the user holds any of roles in the event.
func (s *Store) HasEventRole(ctx context.Context, eventID, userID int64, roles ...string) (bool, error) {
	if len(roles) == 0 {
		return false, nil
	}
	var n int64
	err := s.DB(ctx).Model(&EventRole{}).
		Where("event_id = ? AND user_id = ? AND role IN ?", eventID, userID, roles).Count(&n).Error
	return n > 0, notFound(err, "check event role")
}

// EventRoles lists who holds which role in an event, by role then login.
func (s *Store) EventRoles(ctx context.Context, eventID int64) ([]EventRoleHolder, error) {
	var out []EventRoleHolder
	err := s.DB(ctx).Table("event_roles").
		Select("event_roles.*, users.login, users.display_name").
		Joins("JOIN users ON users.id = event_roles.user_id").
		Where("event_roles.event_id = ?", eventID).
		Order("event_roles.role, users.login").Scan(&out).Error
	return out, notFound(err, "list event roles")
}

// UserEventRoles lists the roles a user holds, newest event first.
func (s *Store) UserEventRoles(ctx context.Context, userID int64) ([]UserEventRole, error) {
	var out []UserEventRole
	err := s.DB(ctx).Table("event_roles").
		Select("event_roles.*, events.name AS event_name, events.name_en AS event_name_en").
		Joins("JOIN events ON events.id = event_roles.event_id").
		Where("event_roles.user_id = ?", userID).
		Order("events.start_date DESC, events.id DESC, event_roles.role").Scan(&out).Error
	return out, notFound(err, "list user event roles")
}
