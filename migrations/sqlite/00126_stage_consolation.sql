-- +goose Up
-- A knockout stage may run a consolation bracket (交流戦) for its
-- first-round losers (pairing's Bracket.Consolation): a day's class final
-- offers it (docs/final-knockout.md).
ALTER TABLE knockout_stages ADD COLUMN consolation BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE knockout_stages DROP COLUMN consolation;
