-- +goose Up
-- Bodies that run events and own their rule settings (settings: a JSON
-- object, filled in by later issues).
CREATE TABLE organisers (
    id         BIGSERIAL PRIMARY KEY,
    name       TEXT NOT NULL,
    name_en    TEXT NOT NULL DEFAULT '',
    kind       TEXT NOT NULL CHECK (kind IN ('federation', 'newspaper', 'amateur', 'other')),
    note       TEXT NOT NULL DEFAULT '',
    settings   TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE organisers;
