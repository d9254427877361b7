-- +goose Up
-- Issue 21 item 6 (docs/append-only.md, "Games and their parents"): what
-- decided a game stays as it was once the game has started or been
-- decided, whoever connects. Before, `UPDATE games SET sente_player_id =
-- gote_player_id, gote_player_id = sente_player_id` flipped the winner of
-- every decided game without touching a result version.
--
-- A game has started when started_at is set or it has a result version, a
-- record, a ruling or a player's report. From then on these columns keep
-- their value: id, event_id (whose game it is), sente_player_id and
-- gote_player_id (the players and their seats), handicap, sente_allowance_s
-- and gote_allowance_s (the time each side had), redo_of_id and redo_number
-- (which game a redo replays: its result decides the original), and
-- started_at once set. label, scheduled_on and updated_at may still change.
-- Before the start (a bracket slot filled, 振り駒 deciding seats) the
-- application's own updates pass as before. The columns are compared first,
-- so an update that changes none of them (started_at, label) costs no
-- lookup.
--
-- A parent of history cannot be deleted by a trigger, not only by a foreign
-- key: with `PRAGMA foreign_keys=OFF` (any sqlite3 shell) nothing cascades,
-- so a delete used to remove the event and leave its games, results and
-- logs orphaned. events_no_delete_with_games refuses while the event has any
-- game or a line of its own logs; knockout_stages, league_classes and
-- day_classes refuse while they hold log lines; games_no_delete_logged adds
-- to 00080's games_no_delete_played the rows that point at a game
-- (voids, players' reports, day boards, corrections, API token uses).

-- +goose StatementBegin
CREATE TRIGGER games_no_update_decided BEFORE UPDATE ON games
WHEN (NEW.id IS NOT OLD.id
      OR NEW.event_id IS NOT OLD.event_id
      OR NEW.sente_player_id IS NOT OLD.sente_player_id
      OR NEW.gote_player_id IS NOT OLD.gote_player_id
      OR NEW.handicap IS NOT OLD.handicap
      OR NEW.sente_allowance_s IS NOT OLD.sente_allowance_s
      OR NEW.gote_allowance_s IS NOT OLD.gote_allowance_s
      OR NEW.redo_of_id IS NOT OLD.redo_of_id
      OR NEW.redo_number IS NOT OLD.redo_number
      OR (OLD.started_at IS NOT NULL AND NEW.started_at IS NOT OLD.started_at))
 AND (OLD.started_at IS NOT NULL
      OR EXISTS (SELECT 1 FROM game_results WHERE game_id = OLD.id)
      OR EXISTS (SELECT 1 FROM game_records WHERE game_id = OLD.id)
      OR EXISTS (SELECT 1 FROM rulings WHERE game_id = OLD.id)
      OR EXISTS (SELECT 1 FROM day_reports WHERE game_id = OLD.id))
BEGIN SELECT RAISE(ABORT, 'append-only: games (a started or decided game keeps its players, seats, handicap and allowances)'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_no_delete_logged BEFORE DELETE ON games
WHEN EXISTS (SELECT 1 FROM game_voids WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_reports WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_pairings WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM corrections WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM api_token_uses WHERE game_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: games (the game is named in a void, report, board, correction or token log)'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER events_no_delete_with_games BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM games WHERE event_id = OLD.id)
  OR EXISTS (SELECT 1 FROM event_settings_unlocks WHERE event_id = OLD.id)
  OR EXISTS (SELECT 1 FROM event_settings_changes WHERE event_id = OLD.id)
  OR EXISTS (SELECT 1 FROM corrections WHERE event_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_log WHERE event_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: events (the event has games or log lines)'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_stages_no_delete_logged BEFORE DELETE ON knockout_stages
WHEN EXISTS (SELECT 1 FROM knockout_draw_log WHERE stage_id = OLD.id)
  OR EXISTS (SELECT 1 FROM corrections WHERE stage_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_finals WHERE stage_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: knockout_stages (the stage has log lines)'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_classes_no_delete_logged BEFORE DELETE ON league_classes
WHEN EXISTS (SELECT 1 FROM league_schedule_log WHERE class_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: league_classes (the class has log lines)'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_classes_no_delete_logged BEFORE DELETE ON day_classes
WHEN EXISTS (SELECT 1 FROM day_rounds WHERE class_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_log WHERE class_id = OLD.id)
  OR EXISTS (SELECT 1 FROM day_finals WHERE class_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: day_classes (the class has rounds or log lines)'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_classes_no_delete_logged;
DROP TRIGGER league_classes_no_delete_logged;
DROP TRIGGER knockout_stages_no_delete_logged;
DROP TRIGGER events_no_delete_with_games;
DROP TRIGGER games_no_delete_logged;
DROP TRIGGER games_no_update_decided;
