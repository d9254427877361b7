-- +goose Up
-- An event's settings lock once its first game starts. An administrator
-- may unlock them (who, when, why); each unlock allows one change.
-- Both tables are append-only.
CREATE TABLE event_settings_unlocks (
    id           BIGSERIAL PRIMARY KEY,
    event_id     BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    unlocked_by  BIGINT NOT NULL REFERENCES users (id),
    unlocked_at  TIMESTAMPTZ NOT NULL,
    reason       TEXT NOT NULL CHECK (length(reason) > 0)
);
CREATE INDEX event_settings_unlocks_event_idx ON event_settings_unlocks (event_id);

-- Every change of an event's settings, with the settings before and after;
-- unlock_id is the unlock a change after the lock used (at most once).
CREATE TABLE event_settings_changes (
    id          BIGSERIAL PRIMARY KEY,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    changed_by  BIGINT NOT NULL REFERENCES users (id),
    changed_at  TIMESTAMPTZ NOT NULL,
    settings_before TEXT NOT NULL,
    settings_after  TEXT NOT NULL,
    unlock_id   BIGINT UNIQUE REFERENCES event_settings_unlocks (id)
);
CREATE INDEX event_settings_changes_event_idx ON event_settings_changes (event_id);

-- +goose Down
DROP TABLE event_settings_changes;
DROP TABLE event_settings_unlocks;
