package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Game is one game of an event. SentePlayerID/GotePlayerID are nil while a
// slot waits for an earlier result. Allowances are per side because a redo
// game's allowances come from each side's remaining time (D-R2).
type Game struct {
	ID              int64  `gorm:"primaryKey"`
	EventID         int64  `gorm:"not null"`
	Label           string `gorm:"not null;default:''"`
	SentePlayerID   *int64
	GotePlayerID    *int64
	Handicap        string `gorm:"not null;default:'平手'"`
	ScheduledOn     *string
	SenteAllowanceS int `gorm:"column:sente_allowance_s;not null;default:0"`
	GoteAllowanceS  int `gorm:"column:gote_allowance_s;not null;default:0"`
	RedoOfID        *int64
	RedoNumber      int `gorm:"not null;default:0"`
	StartedAt       *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// GameResult is one version of a game's result; rows are never updated.
type GameResult struct {
	ID        int64  `gorm:"primaryKey"`
	GameID    int64  `gorm:"not null"`
	Version   int    `gorm:"not null"`
	Result    string `gorm:"not null"`
	Reason    string `gorm:"not null"`
	Outcome   string `gorm:"not null;default:'{}'"`
	Note      string `gorm:"not null;default:''"`
	EnteredBy int64  `gorm:"not null"`
	EnteredAt time.Time
	// EnteredVia names the API token the version came through ("" for the
	// web; migration 00115).
	EnteredVia string `gorm:"not null;default:''"`
}

// GameResultConfirmation confirms one result version.
type GameResultConfirmation struct {
	ID           int64 `gorm:"primaryKey"`
	GameResultID int64 `gorm:"not null;uniqueIndex"`
	ConfirmedBy  int64 `gorm:"not null"`
	ConfirmedAt  time.Time
	ConfirmedVia string `gorm:"not null;default:''"` // the API token's name ("" from the web; 00146)
}

// ResultVersion is a result version with its confirmation, if any.
type ResultVersion struct {
	GameResult
	ConfirmedBy  *int64
	ConfirmedAt  *time.Time
	ConfirmedVia *string
}

// Confirmed reports whether the version was confirmed.
func (v ResultVersion) Confirmed() bool { return v.ConfirmedBy != nil }

// CreateGame inserts g.
func (s *Store) CreateGame(ctx context.Context, g *Game) error {
	return notFound(s.DB(ctx).Create(g).Error, "create game")
}

// GameByID loads one game.
func (s *Store) GameByID(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := s.DB(ctx).Where("id = ?", id).Take(&g).Error
	return g, notFound(err, fmt.Sprintf("game %d", id))
}

// GamesOfEvent lists an event's games in creation order.
func (s *Store) GamesOfEvent(ctx context.Context, eventID int64) ([]Game, error) {
	var gs []Game
	err := s.DB(ctx).Where("event_id = ?", eventID).Order("id").Find(&gs).Error
	return gs, notFound(err, "games of event")
}

// SetGamePlayers fills a game's seats (a bracket slot whose players became
// known). It refuses once the game has started.
func (s *Store) SetGamePlayers(ctx context.Context, id int64, sente, gote *int64, now time.Time) error {
	res := s.DB(ctx).Model(&Game{}).Where("id = ? AND started_at IS NULL", id).
		Updates(map[string]any{"sente_player_id": sente, "gote_player_id": gote, "updated_at": now.UTC()})
	if res.Error != nil {
		return notFound(res.Error, "set game players")
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("game %d is missing or has started: %w", id, ErrConflict)
	}
	return nil
}

// MarkGameStarted records when a game began; a second call keeps the first
// time.
func (s *Store) MarkGameStarted(ctx context.Context, id int64, at time.Time) error {
	return notFound(s.DB(ctx).Model(&Game{}).Where("id = ? AND started_at IS NULL", id).
		Updates(map[string]any{"started_at": at.UTC(), "updated_at": at.UTC()}).Error, "mark game started")
}

// EventHasStartedGame reports whether any game of the event has started.
func (s *Store) EventHasStartedGame(ctx context.Context, eventID int64) (bool, error) {
	var n int64
	err := s.DB(ctx).Model(&Game{}).Where("event_id = ? AND started_at IS NOT NULL", eventID).Count(&n).Error
	return n > 0, err
}

// RedoGames lists the redo games that replay game id, in order, leaving
// out void ones (game_voids: their redo result was superseded).
func (s *Store) RedoGames(ctx context.Context, id int64) ([]Game, error) {
	var gs []Game
	err := s.DB(ctx).Where("redo_of_id = ? AND id NOT IN (SELECT game_id FROM game_voids)", id).Order("redo_number, id").Find(&gs).Error
	return gs, err
}

// AppendResult adds the next version of a game's result and returns it.
func (s *Store) AppendResult(ctx context.Context, r *GameResult) error {
	var last struct{ V *int }
	if err := s.DB(ctx).Model(&GameResult{}).Select("MAX(version) AS v").Where("game_id = ?", r.GameID).Scan(&last).Error; err != nil {
		return fmt.Errorf("append result: %w", err)
	}
	r.Version = 1
	if last.V != nil {
		r.Version = *last.V + 1
	}
	r.EnteredAt = r.EnteredAt.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "append result")
}

