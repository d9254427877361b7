-- +goose Up
-- Instance-wide settings (e.g. the hash of the one-time setup token).
CREATE TABLE app_settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE app_settings;
