package store

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrAppendOnly is the database refusing to change or remove a row of an
// append-only table (rulings, result versions, confirmations, records,
// adjudication facts, voids, the settings, draw and schedule logs) or to
// delete a game that has results, rulings or records (migration 00080,
// docs/append-only.md). It wraps ErrConflict so the web answers 409: the
// code never issues such a statement, and if it ever does the request
// conflicts with history rather than failing the server.
var ErrAppendOnly = fmt.Errorf("append-only: %w", ErrConflict)

// appendOnlySQLState is the SQLSTATE PostgreSQL's kisen_append_only and
// kisen_no_delete_played_game trigger functions raise.
const appendOnlySQLState = "KA001"

// sqliteConstraintTrigger is SQLITE_CONSTRAINT_TRIGGER, the extended result
// code of RAISE(ABORT, …) (the SQLite driver turns extended codes on).
const sqliteConstraintTrigger = 1811

// isAppendOnly tells whether err is one of migration 00080's triggers
// refusing a statement. SQLite reports RAISE(ABORT) in a trigger as
// SQLITE_CONSTRAINT_TRIGGER; the append-only triggers are the only ones in
// the schema, so the code alone identifies them.
func isAppendOnly(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == appendOnlySQLState
	}
	var se interface{ Code() int } // *sqlite.Error of glebarez/go-sqlite
	if errors.As(err, &se) {
		return se.Code() == sqliteConstraintTrigger
	}
	return false
}

// AppendOnly maps a refusal by the append-only triggers to ErrAppendOnly
// (keeping the database's message) and returns any other error unchanged.
func AppendOnly(err error) error {
	if err == nil || errors.Is(err, ErrAppendOnly) || !isAppendOnly(err) {
		return err
	}
	return fmt.Errorf("%w (%v)", ErrAppendOnly, err)
}

// AppendOnlyTables lists the tables whose rows are never updated or
// deleted; migration 00080 gives each of them the triggers
// <table>_no_update and <table>_no_delete (and <table>_no_replace on SQLite,
// <table>_no_truncate on PostgreSQL). A new append-only table is added here
// and in a migration for both dialects; the parity test compares the three.
func AppendOnlyTables() []string {
	return []string{
		"game_results", "game_result_confirmations", "game_records",
		"game_adjudications", "rulings", "game_voids",
		"event_settings_unlocks", "event_settings_changes",
		"knockout_draw_log", "league_schedule_log",
		"corrections",
		"api_token_uses",                        // 00115
		"day_rounds", "day_pairings", "day_log", // migration 00100
		"day_reports",                 // migration 00130
		"day_report_results",          // migration 00160
		"day_finals",                  // migration 00125
		"league_member_changes",       // migration 00200
		"appeals", "appeal_decisions", // migration 00210
		"seat_overrides",                   // migration 00220
		"team_orders", "team_order_boards", // migration 00260
		"game_moves", "game_move_undos", // migration 00280
	}
}

// HistoryTables is AppendOnlyTables with the parents history hangs from
// (games, events, knockout stages, league and day classes): what `kisen
// migrate down` refuses to drop, or to strip of a column or a protecting
// trigger, while it holds rows (migrations.DownLosses).
func HistoryTables() []string {
	return append(AppendOnlyTables(), "games", "events", "knockout_stages", "league_classes", "day_classes")
}
