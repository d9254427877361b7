package store

import (
	"context"
	"fmt"
	"time"
)

// TeamMatch is a team match of a round (issue 25 item 3, 00300): team A
// against team B at a table. Its result is not stored; it follows from the
// boards' games.
type TeamMatch struct {
	ID            int64 `gorm:"primaryKey"`
	EventID       int64
	RoundID       int64
	TableNo       int
	TeamAID       int64 `gorm:"column:team_a_id"`
	TeamBID       int64 `gorm:"column:team_b_id"`
	Seed          string
	Started       bool
	Furigoma      string
	ForfeitTeamID *int64
	Version       int
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// TeamMatchBoard is one board of a started match.
type TeamMatchBoard struct {
	ID        int64 `gorm:"primaryKey"`
	MatchID   int64
	Board     int
	APlayerID *int64 `gorm:"column:a_player_id"`
	BPlayerID *int64 `gorm:"column:b_player_id"`
	ASente    bool   `gorm:"column:a_sente"`
	GameID    *int64
}

// CreateTeamMatch adds a match (ErrConflict when the round's table is taken).
func (s *Store) CreateTeamMatch(ctx context.Context, m *TeamMatch) error {
	m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
	if m.Version == 0 {
		m.Version = 1
	}
	if m.Furigoma == "" {
		m.Furigoma = "{}"
	}
	return notFound(s.DB(ctx).Create(m).Error, "create team match")
}

// TeamMatchByID reads one match.
func (s *Store) TeamMatchByID(ctx context.Context, id int64) (TeamMatch, error) {
	var m TeamMatch
	err := s.DB(ctx).Where("id = ?", id).Take(&m).Error
	return m, notFound(err, fmt.Sprintf("team match %d", id))
}

// TeamMatchesOfRound lists a round's matches by table.
func (s *Store) TeamMatchesOfRound(ctx context.Context, roundID int64) ([]TeamMatch, error) {
	var out []TeamMatch
	err := s.DB(ctx).Where("round_id = ?", roundID).Order("table_no").Find(&out).Error
	return out, notFound(err, "team matches of round")
}

// TeamMatchesOfEvent lists an event's matches by round and table.
func (s *Store) TeamMatchesOfEvent(ctx context.Context, eventID int64) ([]TeamMatch, error) {
	var out []TeamMatch
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("round_id, table_no").Find(&out).Error
	return out, notFound(err, "team matches of event")
}

// TeamMatchBoardsOf lists the boards of the matches, by match and board
// (one statement).
func (s *Store) TeamMatchBoardsOf(ctx context.Context, matchIDs []int64) (map[int64][]TeamMatchBoard, error) {
	out := map[int64][]TeamMatchBoard{}
	if len(matchIDs) == 0 {
		return out, nil
	}
	var rows []TeamMatchBoard
	if err := s.DB(ctx).Where("match_id IN ?", matchIDs).Order("match_id, board").Find(&rows).Error; err != nil {
		return nil, notFound(err, "team match boards")
	}
	for _, b := range rows {
		out[b.MatchID] = append(out[b.MatchID], b)
	}
	return out, nil
}

// StartTeamMatch marks a match started at the version it was read with,
// with its toss and forfeit, and adds its boards; otherwise ErrConflict.
func (s *Store) StartTeamMatch(ctx context.Context, m *TeamMatch, boards []TeamMatchBoard) error {
	seen := m.Version
	res := s.DB(ctx).Model(&TeamMatch{}).Where("id = ? AND version = ? AND started = ?", m.ID, seen, false).Updates(map[string]any{
		"started": true, "furigoma": m.Furigoma, "forfeit_team_id": m.ForfeitTeamID,
		"updated_at": m.UpdatedAt.UTC(), "version": seen + 1,
	})
	if res.Error != nil {
		return notFound(res.Error, "start team match")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("team match %d changed since version %d: %w", m.ID, seen, ErrConflict)
	}
	m.Version, m.Started = seen+1, true
	for i := range boards {
		boards[i].MatchID = m.ID
		if err := s.DB(ctx).Create(&boards[i]).Error; err != nil {
			return notFound(err, "add team match board")
		}
	}
	return nil
}
