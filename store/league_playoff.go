package store

import "context"

// LeaguePlayoffGame links a stepladder playoff game (パラマス) of a class to
// its game row: Number is the league room's PlayoffGame number.
type LeaguePlayoffGame struct {
	ID      int64 `gorm:"primaryKey"`
	ClassID int64 `gorm:"not null"`
	Number  int   `gorm:"not null"`
	GameID  int64 `gorm:"not null"`
}

// CreateLeaguePlayoffGame links a playoff game; ErrConflict when the class
// already has that game number.
func (s *Store) CreateLeaguePlayoffGame(ctx context.Context, g *LeaguePlayoffGame) error {
	return notFound(s.DB(ctx).Create(g).Error, "create league playoff game")
}

// LeaguePlayoffGames lists a class's playoff games in order.
func (s *Store) LeaguePlayoffGames(ctx context.Context, classID int64) ([]LeaguePlayoffGame, error) {
	var out []LeaguePlayoffGame
	err := s.DB(ctx).Where("class_id = ?", classID).Order("number").Find(&out).Error
	return out, notFound(err, "league playoff games")
}

// LeaguePlayoffGameOf finds the playoff game a game row belongs to;
// ErrNotFound when it is not a playoff game.
func (s *Store) LeaguePlayoffGameOf(ctx context.Context, gameID int64) (LeaguePlayoffGame, error) {
	var g LeaguePlayoffGame
	err := s.DB(ctx).Where("game_id = ?", gameID).Take(&g).Error
	return g, notFound(err, "league playoff game")
}
