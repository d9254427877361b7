-- +goose Up
-- Entries before the day (issue 23 §1, docs/amateur-day-entries.md).

-- A day's entry form: open or closed, a deadline (UTC; none means the form
-- stays open until closed) and a cap per class (JSON object of class id to
-- places, 0 or absent for none). version is the optimistic lock the
-- director's settings form carries.
CREATE TABLE day_entry_settings (
    event_id   INTEGER PRIMARY KEY REFERENCES day_events (event_id) ON DELETE CASCADE,
    open       BOOLEAN NOT NULL DEFAULT FALSE,
    deadline   DATETIME,
    caps       TEXT NOT NULL DEFAULT '{}',
    version    INTEGER NOT NULL DEFAULT 1,
    updated_at DATETIME NOT NULL
);

-- One entry: what the entrant typed (NFC, trimmed), the class its rank
-- falls in (or the director's choice), and its state. token_hash is the
-- SHA-256 of the private link's random 128-bit token, never the token
-- (NULL for lines the director pasted, which have no link). player_id is
-- the registered player once approved or merged. version is the
-- optimistic lock of every decision.
CREATE TABLE day_entries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    class_id   INTEGER NOT NULL REFERENCES day_classes (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    reading    TEXT NOT NULL,
    rank       TEXT NOT NULL DEFAULT '',
    club       TEXT NOT NULL DEFAULT '',
    contact    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'waiting', 'refused', 'withdrawn')),
    source     TEXT NOT NULL DEFAULT 'form' CHECK (source IN ('form', 'paste', 'csv')),
    token_hash TEXT UNIQUE,
    player_id  INTEGER REFERENCES players (id),
    reason     TEXT NOT NULL DEFAULT '',
    decided_by INTEGER REFERENCES users (id),
    decided_at DATETIME,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX day_entries_event_idx ON day_entries (event_id, status, created_at);

-- The public day page links the form while it is open, so the settings
-- raise the event's revision (as 00155 for the day's other tables). The
-- entries themselves stay unwatched: only the form, the private link and
-- the director's list show them, all rendered fresh.
-- +goose StatementBegin
CREATE TRIGGER day_entry_settings_changed_insert AFTER INSERT ON day_entry_settings BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_entry_settings_changed_update AFTER UPDATE ON day_entry_settings BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_entry_settings_changed_delete AFTER DELETE ON day_entry_settings BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_entry_settings_changed_delete;
DROP TRIGGER day_entry_settings_changed_update;
DROP TRIGGER day_entry_settings_changed_insert;
DROP INDEX day_entries_event_idx;
DROP TABLE day_entries;
DROP TABLE day_entry_settings;
