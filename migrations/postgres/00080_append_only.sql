-- +goose Up
-- Append-only in the database itself (issue 11, docs/append-only.md): result
-- versions, their confirmations, game records, adjudication facts, rulings,
-- voids, the event settings log and the knockout and league logs refuse
-- UPDATE and DELETE, whoever connects. A correction is a new row that
-- supersedes. A game with results, rulings or records cannot be deleted,
-- nor the event, stage or class above such rows. Trigger names are the same
-- in both dialects (the parity test compares them); PostgreSQL adds
-- <table>_no_truncate. The refusal is SQLSTATE KA001 (store.ErrAppendOnly).
-- The foreign keys from these tables to their parents change from ON DELETE
-- CASCADE to ON DELETE RESTRICT; games_no_delete_played refuses first with
-- the same SQLSTATE as SQLite's trigger of the same name.

-- +goose StatementBegin
CREATE FUNCTION kisen_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'append-only: %', TG_TABLE_NAME
        USING ERRCODE = 'KA001', DETAIL = TG_OP || ' refused; a correction is a new row';
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION kisen_no_delete_played_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM game_results WHERE game_id = OLD.id)
       OR EXISTS (SELECT 1 FROM rulings WHERE game_id = OLD.id)
       OR EXISTS (SELECT 1 FROM game_records WHERE game_id = OLD.id) THEN
        RAISE EXCEPTION 'append-only: games (the game has results, rulings or records)'
            USING ERRCODE = 'KA001', DETAIL = 'game ' || OLD.id;
    END IF;
    RETURN OLD;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER game_results_no_update BEFORE UPDATE ON game_results FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_results_no_delete BEFORE DELETE ON game_results FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_results_no_truncate BEFORE TRUNCATE ON game_results FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER game_result_confirmations_no_update BEFORE UPDATE ON game_result_confirmations FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_result_confirmations_no_delete BEFORE DELETE ON game_result_confirmations FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_result_confirmations_no_truncate BEFORE TRUNCATE ON game_result_confirmations FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER game_records_no_update BEFORE UPDATE ON game_records FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_records_no_delete BEFORE DELETE ON game_records FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_records_no_truncate BEFORE TRUNCATE ON game_records FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER game_adjudications_no_update BEFORE UPDATE ON game_adjudications FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_adjudications_no_delete BEFORE DELETE ON game_adjudications FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_adjudications_no_truncate BEFORE TRUNCATE ON game_adjudications FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER rulings_no_update BEFORE UPDATE ON rulings FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER rulings_no_truncate BEFORE TRUNCATE ON rulings FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_voids_no_truncate BEFORE TRUNCATE ON game_voids FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER event_settings_unlocks_no_update BEFORE UPDATE ON event_settings_unlocks FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER event_settings_unlocks_no_delete BEFORE DELETE ON event_settings_unlocks FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER event_settings_unlocks_no_truncate BEFORE TRUNCATE ON event_settings_unlocks FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER event_settings_changes_no_update BEFORE UPDATE ON event_settings_changes FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER event_settings_changes_no_delete BEFORE DELETE ON event_settings_changes FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER event_settings_changes_no_truncate BEFORE TRUNCATE ON event_settings_changes FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER knockout_draw_log_no_update BEFORE UPDATE ON knockout_draw_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER knockout_draw_log_no_delete BEFORE DELETE ON knockout_draw_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER knockout_draw_log_no_truncate BEFORE TRUNCATE ON knockout_draw_log FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER league_schedule_log_no_update BEFORE UPDATE ON league_schedule_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER league_schedule_log_no_delete BEFORE DELETE ON league_schedule_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER league_schedule_log_no_truncate BEFORE TRUNCATE ON league_schedule_log FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER games_no_delete_played BEFORE DELETE ON games FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_played_game();

-- ON DELETE RESTRICT where 00030..00060 cascaded: the names are PostgreSQL's
-- defaults for the inline REFERENCES of those migrations.
ALTER TABLE game_results DROP CONSTRAINT game_results_game_id_fkey,
    ADD CONSTRAINT game_results_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE RESTRICT;
ALTER TABLE game_result_confirmations DROP CONSTRAINT game_result_confirmations_game_result_id_fkey,
    ADD CONSTRAINT game_result_confirmations_game_result_id_fkey FOREIGN KEY (game_result_id) REFERENCES game_results (id) ON DELETE RESTRICT;
ALTER TABLE game_records DROP CONSTRAINT game_records_game_id_fkey,
    ADD CONSTRAINT game_records_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE RESTRICT;
ALTER TABLE game_adjudications DROP CONSTRAINT game_adjudications_game_id_fkey,
    ADD CONSTRAINT game_adjudications_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE RESTRICT;
ALTER TABLE game_adjudications DROP CONSTRAINT game_adjudications_result_id_fkey,
    ADD CONSTRAINT game_adjudications_result_id_fkey FOREIGN KEY (result_id) REFERENCES game_results (id) ON DELETE RESTRICT;
ALTER TABLE rulings DROP CONSTRAINT rulings_game_id_fkey,
    ADD CONSTRAINT rulings_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE RESTRICT;
ALTER TABLE game_voids DROP CONSTRAINT game_voids_game_id_fkey,
    ADD CONSTRAINT game_voids_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE RESTRICT;
ALTER TABLE game_voids DROP CONSTRAINT game_voids_result_id_fkey,
    ADD CONSTRAINT game_voids_result_id_fkey FOREIGN KEY (result_id) REFERENCES game_results (id) ON DELETE RESTRICT;
