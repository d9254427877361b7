package store

import (
	"context"
	"fmt"
	"time"
)

// LeagueGame links a published class's scheduled game to its game row (the
// first game of a redo chain).
type LeagueGame struct {
	ID      int64 `gorm:"primaryKey"`
	ClassID int64 `gorm:"not null"`
	Round   int   `gorm:"not null"`
	GameID  int64 `gorm:"not null"`
}

// LeagueLogEntry is one line of a class's append-only schedule audit trail:
// draws, edits with the rules they broke and the override reason, and
// publication.
type LeagueLogEntry struct {
	ID         int64  `gorm:"primaryKey"`
	ClassID    int64  `gorm:"not null"`
	Action     string `gorm:"not null"`
	Detail     string `gorm:"not null;default:'{}'"`
	Violations string `gorm:"not null;default:'[]'"`
	Reason     string `gorm:"not null;default:''"`
	ActorID    int64  `gorm:"not null"`
	At         time.Time
}

// TableName keeps the table's singular audit-log name.
func (LeagueLogEntry) TableName() string { return "league_schedule_log" }

// CreateLeagueGame links a game to a class round.
func (s *Store) CreateLeagueGame(ctx context.Context, g *LeagueGame) error {
	return notFound(s.DB(ctx).Create(g).Error, "create league game")
}

// LeagueGames lists a class's games in round order, leaving out games made
// void (those of a schedule taken back before any result, office.UnpublishSchedule).
func (s *Store) LeagueGames(ctx context.Context, classID int64) ([]LeagueGame, error) {
	// Scanned by hand: read on every computed league table (issue 12).
	rows, err := s.DB(ctx).Raw("SELECT id, class_id, round, game_id FROM league_games"+
		" WHERE class_id = ? AND game_id NOT IN (SELECT game_id FROM game_voids) ORDER BY round, id", classID).Rows()
	if err != nil {
		return nil, notFound(err, "league games")
	}
	defer rows.Close()
	var out []LeagueGame
	for rows.Next() {
		var g LeagueGame
		if err := rows.Scan(&g.ID, &g.ClassID, &g.Round, &g.GameID); err != nil {
			return nil, fmt.Errorf("league games: %w", err)
		}
		out = append(out, g)
	}
	return out, notFound(rows.Err(), "league games")
}

// LeagueGameOf finds the class round of a game; ErrNotFound when the game
// is not a league game.
func (s *Store) LeagueGameOf(ctx context.Context, gameID int64) (LeagueGame, error) {
	var g LeagueGame
	err := s.DB(ctx).Where("game_id = ?", gameID).Take(&g).Error
	return g, notFound(err, "league game")
}

// AppendLeagueLog adds one audit entry; entries are never changed.
func (s *Store) AppendLeagueLog(ctx context.Context, e *LeagueLogEntry) error {
	e.At = e.At.UTC()
	return notFound(s.DB(ctx).Create(e).Error, "append league log")
}

// LeagueLog lists a class's audit trail, oldest first.
func (s *Store) LeagueLog(ctx context.Context, classID int64) ([]LeagueLogEntry, error) {
	var out []LeagueLogEntry
	err := s.DB(ctx).Where("class_id = ?", classID).Order("at, id").Find(&out).Error
	return out, notFound(err, "league log")
}
