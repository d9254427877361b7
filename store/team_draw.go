package store

import (
	"context"
	"fmt"
	"time"
)

// The team Swiss draw's byes and the organiser's scoring (issue 25,
// migration 00340, docs/team-matches.md).

// TeamRoundBye is a round's bye: the team that plays no match and counts
// the event's bye points.
type TeamRoundBye struct {
	RoundID   int64 `gorm:"primaryKey;autoIncrement:false"`
	EventID   int64
	TeamID    int64
	CreatedAt time.Time
}

// TeamEventScoring is the organiser's match points (in half points) and
// tie-break order. No row: the defaults.
type TeamEventScoring struct {
	EventID      int64 `gorm:"primaryKey;autoIncrement:false"`
	WinHalves    int
	DrawHalves   int
	LossHalves   int
	ByeHalves    int
	ByeBoardWins int
	Tiebreaks    string // ids in order, comma-separated; "" none
	Version      int
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// TableName keeps GORM off its plural.
func (TeamEventScoring) TableName() string { return "team_event_scoring" }

// TeamByesOfEvent lists an event's byes by round id.
func (s *Store) TeamByesOfEvent(ctx context.Context, eventID int64) (map[int64]TeamRoundBye, error) {
	var rows []TeamRoundBye
	if err := s.DB(ctx).Where("event_id = ?", eventID).Find(&rows).Error; err != nil {
		return nil, notFound(err, "team byes of event")
	}
	out := make(map[int64]TeamRoundBye, len(rows))
	for _, b := range rows {
		out[b.RoundID] = b
	}
	return out, nil
}

// CreateTeamRoundBye adds a round's bye (ErrConflict when the round has
// one or the team had one).
func (s *Store) CreateTeamRoundBye(ctx context.Context, b *TeamRoundBye) error {
	b.CreatedAt = b.CreatedAt.UTC()
	return notFound(s.DB(ctx).Create(b).Error, "create team round bye")
}

// BumpTeamRound raises a round's version from the one it was read with
// (a drawn round); otherwise ErrConflict.
func (s *Store) BumpTeamRound(ctx context.Context, r *TeamRound) error {
	seen := r.Version
	res := s.DB(ctx).Model(&TeamRound{}).Where("id = ? AND version = ?", r.ID, seen).Updates(map[string]any{
		"updated_at": r.UpdatedAt.UTC(), "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "bump team round")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team round %d changed since version %d: %w", r.ID, seen, ErrConflict)
	}
	r.Version = seen + 1
	return nil
}

// TeamScoringOf reads an event's scoring (ErrNotFound: the defaults).
func (s *Store) TeamScoringOf(ctx context.Context, eventID int64) (TeamEventScoring, error) {
	var sc TeamEventScoring
	err := s.DB(ctx).Where("event_id = ?", eventID).Take(&sc).Error
	return sc, notFound(err, fmt.Sprintf("team scoring %d", eventID))
}

// SaveTeamScoring writes an event's scoring at the version it was read
// with (0: none stored yet); otherwise ErrConflict. sc.Version becomes the
// new version.
func (s *Store) SaveTeamScoring(ctx context.Context, sc *TeamEventScoring) error {
	seen := sc.Version
	sc.UpdatedAt = sc.UpdatedAt.UTC()
	if seen == 0 {
		sc.Version, sc.CreatedAt = 1, sc.UpdatedAt
		if err := notFound(s.DB(ctx).Create(sc).Error, "create team scoring"); err != nil {
			sc.Version = 0
			return err
		}
		return nil
	}
	res := s.DB(ctx).Model(&TeamEventScoring{}).Where("event_id = ? AND version = ?", sc.EventID, seen).Updates(map[string]any{
		"win_halves": sc.WinHalves, "draw_halves": sc.DrawHalves, "loss_halves": sc.LossHalves, "bye_halves": sc.ByeHalves,
		"bye_board_wins": sc.ByeBoardWins, "tiebreaks": sc.Tiebreaks, "updated_at": sc.UpdatedAt, "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "update team scoring")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team scoring %d changed since version %d: %w", sc.EventID, seen, ErrConflict)
	}
	sc.Version = seen + 1
	return nil
}