ALTER TABLE event_settings_unlocks DROP CONSTRAINT event_settings_unlocks_event_id_fkey,
    ADD CONSTRAINT event_settings_unlocks_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE RESTRICT;
ALTER TABLE event_settings_changes DROP CONSTRAINT event_settings_changes_event_id_fkey,
    ADD CONSTRAINT event_settings_changes_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE RESTRICT;
ALTER TABLE knockout_draw_log DROP CONSTRAINT knockout_draw_log_stage_id_fkey,
    ADD CONSTRAINT knockout_draw_log_stage_id_fkey FOREIGN KEY (stage_id) REFERENCES knockout_stages (id) ON DELETE RESTRICT;
ALTER TABLE league_schedule_log DROP CONSTRAINT league_schedule_log_class_id_fkey,
    ADD CONSTRAINT league_schedule_log_class_id_fkey FOREIGN KEY (class_id) REFERENCES league_classes (id) ON DELETE RESTRICT;

-- +goose Down
ALTER TABLE game_results DROP CONSTRAINT game_results_game_id_fkey,
    ADD CONSTRAINT game_results_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE game_result_confirmations DROP CONSTRAINT game_result_confirmations_game_result_id_fkey,
    ADD CONSTRAINT game_result_confirmations_game_result_id_fkey FOREIGN KEY (game_result_id) REFERENCES game_results (id) ON DELETE CASCADE;
ALTER TABLE game_records DROP CONSTRAINT game_records_game_id_fkey,
    ADD CONSTRAINT game_records_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE game_adjudications DROP CONSTRAINT game_adjudications_game_id_fkey,
    ADD CONSTRAINT game_adjudications_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE game_adjudications DROP CONSTRAINT game_adjudications_result_id_fkey,
    ADD CONSTRAINT game_adjudications_result_id_fkey FOREIGN KEY (result_id) REFERENCES game_results (id) ON DELETE CASCADE;
ALTER TABLE rulings DROP CONSTRAINT rulings_game_id_fkey,
    ADD CONSTRAINT rulings_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE game_voids DROP CONSTRAINT game_voids_game_id_fkey,
    ADD CONSTRAINT game_voids_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE game_voids DROP CONSTRAINT game_voids_result_id_fkey,
    ADD CONSTRAINT game_voids_result_id_fkey FOREIGN KEY (result_id) REFERENCES game_results (id) ON DELETE CASCADE;
ALTER TABLE event_settings_unlocks DROP CONSTRAINT event_settings_unlocks_event_id_fkey,
    ADD CONSTRAINT event_settings_unlocks_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE;
ALTER TABLE event_settings_changes DROP CONSTRAINT event_settings_changes_event_id_fkey,
    ADD CONSTRAINT event_settings_changes_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE;
ALTER TABLE knockout_draw_log DROP CONSTRAINT knockout_draw_log_stage_id_fkey,
    ADD CONSTRAINT knockout_draw_log_stage_id_fkey FOREIGN KEY (stage_id) REFERENCES knockout_stages (id) ON DELETE CASCADE;
ALTER TABLE league_schedule_log DROP CONSTRAINT league_schedule_log_class_id_fkey,
    ADD CONSTRAINT league_schedule_log_class_id_fkey FOREIGN KEY (class_id) REFERENCES league_classes (id) ON DELETE CASCADE;

DROP TRIGGER games_no_delete_played ON games;
DROP TRIGGER league_schedule_log_no_truncate ON league_schedule_log;
DROP TRIGGER league_schedule_log_no_delete ON league_schedule_log;
DROP TRIGGER league_schedule_log_no_update ON league_schedule_log;
DROP TRIGGER knockout_draw_log_no_truncate ON knockout_draw_log;
DROP TRIGGER knockout_draw_log_no_delete ON knockout_draw_log;
DROP TRIGGER knockout_draw_log_no_update ON knockout_draw_log;
DROP TRIGGER event_settings_changes_no_truncate ON event_settings_changes;
DROP TRIGGER event_settings_changes_no_delete ON event_settings_changes;
DROP TRIGGER event_settings_changes_no_update ON event_settings_changes;
DROP TRIGGER event_settings_unlocks_no_truncate ON event_settings_unlocks;
DROP TRIGGER event_settings_unlocks_no_delete ON event_settings_unlocks;
DROP TRIGGER event_settings_unlocks_no_update ON event_settings_unlocks;
DROP TRIGGER game_voids_no_truncate ON game_voids;
DROP TRIGGER game_voids_no_delete ON game_voids;
DROP TRIGGER game_voids_no_update ON game_voids;
DROP TRIGGER rulings_no_truncate ON rulings;
DROP TRIGGER rulings_no_delete ON rulings;
DROP TRIGGER rulings_no_update ON rulings;
DROP TRIGGER game_adjudications_no_truncate ON game_adjudications;
DROP TRIGGER game_adjudications_no_delete ON game_adjudications;
DROP TRIGGER game_adjudications_no_update ON game_adjudications;
DROP TRIGGER game_records_no_truncate ON game_records;
DROP TRIGGER game_records_no_delete ON game_records;
DROP TRIGGER game_records_no_update ON game_records;
DROP TRIGGER game_result_confirmations_no_truncate ON game_result_confirmations;
DROP TRIGGER game_result_confirmations_no_delete ON game_result_confirmations;
DROP TRIGGER game_result_confirmations_no_update ON game_result_confirmations;
DROP TRIGGER game_results_no_truncate ON game_results;
DROP TRIGGER game_results_no_delete ON game_results;
DROP TRIGGER game_results_no_update ON game_results;
DROP FUNCTION kisen_no_delete_played_game();
DROP FUNCTION kisen_append_only();
