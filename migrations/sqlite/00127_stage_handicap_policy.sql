-- +goose Up
-- A stage may carry its own 手合割 policy instead of the event's: a day's
-- class final plays under its class's policy (docs/final-knockout.md).
-- '' keeps the event's settings; 'toss' 平手 by 振り駒; 'table' the rank
-- gap table; 'mixed' up to even_gap grades 平手 with the lower rank sente,
-- beyond that the table.
ALTER TABLE knockout_stages ADD COLUMN handicap_policy TEXT NOT NULL DEFAULT '';
ALTER TABLE knockout_stages ADD COLUMN even_gap INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE knockout_stages DROP COLUMN even_gap;
ALTER TABLE knockout_stages DROP COLUMN handicap_policy;
