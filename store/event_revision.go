package store

import (
	"context"
	"fmt"
	"time"
)

// Revisions of what an event's public pages show (migration 00097,
// docs/caching.md). Triggers raise them on every write, whichever process
// makes it, so a conditional GET is answered from one row and nothing is
// kept in memory.

// EventChange is an event's revision: raised by every write to the event
// or to a row that reaches it. The triggers write it; Go only reads.
type EventChange struct {
	EventID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Revision  int64 `gorm:"not null"`
	ChangedAt time.Time
}

// RegistryChange is the single row (ID 1) raised by every write to what
// every event page shows by name: players, their 師匠 and 肉親, organisers,
// the names of users. Absent until the first such write (revision 0).
type RegistryChange struct {
	ID        int64 `gorm:"primaryKey;autoIncrement:false"`
	Revision  int64 `gorm:"not null"`
	ChangedAt time.Time
}

// RevisionTable is one table the triggers of 00097 watch.
type RevisionTable struct {
	Table string
	// Way is the column that leads to the event (its own event_id, or a
	// parent: game_id, game_result_id, stage_id, class_id of a league
	// class; "id" for events itself; day_class_id and day_round_id, 00155,
	// for the class_id of a day class and the round_id of a day round);
	// empty for a registry table. It is the triggers' argument.
	Way string
	// Ops are the watched writes: I insert, U update, D delete. Append-only
	// tables refuse U and D, so they need I only.
	Ops string
}

// RevisionTables lists the tables whose writes raise a revision, as the
// triggers of migration 00097 (<table>_changed_<insert|update|delete>).
func RevisionTables() []RevisionTable {
	return []RevisionTable{
		{"events", "id", "IU"}, // a deleted event takes its row along
		{"event_status_changes", "event_id", "IUD"},
		{"event_roles", "event_id", "IUD"},
		{"event_settings_unlocks", "event_id", "I"},
		{"event_settings_changes", "event_id", "I"},
		{"corrections", "event_id", "I"},
		{"games", "event_id", "IUD"},
		{"game_results", "game_id", "I"},
		{"game_result_confirmations", "game_result_id", "I"},
		{"game_records", "game_id", "I"},
		{"game_adjudications", "game_id", "I"},
		{"rulings", "game_id", "I"},
		{"game_voids", "game_id", "I"},
		{"appeals", "game_id", "I"},          // 00210: the game page lists them
		{"appeal_decisions", "game_id", "I"}, // 00210
		{"game_moves", "game_id", "I"},       // 00280: the live record
		{"game_move_undos", "game_id", "I"},  // 00280
		{"knockout_stages", "event_id", "IUD"},
		{"knockout_entrants", "stage_id", "IUD"},
		{"knockout_games", "stage_id", "IUD"},
		{"knockout_draw_log", "stage_id", "I"},
		{"league_classes", "event_id", "IUD"},
		{"league_members", "class_id", "IUD"},
		{"league_history", "event_id", "IUD"},
		{"league_games", "class_id", "IUD"},
		{"league_playoff_games", "class_id", "IUD"},
		{"league_schedule_log", "class_id", "I"},
		{"league_member_changes", "event_id", "I"}, // 00200
		{"organisers", "", "IUD"},
		{"players", "", "IUD"},
		{"player_masters", "", "IUD"},
		{"player_relatives", "", "IUD"},
		{"users", "", "U"}, // of login and display_name only
		// The amateur day (00155): its public pages answer conditional GETs.
		{"day_events", "event_id", "IUD"},
		{"day_classes", "event_id", "IUD"},
		{"day_entrants", "event_id", "IUD"},
		{"day_rounds", "day_class_id", "I"},
		{"day_pairings", "day_round_id", "I"},
		{"day_log", "event_id", "I"}, // observed tosses show on the class page
		{"day_finals", "day_class_id", "I"},
		// The entry form's settings (00175): the day page links the form.
		{"day_entry_settings", "event_id", "IUD"},
		// The 上座 of a game, as the organiser set it (00220): the game page names it.
		{"seat_overrides", "game_id", "I"},
	}
}

