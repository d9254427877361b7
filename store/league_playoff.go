package store

import "context"

// LeaguePlayoffGame links a stepladder playoff game (パラマス) of a class to
// its game row: Number is the league room's PlayoffGame number.
type LeaguePlayoffGame struct {
	ID      int64 `gorm:"primaryKey"`
	ClassID int64 `gorm:"not null"`
	Number  int   `gorm:"not null"`
	GameID  int64 `gorm:"not null"`
	Attempt int   `gorm:"not null;default:0"` // earlier attempts were voided by a correction (migration 00096)
}

// CreateLeaguePlayoffGame links a playoff game; ErrConflict when the class
// already has that game number.
func (s *Store) CreateLeaguePlayoffGame(ctx context.Context, g *LeaguePlayoffGame) error {
	var voided int
	if err := s.DB(ctx).Model(&LeaguePlayoffGame{}).Select("COUNT(*)").
		Where("class_id = ? AND number = ? AND game_id IN (?)", g.ClassID, g.Number, s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Scan(&voided).Error; err != nil {
		return notFound(err, "create league playoff game")
	}
	g.Attempt = voided
	return notFound(s.DB(ctx).Create(g).Error, "create league playoff game")
}

// LeaguePlayoffGames lists a class's playoff games in order, leaving out
// games a correction made void.
func (s *Store) LeaguePlayoffGames(ctx context.Context, classID int64) ([]LeaguePlayoffGame, error) {
	var out []LeaguePlayoffGame
	err := s.DB(ctx).Where("class_id = ? AND game_id NOT IN (?)", classID, s.DB(ctx).Model(&GameVoid{}).Select("game_id")).Order("number").Find(&out).Error
	return out, notFound(err, "league playoff games")
}

// LeaguePlayoffGameOf finds the playoff game a game row belongs to;
// ErrNotFound when it is not a playoff game.
func (s *Store) LeaguePlayoffGameOf(ctx context.Context, gameID int64) (LeaguePlayoffGame, error) {
	var g LeaguePlayoffGame
	err := s.DB(ctx).Where("game_id = ?", gameID).Take(&g).Error
	return g, notFound(err, "league playoff game")
}
