-- +goose Up
-- Issue 15 part 1 (docs/live.md): every `kisen serve` sharing this database
-- learns that an event's pages changed. The revision rows of 00097 are
-- written at COMMIT by the deferred triggers; these triggers on them raise
-- NOTIFY kisen_changes, which PostgreSQL delivers to the listeners when
-- the transaction commits (never for a rollback).
--
-- The payload names the event only ('e:<id>'; 'r' for the registry, which
-- every event page shows). PostgreSQL folds identical payloads of one
-- transaction into one notification, so a draw that writes a thousand
-- bracket rows sends one; the listener reads the revision itself (one row).

-- +goose StatementBegin
CREATE FUNCTION kisen_notify_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kisen_changes', 'e:' || NEW.event_id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION kisen_notify_registry_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kisen_changes', 'r');
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER event_changes_notify AFTER INSERT OR UPDATE ON event_changes
    FOR EACH ROW EXECUTE FUNCTION kisen_notify_event_change();
CREATE TRIGGER registry_changes_notify AFTER INSERT OR UPDATE ON registry_changes
    FOR EACH ROW EXECUTE FUNCTION kisen_notify_registry_change();

-- +goose Down
DROP TRIGGER registry_changes_notify ON registry_changes;
DROP TRIGGER event_changes_notify ON event_changes;
DROP FUNCTION kisen_notify_registry_change();
DROP FUNCTION kisen_notify_event_change();
