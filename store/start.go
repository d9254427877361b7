package store

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// The start page (issue 13) reads a fixed number of statements whatever
// the number of events, games and results: each list below is one
// statement, bounded by a LIMIT, over the events the user staffs (or every
// event for an administrator).

// StartScope is whose start page is read: an administrator sees every
// event, anyone else the events where they hold a role.
type StartScope struct {
	UserID int64
	Admin  bool
}

// staffed narrows q (over a table with an event id column col) to the
// scope's events; roles, when given, limit it to events where the user
// holds one of them.
func (s *Store) staffed(ctx context.Context, q *gorm.DB, col string, sc StartScope, roles ...string) *gorm.DB {
	if sc.Admin {
		return q
	}
	sub := s.DB(ctx).Model(&EventRole{}).Select("event_id").Where("user_id = ?", sc.UserID)
	if len(roles) > 0 {
		sub = sub.Where("role IN ?", roles)
	}
	return q.Where(col+" IN (?)", sub)
}

// StartEvents lists the scope's events, newest start date first, at most
// limit of them.
func (s *Store) StartEvents(ctx context.Context, sc StartScope, limit int) ([]Event, error) {
	var out []Event
	q := s.staffed(ctx, s.DB(ctx).Model(&Event{}), "id", sc)
	err := q.Order("start_date DESC, id DESC").Limit(limit).Find(&out).Error
	return out, notFound(err, "start events")
}

// newestVersion limits a query over game_results r to each game's newest
// version.
const newestVersion = "r.version = (SELECT MAX(r2.version) FROM game_results r2 WHERE r2.game_id = r.game_id)"

// WaitingGames lists games of the scope's events that have both players,
// no result in force, are not void, and are due: started, or scheduled on
// or before today (YYYY-MM-DD), or without a date. No result in force: no
// result version at all, or a newest version that is pending for any
// reason but the arbiter's (rulingReasons: those wait for a ruling, see
// WaitingRulings) — a result taken back (undo) or a toss to be made.
// Oldest date first, at most limit.
func (s *Store) WaitingGames(ctx context.Context, sc StartScope, today string, rulingReasons []string, limit int) ([]Game, error) {
	q := s.DB(ctx).Model(&Game{}).
		Where("sente_player_id IS NOT NULL AND gote_player_id IS NOT NULL").
		Where("NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = games.id AND "+newestVersion+
			" AND NOT (r.result = 'pending' AND r.reason NOT IN ?))", nonEmpty(rulingReasons)).
		Where("NOT EXISTS (SELECT 1 FROM game_voids v WHERE v.game_id = games.id)").
		Where("started_at IS NOT NULL OR scheduled_on IS NULL OR scheduled_on <= ?", today)
	q = s.staffed(ctx, q, "event_id", sc, "director", "arbiter", "recorder")
	var out []Game
	err := q.Order("scheduled_on, id").Limit(limit).Find(&out).Error
	return out, notFound(err, "waiting games")
}

// PendingResult is a game's newest result version, not confirmed, with
// the game's event and seats.
type PendingResult struct {
	GameResult
	EventID       int64
	SentePlayerID *int64
	GotePlayerID  *int64
}

// UnconfirmedResults lists newest result versions without a confirmation
// in the scope's events where the user may confirm (director, arbiter),
// entered by someone else, oldest first, at most limit.
func (s *Store) UnconfirmedResults(ctx context.Context, sc StartScope, limit int) ([]PendingResult, error) {
	q := s.DB(ctx).Table("game_results").
		Select("game_results.*, games.event_id, games.sente_player_id, games.gote_player_id").
		Joins("JOIN games ON games.id = game_results.game_id").
		Where("game_results.version = (SELECT MAX(r2.version) FROM game_results r2 WHERE r2.game_id = game_results.game_id)").
		Where("NOT EXISTS (SELECT 1 FROM game_result_confirmations c WHERE c.game_result_id = game_results.id)").
		Where("NOT EXISTS (SELECT 1 FROM game_voids v WHERE v.game_id = games.id)").
		Where("game_results.entered_by <> ?", sc.UserID)
	q = s.staffed(ctx, q, "games.event_id", sc, "director", "arbiter")
	var out []PendingResult
	err := q.Order("game_results.entered_at, game_results.id").Limit(limit).Scan(&out).Error
	return out, notFound(err, "unconfirmed results")
}

// WaitingRulings lists games of the scope's events (where the user is
// director or arbiter) whose newest result version is pending for one of
// rulingReasons: a disputed foul, a redo limit the arbiter settles, a
// foul loss superseded (D-X5, D-R4, D-K1). Not void; oldest first, at
// most limit.
func (s *Store) WaitingRulings(ctx context.Context, sc StartScope, rulingReasons []string, limit int) ([]PendingResult, error) {
	q := s.DB(ctx).Table("game_results r").
		Select("r.*, games.event_id, games.sente_player_id, games.gote_player_id").
		Joins("JOIN games ON games.id = r.game_id").
		Where(newestVersion).
		Where("r.result = 'pending' AND r.reason IN ?", nonEmpty(rulingReasons)).
		Where("NOT EXISTS (SELECT 1 FROM game_voids v WHERE v.game_id = games.id)")
	q = s.staffed(ctx, q, "games.event_id", sc, "director", "arbiter")
	var out []PendingResult
	err := q.Order("r.entered_at, r.id").Limit(limit).Scan(&out).Error
	return out, notFound(err, "waiting rulings")
}

// nonEmpty keeps an IN list valid SQL when it is empty.
func nonEmpty(xs []string) []string {
	if len(xs) == 0 {
		return []string{""}
	}
	return xs
}

// RecentResult is one result version with its game's event and seats.
type RecentResult = PendingResult

