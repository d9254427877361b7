package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Team events (団体戦, migration 00260, docs/team-entries.md): an event
// marked by a TeamEvent row has teams with rosters, rounds with an order
// deadline, and the orders each team submits. Orders and their boards are
// append-only: a later order supersedes.

// TeamEvent marks an event as a team event and holds its entry and order
// settings.
type TeamEvent struct {
	EventID         int64  `gorm:"primaryKey;autoIncrement:false"`
	Boards          int    `gorm:"not null"`
	Reserves        int    `gorm:"not null;default:0"`
	OrderRule       string `gorm:"not null;default:'free'"`
	MajorityForfeit bool   `gorm:"not null;default:false"`
	Version         int    `gorm:"not null;default:1"`
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Team is one team of a team event.
type Team struct {
	ID              int64  `gorm:"primaryKey"`
	EventID         int64  `gorm:"not null"`
	Name            string `gorm:"not null"`
	NameEn          string `gorm:"not null;default:''"`
	Affiliation     string `gorm:"not null;default:''"`
	AffiliationKind string `gorm:"not null;default:'other'"`
	Version         int    `gorm:"not null;default:1"`
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// TeamMember is one player on a team's roster.
type TeamMember struct {
	ID        int64 `gorm:"primaryKey"`
	EventID   int64 `gorm:"not null"`
	TeamID    int64 `gorm:"not null"`
	PlayerID  int64 `gorm:"not null"`
	Position  int   `gorm:"not null"`
	Rank      string
	CreatedAt time.Time
}

// TeamMemberRow is a roster member with the registry's name and reading.
type TeamMemberRow struct {
	TeamMember
	Name    string
	Reading string
}

// TeamRound is one round of a team event with its order deadline.
type TeamRound struct {
	ID        int64 `gorm:"primaryKey"`
	EventID   int64 `gorm:"not null"`
	Number    int   `gorm:"not null"`
	Deadline  time.Time
	Version   int `gorm:"not null;default:1"`
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TeamOrder is one submitted order (append-only).
type TeamOrder struct {
	ID           int64 `gorm:"primaryKey"`
	EventID      int64 `gorm:"not null"`
	RoundID      int64 `gorm:"not null"`
	TeamID       int64 `gorm:"not null"`
	SupersedesID *int64
	Reason       string `gorm:"not null;default:''"`
	Late         bool   `gorm:"not null;default:false"`
	SubmittedBy  int64  `gorm:"not null"`
	SubmittedAt  time.Time
}

// TeamOrderBoard is one board of an order; PlayerID nil is an empty board.
type TeamOrderBoard struct {
	ID       int64 `gorm:"primaryKey"`
	OrderID  int64 `gorm:"not null"`
	Board    int   `gorm:"not null"`
	PlayerID *int64
}

// CreateTeamEvent marks an event as a team event with its settings.
func (s *Store) CreateTeamEvent(ctx context.Context, te *TeamEvent) error {
	te.CreatedAt, te.UpdatedAt = te.CreatedAt.UTC(), te.UpdatedAt.UTC()
	return notFound(s.DB(ctx).Create(te).Error, "create team event")
}

// TeamEventByID reads a team event's settings (ErrNotFound when the event
// is not a team event).
func (s *Store) TeamEventByID(ctx context.Context, eventID int64) (TeamEvent, error) {
	var te TeamEvent
	err := s.DB(ctx).Where("event_id = ?", eventID).Take(&te).Error
	return te, notFound(err, fmt.Sprintf("team event %d", eventID))
}

// TeamEventIDs reports which of ids are team events (one statement).
func (s *Store) TeamEventIDs(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	var found []int64
	if err := s.DB(ctx).Model(&TeamEvent{}).Where("event_id IN ?", ids).Pluck("event_id", &found).Error; err != nil {
		return nil, notFound(err, "team event ids")
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// LockTeamEvent holds a team event's row for the rest of the transaction
// (SELECT … FOR UPDATE on PostgreSQL; SQLite's transaction already holds
// the write lock), so writers of its rosters and orders take turns.
func (s *Store) LockTeamEvent(ctx context.Context, eventID int64) (TeamEvent, error) {
	q := s.DB(ctx)
	if s.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var te TeamEvent
	err := q.Where("event_id = ?", eventID).Take(&te).Error
	return te, notFound(err, fmt.Sprintf("lock team event %d", eventID))
}

// UpdateTeamEvent rewrites the settings at the version they were read
// with; otherwise ErrConflict.
func (s *Store) UpdateTeamEvent(ctx context.Context, te *TeamEvent) error {
	seen := te.Version
	res := s.DB(ctx).Model(&TeamEvent{}).Where("event_id = ? AND version = ?", te.EventID, seen).Updates(map[string]any{
		"boards": te.Boards, "reserves": te.Reserves, "order_rule": te.OrderRule, "majority_forfeit": te.MajorityForfeit,
		"updated_at": te.UpdatedAt.UTC(), "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "update team event")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team event %d changed since version %d: %w", te.EventID, seen, ErrConflict)
	}
	te.Version = seen + 1
	return nil
}

// TeamsOfEvent lists an event's teams in the order they were entered.
func (s *Store) TeamsOfEvent(ctx context.Context, eventID int64) ([]Team, error) {
	var out []Team
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&out).Error
	return out, notFound(err, "teams of event")
}

// TeamByID reads one team.
func (s *Store) TeamByID(ctx context.Context, id int64) (Team, error) {
	var t Team
	err := s.DB(ctx).Where("id = ?", id).Take(&t).Error
	return t, notFound(err, fmt.Sprintf("team %d", id))
}

// CreateTeam adds a team (ErrConflict when the event has one of the name).
func (s *Store) CreateTeam(ctx context.Context, t *Team) error {
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	if t.Version == 0 {
		t.Version = 1
	}
	return notFound(s.DB(ctx).Create(t).Error, "create team")
}

// UpdateTeam rewrites a team at the version it was read with; the version
// becomes one more, otherwise ErrConflict.
func (s *Store) UpdateTeam(ctx context.Context, t *Team) error {
	seen := t.Version
	res := s.DB(ctx).Model(&Team{}).Where("id = ? AND version = ?", t.ID, seen).Updates(map[string]any{
		"name": t.Name, "name_en": t.NameEn, "affiliation": t.Affiliation, "affiliation_kind": t.AffiliationKind,
		"updated_at": t.UpdatedAt.UTC(), "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "update team")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team %d changed since version %d: %w", t.ID, seen, ErrConflict)
	}
	t.Version = seen + 1
	return nil
}

// ReplaceTeamMembers sets a team's roster to members (positions as given).
// A player on another team of the event is refused by the database
// (ErrConflict).
func (s *Store) ReplaceTeamMembers(ctx context.Context, teamID int64, members []TeamMember) error {
	if err := s.DB(ctx).Where("team_id = ?", teamID).Delete(&TeamMember{}).Error; err != nil {
		return notFound(err, "clear team members")
	}
	if len(members) == 0 {
		return nil
	}
	for i := range members {
		members[i].TeamID = teamID
		members[i].CreatedAt = members[i].CreatedAt.UTC()
	}
	return notFound(s.DB(ctx).Create(&members).Error, "add team members")
}

// TeamMembersOfEvent lists every roster member of an event with the
// registry's name and reading, by team and position (one statement).
func (s *Store) TeamMembersOfEvent(ctx context.Context, eventID int64) ([]TeamMemberRow, error) {
	var out []TeamMemberRow
	err := s.DB(ctx).Table("team_members").
		Select("team_members.*, players.name AS name, players.reading AS reading").
		Joins("JOIN players ON players.id = team_members.player_id").
		Where("team_members.event_id = ?", eventID).
		Order("team_members.team_id, team_members.position").Scan(&out).Error
	return out, notFound(err, "team members of event")
}

// TeamRoundsOfEvent lists an event's rounds by number.
func (s *Store) TeamRoundsOfEvent(ctx context.Context, eventID int64) ([]TeamRound, error) {
	var out []TeamRound
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("number").Find(&out).Error
	for i := range out {
		out[i].Deadline = out[i].Deadline.UTC()
	}
	return out, notFound(err, "team rounds")
}

// TeamRoundByID reads one round.
func (s *Store) TeamRoundByID(ctx context.Context, id int64) (TeamRound, error) {
	var r TeamRound
	err := s.DB(ctx).Where("id = ?", id).Take(&r).Error
	r.Deadline = r.Deadline.UTC()
	return r, notFound(err, fmt.Sprintf("team round %d", id))
}

// CreateTeamRound adds a round (ErrConflict when its number exists).
func (s *Store) CreateTeamRound(ctx context.Context, r *TeamRound) error {
	r.Deadline, r.CreatedAt, r.UpdatedAt = r.Deadline.UTC(), r.CreatedAt.UTC(), r.UpdatedAt.UTC()
	if r.Version == 0 {
		r.Version = 1
	}
	return notFound(s.DB(ctx).Create(r).Error, "create team round")
}

// UpdateTeamRoundDeadline moves a round's deadline at the version it was
// read with; otherwise ErrConflict.
func (s *Store) UpdateTeamRoundDeadline(ctx context.Context, r *TeamRound) error {
	seen := r.Version
	res := s.DB(ctx).Model(&TeamRound{}).Where("id = ? AND version = ?", r.ID, seen).Updates(map[string]any{
		"deadline": r.Deadline.UTC(), "updated_at": r.UpdatedAt.UTC(), "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "update team round")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team round %d changed since version %d: %w", r.ID, seen, ErrConflict)
	}
	r.Version = seen + 1
	return nil
}

// TeamOrdersOfEvent lists every order of an event (superseded ones too),
// oldest first, and their boards (two statements).
func (s *Store) TeamOrdersOfEvent(ctx context.Context, eventID int64) ([]TeamOrder, map[int64][]TeamOrderBoard, error) {
	var orders []TeamOrder
	if err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&orders).Error; err != nil {
		return nil, nil, notFound(err, "team orders")
	}
	boards := map[int64][]TeamOrderBoard{}
	if len(orders) == 0 {
		return orders, boards, nil
	}
	var bs []TeamOrderBoard
	err := s.DB(ctx).Where("order_id IN (?)", s.DB(ctx).Model(&TeamOrder{}).Select("id").Where("event_id = ?", eventID)).
		Order("order_id, board").Find(&bs).Error
	if err != nil {
		return nil, nil, notFound(err, "team order boards")
	}
	for _, b := range bs {
		boards[b.OrderID] = append(boards[b.OrderID], b)
	}
	for i := range orders {
		orders[i].SubmittedAt = orders[i].SubmittedAt.UTC()
	}
	return orders, boards, nil
}

// AddTeamOrder appends an order and its boards.
func (s *Store) AddTeamOrder(ctx context.Context, o *TeamOrder, boards []TeamOrderBoard) error {
	o.SubmittedAt = o.SubmittedAt.UTC()
	if err := s.DB(ctx).Create(o).Error; err != nil {
		return notFound(err, "add team order")
	}
	for i := range boards {
		boards[i].OrderID = o.ID
	}
	if len(boards) == 0 {
		return nil
	}
	return notFound(s.DB(ctx).Session(&gorm.Session{}).Create(&boards).Error, "add team order boards")
}
