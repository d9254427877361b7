-- +goose Up
-- 肉親 (relatives) in the player registry: parent and child, siblings,
-- spouses, … The federation-practice draw rules keep relatives apart like
-- 師弟 (league.Settings.Relatives). One row per unordered pair, stored with
-- the smaller id first so a pair cannot be entered twice.
CREATE TABLE player_relatives (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    player_a_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    player_b_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    relation    TEXT NOT NULL DEFAULT '',
    created_at  DATETIME NOT NULL,
    CHECK (player_a_id < player_b_id),
    UNIQUE (player_a_id, player_b_id)
);
CREATE INDEX player_relatives_b ON player_relatives (player_b_id);

-- +goose Down
DROP TABLE player_relatives;
