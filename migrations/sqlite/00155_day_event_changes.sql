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
-- SQLite: as 00097, one trigger per table and write.

-- +goose StatementBegin
CREATE TRIGGER day_events_changed_insert AFTER INSERT ON day_events BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_events_changed_update AFTER UPDATE ON day_events BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_events_changed_delete AFTER DELETE ON day_events BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_classes_changed_insert AFTER INSERT ON day_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_classes_changed_update AFTER UPDATE ON day_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_classes_changed_delete AFTER DELETE ON day_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_entrants_changed_insert AFTER INSERT ON day_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_entrants_changed_update AFTER UPDATE ON day_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_entrants_changed_delete AFTER DELETE ON day_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_rounds_changed_insert AFTER INSERT ON day_rounds BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM day_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_pairings_changed_insert AFTER INSERT ON day_pairings BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM day_rounds r JOIN day_classes c ON c.id = r.class_id JOIN events e ON e.id = c.event_id WHERE r.id = NEW.round_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_log_changed_insert AFTER INSERT ON day_log BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_finals_changed_insert AFTER INSERT ON day_finals BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM day_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_finals_changed_insert;
DROP TRIGGER day_log_changed_insert;
DROP TRIGGER day_pairings_changed_insert;
DROP TRIGGER day_rounds_changed_insert;
DROP TRIGGER day_entrants_changed_delete;
DROP TRIGGER day_entrants_changed_update;
DROP TRIGGER day_entrants_changed_insert;
DROP TRIGGER day_classes_changed_delete;
DROP TRIGGER day_classes_changed_update;
DROP TRIGGER day_classes_changed_insert;
DROP TRIGGER day_events_changed_delete;
DROP TRIGGER day_events_changed_update;
DROP TRIGGER day_events_changed_insert;
