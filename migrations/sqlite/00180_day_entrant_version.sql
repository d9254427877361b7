-- +goose Up
-- Issue 23 §2: the reception desk's writes (check-in, fee, category, undo)
-- carry the version of the entrant's row they saw; a write on an older
-- version is stale (409). Every change to the row, or to the entrant's fee
-- records, raises it by one.
ALTER TABLE day_entrants ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE day_entrants DROP COLUMN version;
