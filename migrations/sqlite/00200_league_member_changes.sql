-- +goose Up
-- Issue 24 item 7: see the PostgreSQL migration of the same number.
ALTER TABLE league_members ADD COLUMN origin TEXT NOT NULL DEFAULT '';

CREATE TABLE league_member_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES events (id) ON DELETE RESTRICT,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT NOT NULL CHECK (action IN ('add', 'remove', 'move')),
    player_id  INTEGER NOT NULL REFERENCES players (id),
    from_class TEXT NOT NULL DEFAULT '',
    to_class   TEXT NOT NULL DEFAULT '',
    kind       TEXT NOT NULL,
    reason     TEXT NOT NULL CHECK (reason <> ''),
    junni      INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    actor_id   INTEGER NOT NULL REFERENCES users (id),
    at         DATETIME NOT NULL,
    UNIQUE (event_id, seq)
);

-- +goose StatementBegin
CREATE TRIGGER league_member_changes_no_update BEFORE UPDATE ON league_member_changes
BEGIN SELECT RAISE(ABORT, 'append-only: league_member_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_member_changes_no_delete BEFORE DELETE ON league_member_changes
BEGIN SELECT RAISE(ABORT, 'append-only: league_member_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_member_changes_no_replace BEFORE INSERT ON league_member_changes
WHEN EXISTS (SELECT 1 FROM league_member_changes WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: league_member_changes'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_member_changes_changed_insert AFTER INSERT ON league_member_changes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER league_member_changes_changed_insert;
DROP TRIGGER league_member_changes_no_replace;
DROP TRIGGER league_member_changes_no_delete;
DROP TRIGGER league_member_changes_no_update;
DROP TABLE league_member_changes;
ALTER TABLE league_members DROP COLUMN origin;
