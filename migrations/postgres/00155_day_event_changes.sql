-- +goose Up
-- Issue 12 part 5 (docs/caching.md): the amateur day's public pages (the
-- day, a class, its standings and its printed sheets) answer conditional
-- GETs from the event's revision, so the day's tables raise it too, as the
-- triggers of 00097 do for the rest of an event. day_rounds and
-- day_finals reach the event through their day class, day_pairings
-- through its round. Append-only tables (day_rounds, day_pairings,
-- day_log, day_finals) need INSERT only. day_class_paper and the players'
-- reports stay unwatched: only staff pages and the report link show them,
-- and a report that enters a result writes game_results, which is watched.
-- PostgreSQL: the function of 00097 learns the two new ways; the triggers
-- are deferred to COMMIT as there.

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION kisen_event_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- 00155: class_id of a day class, round_id of a day round.
    WHEN 'day_class_id' THEN SELECT c.event_id INTO ev FROM day_classes c WHERE c.id = r.class_id;
    WHEN 'day_round_id' THEN
        SELECT c.event_id INTO ev FROM day_rounds dr JOIN day_classes c ON c.id = dr.class_id WHERE dr.id = r.round_id;
    END CASE;
    INSERT INTO event_changes AS c (event_id, revision, changed_at)
        SELECT e.id, 1, clock_timestamp() FROM events e WHERE e.id = ev
        ON CONFLICT (event_id) DO UPDATE SET revision = c.revision + 1, changed_at = excluded.changed_at;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE CONSTRAINT TRIGGER day_events_changed_insert AFTER INSERT ON day_events DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_events_changed_update AFTER UPDATE ON day_events DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_events_changed_delete AFTER DELETE ON day_events DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_classes_changed_insert AFTER INSERT ON day_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_classes_changed_update AFTER UPDATE ON day_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_classes_changed_delete AFTER DELETE ON day_classes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_entrants_changed_insert AFTER INSERT ON day_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_entrants_changed_update AFTER UPDATE ON day_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_entrants_changed_delete AFTER DELETE ON day_entrants DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_rounds_changed_insert AFTER INSERT ON day_rounds DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('day_class_id');
CREATE CONSTRAINT TRIGGER day_pairings_changed_insert AFTER INSERT ON day_pairings DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('day_round_id');
CREATE CONSTRAINT TRIGGER day_log_changed_insert AFTER INSERT ON day_log DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_finals_changed_insert AFTER INSERT ON day_finals DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('day_class_id');

-- +goose Down
DROP TRIGGER day_finals_changed_insert ON day_finals;
DROP TRIGGER day_log_changed_insert ON day_log;
DROP TRIGGER day_pairings_changed_insert ON day_pairings;
DROP TRIGGER day_rounds_changed_insert ON day_rounds;
DROP TRIGGER day_entrants_changed_delete ON day_entrants;
DROP TRIGGER day_entrants_changed_update ON day_entrants;
DROP TRIGGER day_entrants_changed_insert ON day_entrants;
DROP TRIGGER day_classes_changed_delete ON day_classes;
DROP TRIGGER day_classes_changed_update ON day_classes;
DROP TRIGGER day_classes_changed_insert ON day_classes;
DROP TRIGGER day_events_changed_delete ON day_events;
DROP TRIGGER day_events_changed_update ON day_events;
DROP TRIGGER day_events_changed_insert ON day_events;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION kisen_event_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