// ConfirmResult records the confirmation of one result version.
func (s *Store) ConfirmResult(ctx context.Context, c *GameResultConfirmation) error {
	c.ConfirmedAt = c.ConfirmedAt.UTC()
	return notFound(s.DB(ctx).Create(c).Error, "confirm result")
}

// GameResultByID loads one result version with its confirmation.
func (s *Store) GameResultByID(ctx context.Context, id int64) (ResultVersion, error) {
	var vs []ResultVersion
	err := s.resultVersions(ctx).Where("game_results.id = ?", id).Scan(&vs).Error
	if err != nil {
		return ResultVersion{}, err
	}
	if len(vs) == 0 {
		return ResultVersion{}, fmt.Errorf("result %d: %w", id, ErrNotFound)
	}
	return vs[0], nil
}

func (s *Store) resultVersions(ctx context.Context) *gorm.DB {
	return s.DB(ctx).Table("game_results").
		Select("game_results.*, c.confirmed_by AS confirmed_by, c.confirmed_at AS confirmed_at, c.confirmed_via AS confirmed_via").
		Joins("LEFT JOIN game_result_confirmations c ON c.game_result_id = game_results.id")
}

// ResultHistory lists every result version of a game, oldest first.
func (s *Store) ResultHistory(ctx context.Context, gameID int64) ([]ResultVersion, error) {
	var vs []ResultVersion
	err := s.resultVersions(ctx).Where("game_results.game_id = ?", gameID).Order("game_results.version").Scan(&vs).Error
	return vs, err
}

// EffectiveResults returns, per game of the event, the result in force
// (EffectiveOf; games without one are absent).
func (s *Store) EffectiveResults(ctx context.Context, eventID int64) (map[int64]ResultVersion, error) {
	var vs []ResultVersion
	err := s.resultVersions(ctx).
		Joins("JOIN games g ON g.id = game_results.game_id").
		Where("g.event_id = ?", eventID).
		Order("game_results.game_id, game_results.version").Scan(&vs).Error
	if err != nil {
		return nil, err
	}
	out := make(map[int64]ResultVersion, len(vs))
	for i := 0; i < len(vs); {
		j := i
		for j < len(vs) && vs[j].GameID == vs[i].GameID {
			j++
		}
		if v, ok := EffectiveOf(vs[i:j]); ok {
			out[v.GameID] = v
		}
		i = j
	}
	return out, nil
}

// EffectiveResult is the result in force of one game (EffectiveOf).
func (s *Store) EffectiveResult(ctx context.Context, gameID int64) (ResultVersion, bool, error) {
	vs, err := s.ResultHistory(ctx, gameID)
	if err != nil {
		return ResultVersion{}, false, err
	}
	v, ok := EffectiveOf(vs)
	return v, ok, nil
}

// GameStarts is what the store knows about when an event's games started
// (000 第10条第5項, office.nextGameOf): every game of the event, when
// each one's first record version was entered, and which are void.
type GameStarts struct {
	Games       []Game
	FirstRecord map[int64]time.Time
	Void        map[int64]bool
}

// GameStartsOfPlayers reads GameStarts for the games of an event in which
// one of players sits (sente or gote), in three statements whatever the
// number of games: what a foul claim asks about the claimed game's next
// game, without the rest of the event's games.
func (s *Store) GameStartsOfPlayers(ctx context.Context, eventID int64, players []int64) (GameStarts, error) {
	out := GameStarts{FirstRecord: map[int64]time.Time{}, Void: map[int64]bool{}}
	if len(players) == 0 {
		return out, nil
	}
	theirs := func() *gorm.DB { // a fresh subquery for each statement
		return s.DB(ctx).Model(&Game{}).Select("id").
			Where("event_id = ? AND (sente_player_id IN ? OR gote_player_id IN ?)", eventID, players, players)
	}
	if err := s.DB(ctx).Where("id IN (?)", theirs()).Order("id").Find(&out.Games).Error; err != nil {
		return out, notFound(err, "games of players in event")
	}
	var recs []struct {
		GameID    int64
		EnteredAt time.Time
	}
	if err := s.DB(ctx).Model(&GameRecord{}).Select("game_id, entered_at").
		Where("version = 1 AND game_id IN (?)", theirs()).
		Find(&recs).Error; err != nil {
		return out, fmt.Errorf("first records of players' games: %w", err)
	}
	for _, r := range recs {
		out.FirstRecord[r.GameID] = r.EnteredAt
	}
	var voids []int64
	if err := s.DB(ctx).Model(&GameVoid{}).Where("game_id IN (?)", theirs()).
		Pluck("game_id", &voids).Error; err != nil {
		return out, fmt.Errorf("void games of players' games: %w", err)
	}
	for _, id := range voids {
		out.Void[id] = true
	}
	return out, nil
}