// UnwatchedTables are the tables no event page shows, so no trigger of
// 00097 watches them (a test makes every table one or the other).
func UnwatchedTables() []string {
	return []string{
		"app_settings", "sessions", "login_attempts", // the instance and sign-in
		"player_ratings", "rating_history", "rating_state", // shown on rating pages only
		"event_changes", "registry_changes", // the revisions themselves
		"goose_db_version",
		// The day's paper settings and players' reports (00130): shown on
		// staff pages (slips, the director's view) and the report link, all
		// rendered fresh; a report that enters a result writes game_results,
		// which is watched. (The day's other tables are watched, 00155.)
		"day_class_paper", "day_report_links", "day_reports", "day_report_misses",
		// Each player's secret and where a reported result came from
		// (00160): written in the transaction that writes game_results.
		"day_report_secrets", "day_report_results",
		// API tokens (00115): shown on the staff token page only, rendered
		// fresh; a write through a token changes watched tables
		// (game_results, game_records, rulings) in the same transaction.
		"api_tokens", "api_token_uses",
		// The API's shared rate limit (00145): no page shows it.
		"api_rate_limits",
		// Entries before the day (00175): shown on the entry form, the
		// entrant's private link and the director's list, all rendered
		// fresh; an approval writes day_entrants, which is watched.
		"day_entries",
		// Team events (00260): the team pages are rendered fresh and never
		// answer 304 — an order's publication follows the clock (its
		// deadline) as well as writes, which no revision can tell.
		"team_events", "teams", "team_members", "team_rounds", "team_orders", "team_order_boards",
		// Team matches (00300): the matches and standings pages are rendered
		// fresh like the other team pages; a board's game is watched as a game.
		"team_matches", "team_match_boards",
		// The team Swiss draw's byes and the organiser's scoring (00340):
		// read by the same fresh team pages.
		"team_round_byes", "team_event_scoring",
		// The recorder's secret links (00280): read only when a link is
		// used and by the office that issues them, never on a cached page.
		"recorder_links",
	}
}

// EventRevision is what an event's pages are made from, as far as a
// conditional GET needs to know.
type EventRevision struct {
	Event    int64 // the event's revision
	Registry int64 // the registry's revision (0 before its first change)
	// At is the later of the two changes, to the second (Last-Modified).
	At time.Time
	// Settled reports that the database clock has passed At's second, so
	// any later change falls in a later second: only then may At stand
	// for the revision in If-Modified-Since.
	Settled bool
}

// EventRevision reads the revision of an event's pages; ok is false when
// the event has none (it does not exist).
func (s *Store) EventRevision(ctx context.Context, eventID int64) (rev EventRevision, ok bool, err error) {
	// Seconds since the epoch, computed by the database: no time parsing,
	// and the same clock that stamped changed_at.
	q := `SELECT c.revision, COALESCE(r.revision, 0),
		CAST(strftime('%s', max(c.changed_at, COALESCE(r.changed_at, c.changed_at))) AS INTEGER),
		CAST(strftime('%s', 'now') AS INTEGER)
		FROM event_changes c LEFT JOIN registry_changes r ON r.id = 1 WHERE c.event_id = ?`
	if s.dialect == Postgres {
		q = `SELECT c.revision, COALESCE(r.revision, 0),
		CAST(floor(extract(epoch FROM GREATEST(c.changed_at, r.changed_at))) AS BIGINT),
		CAST(floor(extract(epoch FROM clock_timestamp())) AS BIGINT)
		FROM event_changes c LEFT JOIN registry_changes r ON r.id = 1 WHERE c.event_id = ?`
	}
	var at, now int64
	rows, err := s.DB(ctx).Raw(q, eventID).Rows()
	if err != nil {
		return EventRevision{}, false, fmt.Errorf("revision of event %d: %w", eventID, Classify(err))
	}
	defer rows.Close()
	if !rows.Next() {
		return EventRevision{}, false, Classify(rows.Err())
	}
	if err := rows.Scan(&rev.Event, &rev.Registry, &at, &now); err != nil {
		return EventRevision{}, false, fmt.Errorf("revision of event %d: %w", eventID, Classify(err))
	}
	rev.At, rev.Settled = time.Unix(at, 0).UTC(), at < now
	return rev, true, nil
}
