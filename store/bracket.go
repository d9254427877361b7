package store

import (
	"context"
	"fmt"
	"time"
)

// KnockoutGame ties a bracket game ("R1-G3", "3P", "S2") to the first game
// of its redo chain. SenteBy says how sente was chosen (furigoma, observed,
// handicap, series) and Furigoma keeps every tossed piece as JSON.
type KnockoutGame struct {
	ID          int64  `gorm:"primaryKey"`
	StageID     int64  `gorm:"not null"`
	BracketGame string `gorm:"not null"`
	GameID      int64  `gorm:"not null"`
	SenteBy     string `gorm:"not null;default:'furigoma'"`
	Furigoma    string `gorm:"not null;default:'{}'"`
	Observed    string `gorm:"not null;default:'{}'"` // a physical 振り駒 as entered (migration 00051)
	Attempt     int    `gorm:"not null;default:0"`    // the slot's nth game: earlier ones were voided by a correction (00095)
	CreatedAt   time.Time
}

// AddKnockoutGame records which game plays a bracket game.
func (s *Store) AddKnockoutGame(ctx context.Context, g *KnockoutGame) error {
	g.CreatedAt = g.CreatedAt.UTC()
	// The slot's live game has attempt = its number of void games, so a
	// second live game of the same slot is a unique-key conflict.
	if err := s.DB(ctx).Model(&KnockoutGame{}).Select("COUNT(*)").Where("stage_id = ? AND bracket_game = ? AND game_id IN (?)", g.StageID, g.BracketGame,
		s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Scan(&g.Attempt).Error; err != nil {
		return fmt.Errorf("add bracket game: %w", err)
	}
	return notFound(s.DB(ctx).Create(g).Error, "add bracket game")
}

// KnockoutGamesOfStage lists a stage's bracket games in creation order,
// leaving out games a correction made void (VoidBracketGamesOfEvent).
func (s *Store) KnockoutGamesOfStage(ctx context.Context, stageID int64) ([]KnockoutGame, error) {
	// Scanned by hand: read on every bracket page and result (issue 12).
	rows, err := s.DB(ctx).Raw("SELECT id, stage_id, bracket_game, game_id, sente_by, furigoma, observed, attempt, created_at FROM knockout_games"+
		" WHERE stage_id = ? AND game_id NOT IN (SELECT game_id FROM game_voids) ORDER BY id", stageID).Rows()
	if err != nil {
		return nil, notFound(err, "bracket games")
	}
	defer rows.Close()
	var out []KnockoutGame
	for rows.Next() {
		var g KnockoutGame
		if err := rows.Scan(&g.ID, &g.StageID, &g.BracketGame, &g.GameID, &g.SenteBy, &g.Furigoma, &g.Observed, &g.Attempt, &g.CreatedAt); err != nil {
			return nil, fmt.Errorf("bracket games: %w", err)
		}
		out = append(out, g)
	}
	return out, notFound(rows.Err(), "bracket games")
}

// KnockoutGamesOfStages reads the bracket games of several stages (an
// event's) in one statement, by stage, each oldest first, leaving out void
// games as KnockoutGamesOfStage does. CreatedAt stays zero: a bracket never
// shows it, and scanning a timestamp cost more than the rest of the row.
func (s *Store) KnockoutGamesOfStages(ctx context.Context, stageIDs []int64) (map[int64][]KnockoutGame, error) {
	out := make(map[int64][]KnockoutGame, len(stageIDs))
	if len(stageIDs) == 0 {
		return out, nil
	}
	rows, err := s.DB(ctx).Raw("SELECT id, stage_id, bracket_game, game_id, sente_by, furigoma, observed, attempt FROM knockout_games"+
		" WHERE stage_id IN ? AND game_id NOT IN (SELECT game_id FROM game_voids) ORDER BY stage_id, id", stageIDs).Rows()
	if err != nil {
		return nil, notFound(err, "bracket games of stages")
	}
	defer rows.Close()
	var all []KnockoutGame
	for rows.Next() {
		var g KnockoutGame
		if err := rows.Scan(&g.ID, &g.StageID, &g.BracketGame, &g.GameID, &g.SenteBy, &g.Furigoma, &g.Observed, &g.Attempt); err != nil {
			return nil, fmt.Errorf("bracket games of stages: %w", err)
		}
		all = append(all, g)
	}
	if err := rows.Err(); err != nil {
		return nil, notFound(err, "bracket games of stages")
	}
	fileRuns(all, func(g *KnockoutGame) int64 { return g.StageID }, out) // they arrive by stage
	return out, nil
}

// KnockoutGameByGameID finds the bracket game a game belongs to.
func (s *Store) KnockoutGameByGameID(ctx context.Context, gameID int64) (KnockoutGame, error) {
	var g KnockoutGame
	err := s.DB(ctx).Where("game_id = ?", gameID).Take(&g).Error
	return g, notFound(err, "bracket game")
}

// KnockoutGameExists reports whether a stage's bracket game already has a
// game that is not void, in one statement (creating a bracket game checks
// this without reading the whole bracket).
func (s *Store) KnockoutGameExists(ctx context.Context, stageID int64, bracketGame string) (bool, error) {
	var n int64
	err := s.DB(ctx).Model(&KnockoutGame{}).Where("stage_id = ? AND bracket_game = ? AND game_id NOT IN (?)", stageID, bracketGame,
		s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Limit(1).Count(&n).Error
	return n > 0, notFound(err, "bracket game")
}

// KnockoutGameOf is a stage's bracket game that is not void, by its id in
// the bracket ("R1-G3"), in one statement.
func (s *Store) KnockoutGameOf(ctx context.Context, stageID int64, bracketGame string) (KnockoutGame, error) {
	var g KnockoutGame
	err := s.DB(ctx).Where("stage_id = ? AND bracket_game = ? AND game_id NOT IN (?)", stageID, bracketGame,
		s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Order("id DESC").Take(&g).Error
	return g, notFound(err, "bracket game")
}
