-- +goose Up
-- Entries before the day (issue 23 §1, docs/amateur-day-entries.md). See
-- the SQLite migration for the comments.
CREATE TABLE day_entry_settings (
    event_id   BIGINT PRIMARY KEY REFERENCES day_events (event_id) ON DELETE CASCADE,
    open       BOOLEAN NOT NULL DEFAULT FALSE,
    deadline   TIMESTAMPTZ,
    caps       TEXT NOT NULL DEFAULT '{}',
    version    INTEGER NOT NULL DEFAULT 1,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE day_entries (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    class_id   BIGINT NOT NULL REFERENCES day_classes (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    reading    TEXT NOT NULL,
    rank       TEXT NOT NULL DEFAULT '',
    club       TEXT NOT NULL DEFAULT '',
    contact    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'waiting', 'refused', 'withdrawn')),
    source     TEXT NOT NULL DEFAULT 'form' CHECK (source IN ('form', 'paste', 'csv')),
    token_hash TEXT UNIQUE,
    player_id  BIGINT REFERENCES players (id),
    reason     TEXT NOT NULL DEFAULT '',
    decided_by BIGINT REFERENCES users (id),
    decided_at TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX day_entries_event_idx ON day_entries (event_id, status, created_at);

-- The public day page links the form while it is open (kisen_event_changed, 00097/00155).
CREATE CONSTRAINT TRIGGER day_entry_settings_changed_insert AFTER INSERT ON day_entry_settings DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_entry_settings_changed_update AFTER UPDATE ON day_entry_settings DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');
CREATE CONSTRAINT TRIGGER day_entry_settings_changed_delete AFTER DELETE ON day_entry_settings DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');

-- +goose Down
DROP TRIGGER day_entry_settings_changed_delete ON day_entry_settings;
DROP TRIGGER day_entry_settings_changed_update ON day_entry_settings;
DROP TRIGGER day_entry_settings_changed_insert ON day_entry_settings;
DROP TABLE day_entries;
DROP TABLE day_entry_settings;
