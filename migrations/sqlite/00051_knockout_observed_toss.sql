-- +goose Up
-- A physical 振り駒 entered as observed (D-F1..F3): every toss, each of the
-- five pieces, as JSON; '{}' while none was entered. The simulated toss
-- stays in furigoma, so both are kept and shown.
ALTER TABLE knockout_games ADD COLUMN observed TEXT NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE knockout_games DROP COLUMN observed;
