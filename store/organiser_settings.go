package store

import (
	"context"
	"fmt"
	"time"
)

// EventSettingsUnlock records that an administrator unlocked an event's
// settings after its first game started: who, when and why.
type EventSettingsUnlock struct {
	ID         int64 `gorm:"primaryKey"`
	EventID    int64 `gorm:"not null"`
	UnlockedBy int64 `gorm:"not null"`
	UnlockedAt time.Time
	Reason     string `gorm:"not null"`
}

// EventSettingsChange records one change of an event's settings. UnlockID
// is the unlock a change made after the lock used.
type EventSettingsChange struct {
	ID             int64 `gorm:"primaryKey"`
	EventID        int64 `gorm:"not null"`
	ChangedBy      int64 `gorm:"not null"`
	ChangedAt      time.Time
	SettingsBefore string `gorm:"not null"`
	SettingsAfter  string `gorm:"not null"`
	UnlockID       *int64
}

// SetOrganiserSettings replaces an organiser's settings JSON. Events keep
// the copy they took when created.
func (s *Store) SetOrganiserSettings(ctx context.Context, id int64, settings string, now time.Time) error {
	res := s.DB(ctx).Model(&Organiser{}).Where("id = ?", id).
		Updates(map[string]any{"settings": settings, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "set organiser settings")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("organiser %d: %w", id, ErrNotFound)
	}
	return nil
}

// SetEventSettings replaces an event's settings JSON and records the
// change (with the unlock it used, if any).
func (s *Store) SetEventSettings(ctx context.Context, ch *EventSettingsChange) error {
	ch.ChangedAt = ch.ChangedAt.UTC()
	res := s.DB(ctx).Model(&Event{}).Where("id = ? AND settings = ?", ch.EventID, ch.SettingsBefore).
		Updates(map[string]any{"settings": ch.SettingsAfter, "updated_at": ch.ChangedAt})
	if res.Error != nil {
		return notFound(res.Error, "set event settings")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("event %d settings changed meanwhile: %w", ch.EventID, ErrConflict)
	}
	return notFound(s.DB(ctx).Create(ch).Error, "record event settings change")
}

// AddEventSettingsUnlock records an unlock.
func (s *Store) AddEventSettingsUnlock(ctx context.Context, u *EventSettingsUnlock) error {
	u.UnlockedAt = u.UnlockedAt.UTC()
	return notFound(s.DB(ctx).Create(u).Error, "unlock event settings")
}

// EventSettingsUnlocks lists an event's unlocks, oldest first.
func (s *Store) EventSettingsUnlocks(ctx context.Context, eventID int64) ([]EventSettingsUnlock, error) {
	var out []EventSettingsUnlock
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&out).Error
	return out, notFound(err, "list event settings unlocks")
}

// EventSettingsChanges lists an event's settings changes, oldest first.
func (s *Store) EventSettingsChanges(ctx context.Context, eventID int64) ([]EventSettingsChange, error) {
	var out []EventSettingsChange
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&out).Error
	return out, notFound(err, "list event settings changes")
}

// UnusedEventSettingsUnlock is the oldest unlock of the event no change
// has used yet; ok is false when there is none.
func (s *Store) UnusedEventSettingsUnlock(ctx context.Context, eventID int64) (EventSettingsUnlock, bool, error) {
	var out []EventSettingsUnlock
	err := s.DB(ctx).Where("event_id = ? AND id NOT IN (?)", eventID,
		s.DB(ctx).Model(&EventSettingsChange{}).Select("unlock_id").Where("unlock_id IS NOT NULL")).
		Order("id").Limit(1).Find(&out).Error
	if err != nil || len(out) == 0 {
		return EventSettingsUnlock{}, false, notFound(err, "unused event settings unlock")
	}
	return out[0], true, nil
}
