-- +goose Up
-- Issue 12 part 5 (docs/caching.md): one revision per event that every
-- write to anything its public pages show raises, kept by triggers, so
-- each `kisen serve` process sharing the database answers a conditional
-- GET from one row, without memory of its own. registry_changes is the
-- same for the registry shown on every event page (players, their 師匠
-- and 肉親, organisers, user names): one row, revision 0 until a change.
--
-- Each table that reaches an event names the way: its own event_id, or
-- game_id / game_result_id / stage_id / class_id through the parent row.
-- Append-only tables (00080, 00095) refuse UPDATE and DELETE, so they
-- need INSERT only. A row deleted together with its event (ON DELETE
-- CASCADE) finds no event and bumps nothing: event_changes goes with it.
-- Trigger names are <table>_changed_<insert|update|delete> in both
-- dialects (store.RevisionTables; the parity test compares them).
-- PostgreSQL runs them as constraint triggers deferred to COMMIT: the
-- event's row is then locked only for the end of a transaction, after all
-- its other locks (a game row FOR UPDATE, …), so two writers of one event
-- cannot deadlock on it, and changed_at (clock_timestamp) is the commit's.

CREATE TABLE event_changes (
    event_id   BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    revision   BIGINT NOT NULL CHECK (revision >= 1),
    changed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE registry_changes (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    revision   BIGINT NOT NULL CHECK (revision >= 1),
    changed_at TIMESTAMPTZ NOT NULL
);

INSERT INTO event_changes (event_id, revision, changed_at) SELECT id, 1, clock_timestamp() FROM events;

-- TG_ARGV[0] is the column that leads to the event.
-- +goose StatementBegin
CREATE FUNCTION kisen_event_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r  record;
    ev bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    CASE TG_ARGV[0]
    WHEN 'id' THEN ev := r.id;
    WHEN 'event_id' THEN ev := r.event_id;
    WHEN 'game_id' THEN SELECT g.event_id INTO ev FROM games g WHERE g.id = r.game_id;
    WHEN 'game_result_id' THEN
        SELECT g.event_id INTO ev FROM game_results gr JOIN games g ON g.id = gr.game_id WHERE gr.id = r.game_result_id;
    WHEN 'stage_id' THEN SELECT s.event_id INTO ev FROM knockout_stages s WHERE s.id = r.stage_id;
    WHEN 'class_id' THEN SELECT c.event_id INTO ev FROM league_classes c WHERE c.id = r.class_id;
    END CASE;
    INSERT INTO event_changes AS c (event_id, revision, changed_at)
        SELECT e.id, 1, clock_timestamp() FROM events e WHERE e.id = ev
        ON CONFLICT (event_id) DO UPDATE SET revision = c.revision + 1, changed_at = excluded.changed_at;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION kisen_registry_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO registry_changes AS c (id, revision, changed_at) VALUES (1, 1, clock_timestamp())
        ON CONFLICT (id) DO UPDATE SET revision = c.revision + 1, changed_at = excluded.changed_at;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE CONSTRAINT TRIGGER events_changed_insert AFTER INSERT ON events DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('id');
CREATE CONSTRAINT TRIGGER events_changed_update AFTER UPDATE ON events DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('id');
CREATE CONSTRAINT TRIGGER event_status_changes_changed_insert AFTER INSERT ON event_status_changes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_status_changes_changed_update AFTER UPDATE ON event_status_changes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_status_changes_changed_delete AFTER DELETE ON event_status_changes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_roles_changed_insert AFTER INSERT ON event_roles DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_roles_changed_update AFTER UPDATE ON event_roles DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_roles_changed_delete AFTER DELETE ON event_roles DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_settings_unlocks_changed_insert AFTER INSERT ON event_settings_unlocks DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER event_settings_changes_changed_insert AFTER INSERT ON event_settings_changes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER corrections_changed_insert AFTER INSERT ON corrections DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER games_changed_insert AFTER INSERT ON games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER games_changed_update AFTER UPDATE ON games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER games_changed_delete AFTER DELETE ON games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER game_results_changed_insert AFTER INSERT ON game_results DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER game_result_confirmations_changed_insert AFTER INSERT ON game_result_confirmations DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_result_id');
CREATE CONSTRAINT TRIGGER game_records_changed_insert AFTER INSERT ON game_records DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER game_adjudications_changed_insert AFTER INSERT ON game_adjudications DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER rulings_changed_insert AFTER INSERT ON rulings DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER game_voids_changed_insert AFTER INSERT ON game_voids DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER knockout_stages_changed_insert AFTER INSERT ON knockout_stages DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER knockout_stages_changed_update AFTER UPDATE ON knockout_stages DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER knockout_stages_changed_delete AFTER DELETE ON knockout_stages DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER knockout_entrants_changed_insert AFTER INSERT ON knockout_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_entrants_changed_update AFTER UPDATE ON knockout_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_entrants_changed_delete AFTER DELETE ON knockout_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_games_changed_insert AFTER INSERT ON knockout_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_games_changed_update AFTER UPDATE ON knockout_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_games_changed_delete AFTER DELETE ON knockout_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER knockout_draw_log_changed_insert AFTER INSERT ON knockout_draw_log DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('stage_id');
CREATE CONSTRAINT TRIGGER league_classes_changed_insert AFTER INSERT ON league_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_classes_changed_update AFTER UPDATE ON league_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_classes_changed_delete AFTER DELETE ON league_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_members_changed_insert AFTER INSERT ON league_members DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_members_changed_update AFTER UPDATE ON league_members DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_members_changed_delete AFTER DELETE ON league_members DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_history_changed_insert AFTER INSERT ON league_history DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_history_changed_update AFTER UPDATE ON league_history DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_history_changed_delete AFTER DELETE ON league_history DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER league_games_changed_insert AFTER INSERT ON league_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_games_changed_update AFTER UPDATE ON league_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_games_changed_delete AFTER DELETE ON league_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_playoff_games_changed_insert AFTER INSERT ON league_playoff_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_playoff_games_changed_update AFTER UPDATE ON league_playoff_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_playoff_games_changed_delete AFTER DELETE ON league_playoff_games DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');
CREATE CONSTRAINT TRIGGER league_schedule_log_changed_insert AFTER INSERT ON league_schedule_log DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('class_id');

CREATE CONSTRAINT TRIGGER organisers_changed_insert AFTER INSERT ON organisers DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER organisers_changed_update AFTER UPDATE ON organisers DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER organisers_changed_delete AFTER DELETE ON organisers DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER players_changed_insert AFTER INSERT ON players DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER players_changed_update AFTER UPDATE ON players DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER players_changed_delete AFTER DELETE ON players DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_masters_changed_insert AFTER INSERT ON player_masters DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_masters_changed_update AFTER UPDATE ON player_masters DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_masters_changed_delete AFTER DELETE ON player_masters DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_relatives_changed_insert AFTER INSERT ON player_relatives DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_relatives_changed_update AFTER UPDATE ON player_relatives DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER player_relatives_changed_delete AFTER DELETE ON player_relatives DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();
CREATE CONSTRAINT TRIGGER users_changed_update AFTER UPDATE OF login, display_name ON users DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_registry_changed();

-- +goose Down
DROP TRIGGER users_changed_update ON users;
DROP TRIGGER player_relatives_changed_delete ON player_relatives;
DROP TRIGGER player_relatives_changed_update ON player_relatives;
DROP TRIGGER player_relatives_changed_insert ON player_relatives;
DROP TRIGGER player_masters_changed_delete ON player_masters;
DROP TRIGGER player_masters_changed_update ON player_masters;
DROP TRIGGER player_masters_changed_insert ON player_masters;
DROP TRIGGER players_changed_delete ON players;
DROP TRIGGER players_changed_update ON players;
DROP TRIGGER players_changed_insert ON players;
DROP TRIGGER organisers_changed_delete ON organisers;
DROP TRIGGER organisers_changed_update ON organisers;
DROP TRIGGER organisers_changed_insert ON organisers;
DROP TRIGGER league_schedule_log_changed_insert ON league_schedule_log;
DROP TRIGGER league_playoff_games_changed_delete ON league_playoff_games;
DROP TRIGGER league_playoff_games_changed_update ON league_playoff_games;
DROP TRIGGER league_playoff_games_changed_insert ON league_playoff_games;
DROP TRIGGER league_games_changed_delete ON league_games;
DROP TRIGGER league_games_changed_update ON league_games;
DROP TRIGGER league_games_changed_insert ON league_games;
DROP TRIGGER league_history_changed_delete ON league_history;
DROP TRIGGER league_history_changed_update ON league_history;
DROP TRIGGER league_history_changed_insert ON league_history;
DROP TRIGGER league_members_changed_delete ON league_members;
DROP TRIGGER league_members_changed_update ON league_members;
DROP TRIGGER league_members_changed_insert ON league_members;
DROP TRIGGER league_classes_changed_delete ON league_classes;
DROP TRIGGER league_classes_changed_update ON league_classes;
DROP TRIGGER league_classes_changed_insert ON league_classes;
DROP TRIGGER knockout_draw_log_changed_insert ON knockout_draw_log;
DROP TRIGGER knockout_games_changed_delete ON knockout_games;
DROP TRIGGER knockout_games_changed_update ON knockout_games;
DROP TRIGGER knockout_games_changed_insert ON knockout_games;
DROP TRIGGER knockout_entrants_changed_delete ON knockout_entrants;
DROP TRIGGER knockout_entrants_changed_update ON knockout_entrants;
DROP TRIGGER knockout_entrants_changed_insert ON knockout_entrants;
DROP TRIGGER knockout_stages_changed_delete ON knockout_stages;
DROP TRIGGER knockout_stages_changed_update ON knockout_stages;
DROP TRIGGER knockout_stages_changed_insert ON knockout_stages;
DROP TRIGGER game_voids_changed_insert ON game_voids;
DROP TRIGGER rulings_changed_insert ON rulings;
DROP TRIGGER game_adjudications_changed_insert ON game_adjudications;
DROP TRIGGER game_records_changed_insert ON game_records;
DROP TRIGGER game_result_confirmations_changed_insert ON game_result_confirmations;
DROP TRIGGER game_results_changed_insert ON game_results;
DROP TRIGGER games_changed_delete ON games;
DROP TRIGGER games_changed_update ON games;
DROP TRIGGER games_changed_insert ON games;
DROP TRIGGER corrections_changed_insert ON corrections;
DROP TRIGGER event_settings_changes_changed_insert ON event_settings_changes;
DROP TRIGGER event_settings_unlocks_changed_insert ON event_settings_unlocks;
DROP TRIGGER event_roles_changed_delete ON event_roles;
DROP TRIGGER event_roles_changed_update ON event_roles;
DROP TRIGGER event_roles_changed_insert ON event_roles;
DROP TRIGGER event_status_changes_changed_delete ON event_status_changes;
DROP TRIGGER event_status_changes_changed_update ON event_status_changes;
DROP TRIGGER event_status_changes_changed_insert ON event_status_changes;
DROP TRIGGER events_changed_update ON events;
DROP TRIGGER events_changed_insert ON events;
DROP FUNCTION kisen_registry_changed();
DROP FUNCTION kisen_event_changed();
DROP TABLE registry_changes;
DROP TABLE event_changes;
