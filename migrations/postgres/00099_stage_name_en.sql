-- +goose Up
-- A stage's optional English name, shown on English pages (issue 13).
ALTER TABLE knockout_stages ADD COLUMN name_en TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE knockout_stages DROP COLUMN name_en;
