package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Entries before the day (migration 00175, docs/amateur-day-entries.md).

// Day entry states.
const (
	EntryPending   = "pending"   // waiting for the director
	EntryApproved  = "approved"  // entered as a day entrant
	EntryWaiting   = "waiting"   // the class was full: on the waiting list
	EntryRefused   = "refused"   // refused by the director, with a reason
	EntryWithdrawn = "withdrawn" // withdrawn by the entrant through their link
)

// DayEntrySettings is a day's entry form: open, its deadline and the cap
// of each class (Caps: JSON object of class id to places).
type DayEntrySettings struct {
	EventID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Open      bool  `gorm:"not null;default:false"`
	Deadline  *time.Time
	Caps      string `gorm:"not null;default:'{}'"`
	Version   int    `gorm:"not null;default:1"`
	UpdatedAt time.Time
}

// DayEntry is one entry made through the form or pasted by the director.
type DayEntry struct {
	ID        int64  `gorm:"primaryKey"`
	EventID   int64  `gorm:"not null"`
	ClassID   int64  `gorm:"not null"`
	Name      string `gorm:"not null"`
	Reading   string `gorm:"not null"`
	Rank      string `gorm:"not null;default:''"`
	Club      string `gorm:"not null;default:''"`
	Contact   string `gorm:"not null;default:''"`
	Status    string `gorm:"not null"`
	Source    string `gorm:"not null;default:'form'"`
	TokenHash *string
	PlayerID  *int64
	Reason    string `gorm:"not null;default:''"`
	DecidedBy *int64
	DecidedAt *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
	Version   int `gorm:"not null;default:1"`
}

// TableName keeps the migration's plural name.
func (DayEntry) TableName() string { return "day_entries" }

// TableName keeps the migration's name.
func (DayEntrySettings) TableName() string { return "day_entry_settings" }

// DayEntrySettingsOf loads a day's entry settings; a day never set up is
// ErrNotFound (the form is closed).
func (s *Store) DayEntrySettingsOf(ctx context.Context, eventID int64) (DayEntrySettings, error) {
	var out DayEntrySettings
	err := s.DB(ctx).Where("event_id = ?", eventID).Take(&out).Error
	return out, notFound(err, fmt.Sprintf("day entry settings %d", eventID))
}

// SaveDayEntrySettings writes a day's entry settings at the version seen
// (0: none yet): the row is inserted, or updated only if its version is
// still seen; otherwise ErrConflict. It returns the new version.
func (s *Store) SaveDayEntrySettings(ctx context.Context, in DayEntrySettings, seen int) (int, error) {
	in.UpdatedAt = in.UpdatedAt.UTC()
	if in.Deadline != nil {
		d := in.Deadline.UTC()
		in.Deadline = &d
	}
	if seen == 0 {
		in.Version = 1
		return 1, notFound(s.DB(ctx).Create(&in).Error, "create day entry settings")
	}
	res := s.DB(ctx).Model(&DayEntrySettings{}).Where("event_id = ? AND version = ?", in.EventID, seen).Updates(map[string]any{
		"open": in.Open, "deadline": in.Deadline, "caps": in.Caps, "version": seen + 1, "updated_at": in.UpdatedAt,
	})
	if res.Error != nil {
		return 0, notFound(res.Error, "save day entry settings")
	}
	if res.RowsAffected == 0 {
		return 0, fmt.Errorf("day entry settings %d changed since version %d: %w", in.EventID, seen, ErrConflict)
	}
	return seen + 1, nil
}

// AddDayEntry inserts an entry.
func (s *Store) AddDayEntry(ctx context.Context, e *DayEntry) error {
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	if e.Version == 0 {
		e.Version = 1
	}
	return notFound(s.DB(ctx).Create(e).Error, "add day entry")
}

// DayEntryByID loads one entry.
func (s *Store) DayEntryByID(ctx context.Context, id int64) (DayEntry, error) {
	var e DayEntry
	err := s.DB(ctx).Where("id = ?", id).Take(&e).Error
	return e, notFound(err, fmt.Sprintf("day entry %d", id))
}

