package store

import (
	"context"
	"fmt"
	"time"
)

// LeagueMemberChange is one change to a term's class members before the
// class's draw (migration 00200, append-only): a player added, removed or
// moved between the term's classes, with the reason. Seq is the term's
// member version after the change; UNIQUE (event_id, seq) lets only one of
// two writers who saw the same version land.
type LeagueMemberChange struct {
	ID        int64  `gorm:"primaryKey"`
	EventID   int64  `gorm:"not null"`
	Seq       int    `gorm:"not null"`
	Action    string `gorm:"not null"` // add, remove, move
	PlayerID  int64  `gorm:"not null"`
	FromClass string `gorm:"not null;default:''"`
	ToClass   string `gorm:"not null;default:''"`
	Kind      string `gorm:"not null"` // the reason's kind (new_yondan, retired, …)
	Reason    string `gorm:"not null"`
	Junni     int    `gorm:"not null;default:0"` // the place given (add, move)
	Points    int    `gorm:"not null;default:0"` // 降級点 carried
	ActorID   int64  `gorm:"not null"`
	At        time.Time
}

// TermMemberVersion is the term's member version: the number of member
// changes made so far (0: none).
func (s *Store) TermMemberVersion(ctx context.Context, eventID int64) (int, error) {
	var n *int
	err := s.DB(ctx).Model(&LeagueMemberChange{}).Where("event_id = ?", eventID).Select("MAX(seq)").Scan(&n).Error
	if err != nil {
		return 0, notFound(err, "term member version")
	}
	if n == nil {
		return 0, nil
	}
	return *n, nil
}

// LeagueMemberChanges lists a term's member changes, oldest first.
func (s *Store) LeagueMemberChanges(ctx context.Context, eventID int64) ([]LeagueMemberChange, error) {
	var out []LeagueMemberChange
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("seq").Find(&out).Error
	return out, notFound(err, "league member changes")
}

// AppendLeagueMemberChange inserts one change; a change of the same seq
// already there is ErrConflict (the writer saw an older version).
func (s *Store) AppendLeagueMemberChange(ctx context.Context, c *LeagueMemberChange) error {
	c.At = c.At.UTC()
	return notFound(s.DB(ctx).Create(c).Error, "append league member change")
}

// HoldLeagueClassSetup locks a class row while it is still before its
// draw (status setup), so a draw cannot land under a member change; it
// fails with ErrConflict when the class has been drawn or published.
func (s *Store) HoldLeagueClassSetup(ctx context.Context, classID int64, now time.Time) error {
	res := s.DB(ctx).Model(&LeagueClass{}).Where("id = ? AND status = ?", classID, "setup").
		Update("updated_at", now.UTC())
	if res.Error != nil {
		return notFound(res.Error, "hold league class")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("league class %d is drawn or missing: %w", classID, ErrConflict)
	}
	return nil
}

// ReplaceLeagueMembers replaces a class's members with members (順位 as
// given): the renumbering after a member change.
func (s *Store) ReplaceLeagueMembers(ctx context.Context, classID int64, members []LeagueMember) error {
	if err := s.DB(ctx).Where("class_id = ?", classID).Delete(&LeagueMember{}).Error; err != nil {
		return notFound(err, "replace league members")
	}
	if len(members) == 0 {
		return nil
	}
	for i := range members {
		members[i].ID, members[i].ClassID = 0, classID
	}
	return notFound(s.DB(ctx).Create(&members).Error, "replace league members")
}
