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
-- Trigger names are the same in both dialects (<table>_rating_<operation>).

-- A database upgraded with ratings already stored recomputes once.
ALTER TABLE rating_state ADD COLUMN input_revision INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_state ADD COLUMN computed_revision INTEGER NOT NULL DEFAULT 0;
UPDATE rating_state SET input_revision = 1;

-- +goose StatementBegin
CREATE TRIGGER game_results_rating_insert AFTER INSERT ON game_results
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_result_confirmations_rating_insert AFTER INSERT ON game_result_confirmations
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_voids_rating_insert AFTER INSERT ON game_voids
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_rating_insert AFTER INSERT ON games
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_rating_insert AFTER INSERT ON players
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_rating_update AFTER UPDATE ON games
WHEN OLD.event_id IS NOT NEW.event_id OR OLD.sente_player_id IS NOT NEW.sente_player_id OR OLD.gote_player_id IS NOT NEW.gote_player_id OR OLD.handicap IS NOT NEW.handicap OR OLD.scheduled_on IS NOT NEW.scheduled_on OR OLD.started_at IS NOT NEW.started_at OR OLD.redo_of_id IS NOT NEW.redo_of_id
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_rating_delete AFTER DELETE ON games
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_rating_delete AFTER DELETE ON players
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER events_rating_update AFTER UPDATE ON events
WHEN OLD.status IS NOT NEW.status
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER app_settings_rating_insert AFTER INSERT ON app_settings
WHEN NEW.key = 'rating.settings'
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER app_settings_rating_update AFTER UPDATE ON app_settings
WHEN OLD.key = 'rating.settings' OR NEW.key = 'rating.settings'
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER app_settings_rating_delete AFTER DELETE ON app_settings
WHEN OLD.key = 'rating.settings'
BEGIN
    INSERT INTO rating_state (id, fingerprint, summary, computed_at, input_revision, computed_revision)
        SELECT 1, '', '{}', CURRENT_TIMESTAMP, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM rating_state WHERE id = 1);
    UPDATE rating_state SET input_revision = input_revision + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER app_settings_rating_delete;
DROP TRIGGER app_settings_rating_update;
DROP TRIGGER app_settings_rating_insert;
DROP TRIGGER events_rating_update;
DROP TRIGGER players_rating_delete;
DROP TRIGGER games_rating_delete;
DROP TRIGGER games_rating_update;
DROP TRIGGER players_rating_insert;
DROP TRIGGER games_rating_insert;
DROP TRIGGER game_voids_rating_insert;
DROP TRIGGER game_result_confirmations_rating_insert;
DROP TRIGGER game_results_rating_insert;
ALTER TABLE rating_state DROP COLUMN computed_revision;
ALTER TABLE rating_state DROP COLUMN input_revision;
