-- +goose Up
-- A 竜王戦-style ranking group's line of the organiser's table (issue 24
-- item 8, docs/ranking-groups.md, D-G1): JSON of pairing.GroupRule; '' for
-- an ordinary knockout stage. A stage with a line also plays the group's
-- 昇級者決定戦 (P-…) and 残留決定戦 (S-…) games.
ALTER TABLE knockout_stages ADD COLUMN ranking_rule TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE knockout_stages DROP COLUMN ranking_rule;
