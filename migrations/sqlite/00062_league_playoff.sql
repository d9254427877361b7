-- +goose Up
-- Stepladder playoff games (パラマス) of a class whose top places tied for
-- the challenger place: game number (1 = the two lowest 順位 first) → the
-- game row. Games are created one at a time as winners become known.
CREATE TABLE league_playoff_games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL CHECK (number >= 1),
    game_id  INTEGER NOT NULL REFERENCES games (id),
    UNIQUE (class_id, number),
    UNIQUE (game_id)
);

-- +goose Down
DROP TABLE league_playoff_games;
