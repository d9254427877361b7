-- +goose Up
-- Per-event roles: director (大会責任者), scheduler (リーグ担当),
-- arbiter (立会人), recorder (記録係).
CREATE TABLE event_roles (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('director', 'scheduler', 'arbiter', 'recorder')),
    granted_by BIGINT NOT NULL REFERENCES users (id),
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, user_id, role)
);
CREATE INDEX event_roles_user_idx ON event_roles (user_id);

-- +goose Down
DROP TABLE event_roles;
