-- +goose Up
-- Issue 21 item 6: see migrations/sqlite/00165_games_decided.sql and
-- docs/append-only.md. Same trigger names as SQLite; the refusal is
-- SQLSTATE KA001 (store.ErrAppendOnly). PostgreSQL's foreign keys cannot be
-- switched off short of session_replication_role (which stops triggers
-- too); the delete triggers are here for symmetry and for a clearer
-- message than a cascade or a foreign key violation.

-- +goose StatementBegin
CREATE FUNCTION kisen_no_update_decided_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.id IS DISTINCT FROM OLD.id
        OR NEW.event_id IS DISTINCT FROM OLD.event_id
        OR NEW.sente_player_id IS DISTINCT FROM OLD.sente_player_id
        OR NEW.gote_player_id IS DISTINCT FROM OLD.gote_player_id
        OR NEW.handicap IS DISTINCT FROM OLD.handicap
        OR NEW.sente_allowance_s IS DISTINCT FROM OLD.sente_allowance_s
        OR NEW.gote_allowance_s IS DISTINCT FROM OLD.gote_allowance_s
        OR NEW.redo_of_id IS DISTINCT FROM OLD.redo_of_id
        OR NEW.redo_number IS DISTINCT FROM OLD.redo_number
        OR (OLD.started_at IS NOT NULL AND NEW.started_at IS DISTINCT FROM OLD.started_at))
       AND (OLD.started_at IS NOT NULL
        OR EXISTS (SELECT 1 FROM game_results WHERE game_id = OLD.id)
        OR EXISTS (SELECT 1 FROM game_records WHERE game_id = OLD.id)
        OR EXISTS (SELECT 1 FROM rulings WHERE game_id = OLD.id)
        OR EXISTS (SELECT 1 FROM day_reports WHERE game_id = OLD.id)) THEN
        RAISE EXCEPTION 'append-only: games (a started or decided game keeps its players, seats, handicap and allowances)'
            USING ERRCODE = 'KA001', DETAIL = 'game ' || OLD.id;
    END IF;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION kisen_no_delete_logged_parent() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    held boolean;
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        held := EXISTS (SELECT 1 FROM game_voids WHERE game_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_reports WHERE game_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_pairings WHERE game_id = OLD.id)
             OR EXISTS (SELECT 1 FROM corrections WHERE game_id = OLD.id)
             OR EXISTS (SELECT 1 FROM api_token_uses WHERE game_id = OLD.id);
    ELSIF TG_TABLE_NAME = 'events' THEN
        held := EXISTS (SELECT 1 FROM games WHERE event_id = OLD.id)
             OR EXISTS (SELECT 1 FROM event_settings_unlocks WHERE event_id = OLD.id)
             OR EXISTS (SELECT 1 FROM event_settings_changes WHERE event_id = OLD.id)
             OR EXISTS (SELECT 1 FROM corrections WHERE event_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_log WHERE event_id = OLD.id);
    ELSIF TG_TABLE_NAME = 'knockout_stages' THEN
        held := EXISTS (SELECT 1 FROM knockout_draw_log WHERE stage_id = OLD.id)
             OR EXISTS (SELECT 1 FROM corrections WHERE stage_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_finals WHERE stage_id = OLD.id);
    ELSIF TG_TABLE_NAME = 'league_classes' THEN
        held := EXISTS (SELECT 1 FROM league_schedule_log WHERE class_id = OLD.id);
    ELSIF TG_TABLE_NAME = 'day_classes' THEN
        held := EXISTS (SELECT 1 FROM day_rounds WHERE class_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_log WHERE class_id = OLD.id)
             OR EXISTS (SELECT 1 FROM day_finals WHERE class_id = OLD.id);
    ELSE
        held := false;
    END IF;
    IF held THEN
        RAISE EXCEPTION 'append-only: % (rows of the history point at it)', TG_TABLE_NAME
            USING ERRCODE = 'KA001', DETAIL = TG_TABLE_NAME || ' ' || OLD.id;
    END IF;
    RETURN OLD;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER games_no_update_decided BEFORE UPDATE ON games FOR EACH ROW EXECUTE FUNCTION kisen_no_update_decided_game();
CREATE TRIGGER games_no_delete_logged BEFORE DELETE ON games FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_logged_parent();
CREATE TRIGGER events_no_delete_with_games BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_logged_parent();
CREATE TRIGGER knockout_stages_no_delete_logged BEFORE DELETE ON knockout_stages FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_logged_parent();
CREATE TRIGGER league_classes_no_delete_logged BEFORE DELETE ON league_classes FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_logged_parent();
CREATE TRIGGER day_classes_no_delete_logged BEFORE DELETE ON day_classes FOR EACH ROW EXECUTE FUNCTION kisen_no_delete_logged_parent();

-- +goose Down
DROP TRIGGER day_classes_no_delete_logged ON day_classes;
DROP TRIGGER league_classes_no_delete_logged ON league_classes;
DROP TRIGGER knockout_stages_no_delete_logged ON knockout_stages;
DROP TRIGGER events_no_delete_with_games ON events;
DROP TRIGGER games_no_delete_logged ON games;
DROP TRIGGER games_no_update_decided ON games;
DROP FUNCTION kisen_no_delete_logged_parent();
DROP FUNCTION kisen_no_update_decided_game();
