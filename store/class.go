package store

import (
	"context"
	"fmt"
	"time"
)

// LeagueClass is one class of a league event: a 順位戦 class (A … C2) of a
// junisen_term event, or the single group ("") of a league event. Settings
// and Rules are the league room's Settings and ClassRules as JSON; Schedule
// and Report hold the draw once made.
type LeagueClass struct {
	ID               int64  `gorm:"primaryKey"`
	EventID          int64  `gorm:"not null"`
	Class            string `gorm:"not null"`
	Settings         string `gorm:"not null;default:'{}'"`
	Rules            string `gorm:"not null;default:'{}'"`
	AllowanceMinutes int    `gorm:"not null;default:0"`
	Status           string `gorm:"not null;default:'setup'"`
	DrawSeed         string `gorm:"not null;default:''"`
	DrawDate         string `gorm:"not null;default:''"`
	RoundDates       string `gorm:"not null;default:'[]'"`
	Schedule         string `gorm:"not null;default:'{}'"`
	Report           string `gorm:"not null;default:'{}'"`
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// LeagueMember is one player of a class: 順位 (Junni, 1 = top) and the
// 降級点 held before the term.
type LeagueMember struct {
	ID       int64 `gorm:"primaryKey"`
	ClassID  int64 `gorm:"not null"`
	PlayerID int64 `gorm:"not null"`
	Junni    int   `gorm:"not null"`
	Points   int   `gorm:"not null;default:0"`
	// Origin says where the place came from (migration 00200): the
	// roll-over's groups, "added" or "moved" by a member change, or "".
	Origin string `gorm:"not null;default:''"`
}

// CreateLeagueClass inserts c and its members (Junni as given).
func (s *Store) CreateLeagueClass(ctx context.Context, c *LeagueClass, members []LeagueMember) error {
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	if err := notFound(s.DB(ctx).Create(c).Error, "create league class"); err != nil {
		return err
	}
	for i := range members {
		members[i].ClassID = c.ID
	}
	if len(members) == 0 {
		return nil
	}
	return notFound(s.DB(ctx).Create(&members).Error, "create league members")
}

// LeagueClassByID loads one class.
func (s *Store) LeagueClassByID(ctx context.Context, id int64) (LeagueClass, error) {
	var c LeagueClass
	err := s.DB(ctx).Where("id = ?", id).Take(&c).Error
	return c, notFound(err, fmt.Sprintf("league class %d", id))
}

// LeagueClasses lists an event's classes; the caller orders them.
func (s *Store) LeagueClasses(ctx context.Context, eventID int64) ([]LeagueClass, error) {
	var out []LeagueClass
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&out).Error
	return out, notFound(err, "league classes")
}

// LeagueMembers lists a class's players in 順位 order.
func (s *Store) LeagueMembers(ctx context.Context, classID int64) ([]LeagueMember, error) {
	var out []LeagueMember
	err := s.DB(ctx).Where("class_id = ?", classID).Order("junni").Find(&out).Error
	return out, notFound(err, "league members")
}

// SaveLeagueDraw stores a class's draw (seed, dates, schedule, report,
// status). It fails with ErrConflict once the class is published.
func (s *Store) SaveLeagueDraw(ctx context.Context, c LeagueClass, now time.Time) error {
	res := s.DB(ctx).Model(&LeagueClass{}).Where("id = ? AND status <> ?", c.ID, "published").
		Updates(map[string]any{
			"status": c.Status, "draw_seed": c.DrawSeed, "draw_date": c.DrawDate,
			"round_dates": c.RoundDates, "schedule": c.Schedule, "report": c.Report,
			"updated_at": now.UTC(),
		})
	if res.Error != nil {
		return notFound(res.Error, "save league draw")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("league class %d is published or missing: %w", c.ID, ErrConflict)
	}
	return nil
}

// SetLeagueClassStatus moves a class from one status to another; it fails
// with ErrConflict when the class is no longer in from.
func (s *Store) SetLeagueClassStatus(ctx context.Context, id int64, from, to string, now time.Time) error {
	res := s.DB(ctx).Model(&LeagueClass{}).Where("id = ? AND status = ?", id, from).
		Updates(map[string]any{"status": to, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "set league class status")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("league class %d is not %s: %w", id, from, ErrConflict)
	}
	return nil
}
