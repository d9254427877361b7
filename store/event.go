package store

import (
	"context"
	"fmt"
	"time"
)

// Event is one event (棋戦) of an organiser. StartDate and EndDate are
// calendar dates, YYYY-MM-DD. Settings is the organiser's settings as they
// were when the event was created.
type Event struct {
	ID          int64  `gorm:"primaryKey"`
	OrganiserID int64  `gorm:"not null"`
	Name        string `gorm:"not null"`
	NameEn      string `gorm:"not null;default:''"`
	Kind        string `gorm:"not null"`
	StartDate   string `gorm:"not null"`
	EndDate     string `gorm:"not null"`
	Venue       string `gorm:"not null;default:''"`
	Status      string `gorm:"not null;default:'draft'"`
	Settings    string `gorm:"not null;default:'{}'"`
	CreatedBy   int64  `gorm:"not null"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// EventStatusChange records one move of an event's status and who made it.
type EventStatusChange struct {
	ID         int64  `gorm:"primaryKey"`
	EventID    int64  `gorm:"not null"`
	FromStatus string `gorm:"not null"`
	ToStatus   string `gorm:"not null"`
	ChangedBy  int64  `gorm:"not null"`
	ChangedAt  time.Time
}

// CreateEvent inserts e.
func (s *Store) CreateEvent(ctx context.Context, e *Event) error {
	if e.Settings == "" {
		e.Settings = "{}"
	}
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "create event")
}

// EventByID loads one event.
func (s *Store) EventByID(ctx context.Context, id int64) (Event, error) {
	var e Event
	err := s.DB(ctx).Where("id = ?", id).Take(&e).Error
	return e, notFound(err, "event")
}

// EventFilter selects events for a list.
type EventFilter struct {
	// Statuses limits the list to these statuses (empty: every status).
	Statuses []string
	// AlsoStaffedBy adds events (of any status) where this user holds any
	// role; 0 adds none.
	AlsoStaffedBy int64
}

// Events lists events, newest start date first.
func (s *Store) Events(ctx context.Context, f EventFilter) ([]Event, error) {
	q := s.DB(ctx).Model(&Event{})
	if len(f.Statuses) > 0 {
		if f.AlsoStaffedBy != 0 {
			q = q.Where("status IN ? OR id IN (?)", f.Statuses,
				s.DB(ctx).Model(&EventRole{}).Select("event_id").Where("user_id = ?", f.AlsoStaffedBy))
		} else {
			q = q.Where("status IN ?", f.Statuses)
		}
	}
	var out []Event
	err := q.Order("start_date DESC, id DESC").Find(&out).Error
	return out, notFound(err, "list events")
}

// SetEventStatus moves event id from one status to another and records
// it; it fails with ErrConflict when the event is no longer in from (a
// concurrent change won).
func (s *Store) SetEventStatus(ctx context.Context, id int64, from, to string, by int64, now time.Time) error {
	res := s.DB(ctx).Model(&Event{}).Where("id = ? AND status = ?", id, from).
		Updates(map[string]any{"status": to, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "set event status")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("event %d is not %s any more: %w", id, from, ErrConflict)
	}
	ch := EventStatusChange{EventID: id, FromStatus: from, ToStatus: to, ChangedBy: by, ChangedAt: now.UTC()}
	return notFound(s.DB(ctx).Create(&ch).Error, "record event status change")
}

// EventStatusChanges lists the status history of an event, oldest first.
func (s *Store) EventStatusChanges(ctx context.Context, eventID int64) ([]EventStatusChange, error) {
	var out []EventStatusChange
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("changed_at, id").Find(&out).Error
	return out, notFound(err, "list event status changes")
}
