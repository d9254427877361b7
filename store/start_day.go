package store

import (
	"context"
	"time"
)

// RecentDayEntry is one desk-log entry of an amateur day for the start
// page's recent changes (issue 23 §5): its class's names and its player's
// name joined in, the detail as written.
type RecentDayEntry struct {
	ID          int64
	EventID     int64
	ClassID     int64
	ClassName   string
	ClassNameEn string
	PlayerID    int64
	PlayerName  string
	Action      string
	Detail      string
	ActorID     int64
	At          time.Time
}

// RecentDayLog lists the newest desk-log entries with one of actions in
// the scope's events, newest first, at most limit (one statement).
func (s *Store) RecentDayLog(ctx context.Context, sc StartScope, actions []string, limit int) ([]RecentDayEntry, error) {
	q := s.DB(ctx).Table("day_log l").
		Select("l.id, l.event_id, COALESCE(l.class_id, 0) AS class_id, COALESCE(c.name, '') AS class_name, COALESCE(c.name_en, '') AS class_name_en, "+
			"COALESCE(l.player_id, 0) AS player_id, COALESCE(p.name, '') AS player_name, l.action, l.detail, l.actor_id, l.at").
		Joins("LEFT JOIN day_classes c ON c.id = l.class_id").
		Joins("LEFT JOIN players p ON p.id = l.player_id").
		Where("l.action IN ?", nonEmpty(actions))
	q = s.staffed(ctx, q, "l.event_id", sc)
	var out []RecentDayEntry
	err := q.Order("l.at DESC, l.id DESC").Limit(limit).Scan(&out).Error
	return out, notFound(err, "recent day log")
}

// DayPlace is where a game of an amateur day is played: its class, round
// and board.
type DayPlace struct {
	GameID      int64
	ClassName   string
	ClassNameEn string
	Round       int
	Board       int
}

// DayPlacesOfGames reads the class, round and board of those of the games
// that are boards of a day (one statement; none for an empty list).
func (s *Store) DayPlacesOfGames(ctx context.Context, gameIDs []int64) (map[int64]DayPlace, error) {
	out := map[int64]DayPlace{}
	if len(gameIDs) == 0 {
		return out, nil
	}
	var rows []DayPlace
	err := s.DB(ctx).Table("day_pairings p").
		Select("p.game_id, c.name AS class_name, c.name_en AS class_name_en, r.number AS round, p.board").
		Joins("JOIN day_rounds r ON r.id = p.round_id").
		Joins("JOIN day_classes c ON c.id = r.class_id").
		Where("p.game_id IN ?", gameIDs).Scan(&rows).Error
	if err != nil {
		return nil, notFound(err, "day places of games")
	}
	for _, r := range rows {
		out[r.GameID] = r
	}
	return out, nil
}
