-- +goose Up
-- Events (棋戦) of an organiser. Dates are calendar dates (YYYY-MM-DD).
-- settings is a copy of the organiser's settings taken at creation, so a
-- later change to the organiser never rewrites a past event.
CREATE TABLE events (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    organiser_id INTEGER NOT NULL REFERENCES organisers (id),
    name         TEXT NOT NULL,
    name_en      TEXT NOT NULL DEFAULT '',
    kind         TEXT NOT NULL CHECK (kind IN ('knockout', 'league', 'junisen_term', 'title_match')),
    start_date   TEXT NOT NULL,
    end_date     TEXT NOT NULL,
    venue        TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'finished')),
    settings     TEXT NOT NULL DEFAULT '{}',
    created_by   INTEGER NOT NULL REFERENCES users (id),
    created_at   DATETIME NOT NULL,
    updated_at   DATETIME NOT NULL,
    CHECK (end_date >= start_date)
);
CREATE INDEX events_organiser_idx ON events (organiser_id);
CREATE INDEX events_start_idx ON events (start_date);

-- Every status change, including an administrator reopening a finished event.
CREATE TABLE event_status_changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    changed_by  INTEGER NOT NULL REFERENCES users (id),
    changed_at  DATETIME NOT NULL
);
CREATE INDEX event_status_changes_event_idx ON event_status_changes (event_id);

-- +goose Down
DROP TABLE event_status_changes;
DROP TABLE events;
