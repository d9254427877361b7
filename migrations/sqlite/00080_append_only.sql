-- +goose Up
-- Append-only in the database itself (issue 11, docs/append-only.md): result
-- versions, their confirmations, game records, adjudication facts, rulings,
-- voids, the event settings log and the knockout and league logs refuse
-- UPDATE and DELETE, whoever connects. A correction is a new row that
-- supersedes. A game with results, rulings or records cannot be deleted,
-- nor the event, stage or class above such rows. Trigger names are the same
-- in both dialects (the parity test compares them); SQLite adds
-- <table>_no_replace: INSERT OR REPLACE deletes the row it displaces without
-- firing delete triggers (unless recursive_triggers is on), so an insert
-- that would displace a row is refused before it happens.
--
-- SQLite cannot alter a foreign key, so the ON DELETE CASCADE of 00030..00060
-- stays in the table definitions; it can no longer remove anything: a
-- cascaded delete fires the child's <table>_no_delete trigger, and
-- games_no_delete_played refuses first with a clearer message. (Rebuilding
-- six tables would need foreign_keys=OFF, which cannot change inside
-- goose's transaction, and dropping a parent with it ON cascades.)

-- +goose StatementBegin
CREATE TRIGGER game_results_no_update BEFORE UPDATE ON game_results
BEGIN SELECT RAISE(ABORT, 'append-only: game_results'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_results_no_delete BEFORE DELETE ON game_results
BEGIN SELECT RAISE(ABORT, 'append-only: game_results'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_results_no_replace BEFORE INSERT ON game_results
WHEN EXISTS (SELECT 1 FROM game_results WHERE id = NEW.id OR (game_id = NEW.game_id AND version = NEW.version))
BEGIN SELECT RAISE(ABORT, 'append-only: game_results'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_result_confirmations_no_update BEFORE UPDATE ON game_result_confirmations
BEGIN SELECT RAISE(ABORT, 'append-only: game_result_confirmations'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_result_confirmations_no_delete BEFORE DELETE ON game_result_confirmations
BEGIN SELECT RAISE(ABORT, 'append-only: game_result_confirmations'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_result_confirmations_no_replace BEFORE INSERT ON game_result_confirmations
WHEN EXISTS (SELECT 1 FROM game_result_confirmations WHERE id = NEW.id OR game_result_id = NEW.game_result_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_result_confirmations'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_records_no_update BEFORE UPDATE ON game_records
BEGIN SELECT RAISE(ABORT, 'append-only: game_records'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_records_no_delete BEFORE DELETE ON game_records
BEGIN SELECT RAISE(ABORT, 'append-only: game_records'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_records_no_replace BEFORE INSERT ON game_records
WHEN EXISTS (SELECT 1 FROM game_records WHERE id = NEW.id OR (game_id = NEW.game_id AND version = NEW.version))
BEGIN SELECT RAISE(ABORT, 'append-only: game_records'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_adjudications_no_update BEFORE UPDATE ON game_adjudications
BEGIN SELECT RAISE(ABORT, 'append-only: game_adjudications'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_adjudications_no_delete BEFORE DELETE ON game_adjudications
BEGIN SELECT RAISE(ABORT, 'append-only: game_adjudications'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_adjudications_no_replace BEFORE INSERT ON game_adjudications
WHEN EXISTS (SELECT 1 FROM game_adjudications WHERE id = NEW.id OR result_id = NEW.result_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_adjudications'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER rulings_no_update BEFORE UPDATE ON rulings
BEGIN SELECT RAISE(ABORT, 'append-only: rulings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings
BEGIN SELECT RAISE(ABORT, 'append-only: rulings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER rulings_no_replace BEFORE INSERT ON rulings
WHEN EXISTS (SELECT 1 FROM rulings WHERE id = NEW.id OR supersedes_id = NEW.supersedes_id)
BEGIN SELECT RAISE(ABORT, 'append-only: rulings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_voids_no_replace BEFORE INSERT ON game_voids
WHEN EXISTS (SELECT 1 FROM game_voids WHERE id = NEW.id OR game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_unlocks_no_update BEFORE UPDATE ON event_settings_unlocks
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_unlocks'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_unlocks_no_delete BEFORE DELETE ON event_settings_unlocks
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_unlocks'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_unlocks_no_replace BEFORE INSERT ON event_settings_unlocks
WHEN EXISTS (SELECT 1 FROM event_settings_unlocks WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_unlocks'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_changes_no_update BEFORE UPDATE ON event_settings_changes
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_changes_no_delete BEFORE DELETE ON event_settings_changes
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_changes_no_replace BEFORE INSERT ON event_settings_changes
WHEN EXISTS (SELECT 1 FROM event_settings_changes WHERE id = NEW.id OR unlock_id = NEW.unlock_id)
BEGIN SELECT RAISE(ABORT, 'append-only: event_settings_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_draw_log_no_update BEFORE UPDATE ON knockout_draw_log
BEGIN SELECT RAISE(ABORT, 'append-only: knockout_draw_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_draw_log_no_delete BEFORE DELETE ON knockout_draw_log
BEGIN SELECT RAISE(ABORT, 'append-only: knockout_draw_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_draw_log_no_replace BEFORE INSERT ON knockout_draw_log
WHEN EXISTS (SELECT 1 FROM knockout_draw_log WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: knockout_draw_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_schedule_log_no_update BEFORE UPDATE ON league_schedule_log
BEGIN SELECT RAISE(ABORT, 'append-only: league_schedule_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_schedule_log_no_delete BEFORE DELETE ON league_schedule_log
BEGIN SELECT RAISE(ABORT, 'append-only: league_schedule_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_schedule_log_no_replace BEFORE INSERT ON league_schedule_log
WHEN EXISTS (SELECT 1 FROM league_schedule_log WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: league_schedule_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_no_delete_played BEFORE DELETE ON games
WHEN EXISTS (SELECT 1 FROM game_results WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM rulings WHERE game_id = OLD.id)
  OR EXISTS (SELECT 1 FROM game_records WHERE game_id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'append-only: games (the game has results, rulings or records)'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER games_no_delete_played;
DROP TRIGGER league_schedule_log_no_replace;
DROP TRIGGER league_schedule_log_no_delete;
DROP TRIGGER league_schedule_log_no_update;
DROP TRIGGER knockout_draw_log_no_replace;
DROP TRIGGER knockout_draw_log_no_delete;
DROP TRIGGER knockout_draw_log_no_update;
DROP TRIGGER event_settings_changes_no_replace;
DROP TRIGGER event_settings_changes_no_delete;
DROP TRIGGER event_settings_changes_no_update;
DROP TRIGGER event_settings_unlocks_no_replace;
DROP TRIGGER event_settings_unlocks_no_delete;
DROP TRIGGER event_settings_unlocks_no_update;
DROP TRIGGER game_voids_no_replace;
DROP TRIGGER game_voids_no_delete;
DROP TRIGGER game_voids_no_update;
DROP TRIGGER rulings_no_replace;
DROP TRIGGER rulings_no_delete;
DROP TRIGGER rulings_no_update;
DROP TRIGGER game_adjudications_no_replace;
DROP TRIGGER game_adjudications_no_delete;
DROP TRIGGER game_adjudications_no_update;
DROP TRIGGER game_records_no_replace;
DROP TRIGGER game_records_no_delete;
DROP TRIGGER game_records_no_update;
DROP TRIGGER game_result_confirmations_no_replace;
DROP TRIGGER game_result_confirmations_no_delete;
DROP TRIGGER game_result_confirmations_no_update;
DROP TRIGGER game_results_no_replace;
DROP TRIGGER game_results_no_delete;
DROP TRIGGER game_results_no_update;
