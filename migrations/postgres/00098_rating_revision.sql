-- +goose Up
-- Ratings stay current without a scan on read (issue 12 part 4,
-- docs/ratings.md). rating_state.input_revision counts changes to what a
-- recompute reads; triggers bump it in the same transaction as the change,
-- whoever writes. computed_revision is the input_revision the stored
-- ratings were computed from; the worker of `kisen serve` recomputes when
-- input_revision is larger. The inputs are those of office's
-- ratingFingerprint: result versions, confirmations, voids (all
-- insert-only), the games themselves (players, handicap, day, start, redo
-- link, event), the status of events, the roster and the setting
-- rating.settings. A trigger creates the state row when it is absent.
-- Inserts and deletes fire once per statement (a batch import bumps once);
-- updates once per row that changed a rating input. Trigger names are the
-- same in both dialects (<table>_rating_<operation>).

ALTER TABLE rating_state ADD COLUMN input_revision BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN computed_revision BIGINT NOT NULL DEFAULT 0;
-- A database upgraded with ratings already stored recomputes once.
UPDATE rating_state SET input_revision = 1;

-- +goose StatementBegin
CREATE FUNCTION kisen_rating_input_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rating_state AS s (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        VALUES (1, '', '{}', now(), 1, 0)
        ON CONFLICT (id) DO UPDATE SET input_revision = s.input_revision + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER game_results_rating_insert AFTER INSERT ON game_results FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER game_result_confirmations_rating_insert AFTER INSERT ON game_result_confirmations FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER game_voids_rating_insert AFTER INSERT ON game_voids FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER games_rating_insert AFTER INSERT ON games FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER players_rating_insert AFTER INSERT ON players FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER games_rating_update AFTER UPDATE ON games FOR EACH ROW WHEN (OLD.event_id IS DISTINCT FROM NEW.event_id OR OLD.sente_player_id IS DISTINCT FROM NEW.sente_player_id OR OLD.gote_player_id IS DISTINCT FROM NEW.gote_player_id OR OLD.handicap IS DISTINCT FROM NEW.handicap OR OLD.scheduled_on IS DISTINCT FROM NEW.scheduled_on OR OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.redo_of_id IS DISTINCT FROM NEW.redo_of_id)
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER games_rating_delete AFTER DELETE ON games FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER players_rating_delete AFTER DELETE ON players FOR EACH STATEMENT
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER events_rating_update AFTER UPDATE ON events FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER app_settings_rating_insert AFTER INSERT ON app_settings FOR EACH ROW WHEN (NEW.key = 'rating.settings')
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER app_settings_rating_update AFTER UPDATE ON app_settings FOR EACH ROW WHEN (OLD.key = 'rating.settings' OR NEW.key = 'rating.settings')
    EXECUTE FUNCTION kisen_rating_input_changed();
CREATE TRIGGER app_settings_rating_delete AFTER DELETE ON app_settings FOR EACH ROW WHEN (OLD.key = 'rating.settings')
    EXECUTE FUNCTION kisen_rating_input_changed();

-- +goose Down
DROP TRIGGER app_settings_rating_delete ON app_settings;
DROP TRIGGER app_settings_rating_update ON app_settings;
DROP TRIGGER app_settings_rating_insert ON app_settings;
DROP TRIGGER events_rating_update ON events;
DROP TRIGGER players_rating_delete ON players;
DROP TRIGGER games_rating_delete ON games;
DROP TRIGGER games_rating_update ON games;
DROP TRIGGER players_rating_insert ON players;
DROP TRIGGER games_rating_insert ON games;
DROP TRIGGER game_voids_rating_insert ON game_voids;
DROP TRIGGER game_result_confirmations_rating_insert ON game_result_confirmations;
DROP TRIGGER game_results_rating_insert ON game_results;
DROP FUNCTION kisen_rating_input_changed();
ALTER TABLE rating_state DROP COLUMN computed_revision, DROP COLUMN input_revision;