// DayEntryByHash finds the entry of a private link's token hash.
func (s *Store) DayEntryByHash(ctx context.Context, hash string) (DayEntry, error) {
	var e DayEntry
	err := s.DB(ctx).Where("token_hash = ?", hash).Take(&e).Error
	return e, notFound(err, "day entry by link")
}

// DayEntriesOfEvent lists a day's entries: pending first, then waiting
// (in the order they came), then the rest, each by arrival (one
// statement).
func (s *Store) DayEntriesOfEvent(ctx context.Context, eventID int64) ([]DayEntry, error) {
	var out []DayEntry
	err := s.DB(ctx).Where("event_id = ?", eventID).
		Order("CASE status WHEN 'pending' THEN 0 WHEN 'waiting' THEN 1 WHEN 'approved' THEN 2 ELSE 3 END, created_at, id").
		Find(&out).Error
	return out, notFound(err, "day entries")
}

// DayEntriesOfClass lists a class's entries in one state by arrival.
func (s *Store) DayEntriesOfClass(ctx context.Context, classID int64, status string) ([]DayEntry, error) {
	var out []DayEntry
	err := s.DB(ctx).Where("class_id = ? AND status = ?", classID, status).Order("created_at, id").Find(&out).Error
	return out, notFound(err, "day entries of class")
}

// CountDayEntries counts a class's entries in a state.
func (s *Store) CountDayEntries(ctx context.Context, classID int64, status string) (int, error) {
	var n int64
	err := s.DB(ctx).Model(&DayEntry{}).Where("class_id = ? AND status = ?", classID, status).Count(&n).Error
	return int(n), notFound(err, "count day entries")
}

// CountDayEntrantsOfClass counts a class's entrants not withdrawn.
func (s *Store) CountDayEntrantsOfClass(ctx context.Context, classID int64) (int, error) {
	var n int64
	err := s.DB(ctx).Model(&DayEntrant{}).Where("class_id = ? AND withdrawn_at IS NULL", classID).Count(&n).Error
	return int(n), notFound(err, "count day entrants")
}

// UpdateDayEntry rewrites an entry at the version it was read with
// (e.Version): the stored version must still be it, and becomes it + 1;
// otherwise ErrConflict.
func (s *Store) UpdateDayEntry(ctx context.Context, e *DayEntry) error {
	seen := e.Version
	e.UpdatedAt = e.UpdatedAt.UTC()
	res := s.DB(ctx).Model(&DayEntry{}).Where("id = ? AND version = ?", e.ID, seen).Updates(map[string]any{
		"class_id": e.ClassID, "name": e.Name, "reading": e.Reading, "rank": e.Rank, "club": e.Club, "contact": e.Contact,
		"status": e.Status, "player_id": e.PlayerID, "reason": e.Reason, "decided_by": e.DecidedBy, "decided_at": e.DecidedAt,
		"updated_at": e.UpdatedAt, "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "update day entry")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("day entry %d changed since version %d: %w", e.ID, seen, ErrConflict)
	}
	e.Version = seen + 1
	return nil
}

// SetDayEntrantWithdrawnBySelf marks an entrant withdrawn by the player
// themself (through their entry's private link): withdrawn_by stays NULL.
func (s *Store) SetDayEntrantWithdrawnBySelf(ctx context.Context, id int64, now time.Time) error {
	res := s.DB(ctx).Model(&DayEntrant{}).Where("id = ? AND withdrawn_at IS NULL", id).
		Updates(map[string]any{"withdrawn_at": now.UTC(), "updated_at": now.UTC(), "version": gorm.Expr("version + 1")})
	if res.Error != nil {
		return notFound(res.Error, "withdraw day entrant")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("day entrant %d is missing or already withdrawn: %w", id, ErrConflict)
	}
	return nil
}

// LockDayEvent holds a day's row for the rest of the transaction, so
// writers of its entries' places (the form, a withdrawal, a refusal, the
// caps) take turns and a cap is never overrun: SELECT … FOR UPDATE on
// PostgreSQL; on SQLite every transaction already holds the write lock
// (LockGame). Call it inside Tx only.
func (s *Store) LockDayEvent(ctx context.Context, eventID int64) error {
	q := s.DB(ctx)
	if s.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var d DayEvent
	return notFound(q.Where("event_id = ?", eventID).Take(&d).Error, fmt.Sprintf("lock day %d", eventID))
}