// RecentResults lists the newest result versions in the scope's events,
// newest first, at most limit.
func (s *Store) RecentResults(ctx context.Context, sc StartScope, limit int) ([]RecentResult, error) {
	q := s.DB(ctx).Table("game_results").
		Select("game_results.*, games.event_id, games.sente_player_id, games.gote_player_id").
		Joins("JOIN games ON games.id = game_results.game_id")
	q = s.staffed(ctx, q, "games.event_id", sc)
	var out []RecentResult
	err := q.Order("game_results.entered_at DESC, game_results.id DESC").Limit(limit).Scan(&out).Error
	return out, notFound(err, "recent results")
}

// RecentRuling is one ruling with its game's event and seats.
type RecentRuling struct {
	Ruling
	EventID       int64
	SentePlayerID *int64
	GotePlayerID  *int64
}

// RecentRulings lists the newest rulings in the scope's events.
func (s *Store) RecentRulings(ctx context.Context, sc StartScope, limit int) ([]RecentRuling, error) {
	q := s.DB(ctx).Table("rulings").
		Select("rulings.*, games.event_id, games.sente_player_id, games.gote_player_id").
		Joins("JOIN games ON games.id = rulings.game_id")
	q = s.staffed(ctx, q, "games.event_id", sc)
	var out []RecentRuling
	err := q.Order("rulings.made_at DESC, rulings.id DESC").Limit(limit).Scan(&out).Error
	return out, notFound(err, "recent rulings")
}

// RecentDrawEntry is one draw or schedule log entry: of a knockout stage
// (StageID) or a league class (ClassID), with the place's name.
type RecentDrawEntry struct {
	ID      int64
	EventID int64
	StageID int64
	ClassID int64
	Place   string // the stage's name, or the class (A, B1, …)
	PlaceEn string // the stage's English name ("" for a class)
	Kind    string // the stage's kind ("" for a class)
	Action  string
	ActorID int64
	At      time.Time
}

// RecentDraws lists the newest draw-log and schedule-log entries of the
// scope's events (two statements), newest first, at most limit of each.
func (s *Store) RecentDraws(ctx context.Context, sc StartScope, limit int) ([]RecentDrawEntry, []RecentDrawEntry, error) {
	var ko, lg []RecentDrawEntry
	q := s.DB(ctx).Table("knockout_draw_log d").
		Select("d.id, s.event_id, d.stage_id, 0 AS class_id, s.name AS place, s.name_en AS place_en, s.kind, d.action, d.actor_id, d.at").
		Joins("JOIN knockout_stages s ON s.id = d.stage_id")
	q = s.staffed(ctx, q, "s.event_id", sc)
	if err := q.Order("d.at DESC, d.id DESC").Limit(limit).Scan(&ko).Error; err != nil {
		return nil, nil, notFound(err, "recent draws")
	}
	q = s.DB(ctx).Table("league_schedule_log l").
		Select("l.id, c.event_id, 0 AS stage_id, l.class_id, c.class AS place, '' AS place_en, '' AS kind, l.action, l.actor_id, l.at").
		Joins("JOIN league_classes c ON c.id = l.class_id")
	q = s.staffed(ctx, q, "c.event_id", sc)
	if err := q.Order("l.at DESC, l.id DESC").Limit(limit).Scan(&lg).Error; err != nil {
		return nil, nil, notFound(err, "recent schedules")
	}
	return ko, lg, nil
}

// SetupCounts is what the first-run checklist ticks off.
type SetupCounts struct {
	Organisers int64
	Events     int64
	Players    int64
	Stages     int64 // knockout stages and league classes
}

// SetupProgress counts, in one statement, what the first-run checklist
// looks for.
func (s *Store) SetupProgress(ctx context.Context) (SetupCounts, error) {
	var c SetupCounts
	err := s.DB(ctx).Raw(`SELECT
		(SELECT COUNT(*) FROM organisers) AS organisers,
		(SELECT COUNT(*) FROM events) AS events,
		(SELECT COUNT(*) FROM players) AS players,
		(SELECT COUNT(*) FROM knockout_stages) + (SELECT COUNT(*) FROM league_classes) AS stages`).Scan(&c).Error
	return c, notFound(err, "setup progress")
}

// NamesOf loads the display names of users (by id) and the names of
// players (by id), one statement each; empty id lists cost nothing.
func (s *Store) NamesOf(ctx context.Context, userIDs, playerIDs []int64) (users map[int64]string, players map[int64]Player, err error) {
	users, players = map[int64]string{}, map[int64]Player{}
	if len(userIDs) > 0 {
		var us []User
		if err := s.DB(ctx).Select("id, display_name, login").Where("id IN ?", userIDs).Find(&us).Error; err != nil {
			return nil, nil, notFound(err, "user names")
		}
		for _, u := range us {
			users[u.ID] = u.DisplayName
			if users[u.ID] == "" {
				users[u.ID] = u.Login
			}
		}
	}
	if len(playerIDs) > 0 {
		var ps []Player
		if err := s.DB(ctx).Select("id, name, reading, number").Where("id IN ?", playerIDs).Find(&ps).Error; err != nil {
			return nil, nil, notFound(err, "player names")
		}
		for _, p := range ps {
			players[p.ID] = p
		}
	}
	return users, players, nil
}

// EventsByID loads the events with the given ids (one statement).
func (s *Store) EventsByID(ctx context.Context, ids []int64) (map[int64]Event, error) {
	out := map[int64]Event{}
	if len(ids) == 0 {
		return out, nil
	}
	var es []Event
	if err := s.DB(ctx).Where("id IN ?", ids).Find(&es).Error; err != nil {
		return nil, notFound(err, "events by id")
	}
	for _, e := range es {
		out[e.ID] = e
	}
	return out, nil
}
