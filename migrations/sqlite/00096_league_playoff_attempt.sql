-- +goose Up
-- A playoff game (パラマス) a correction of the league table made void keeps
-- its link; the game created in its place takes the next attempt number.
CREATE TABLE league_playoff_games_new (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL CHECK (number >= 1),
    game_id  INTEGER NOT NULL REFERENCES games (id),
    attempt  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (class_id, number, attempt),
    UNIQUE (game_id)
);
INSERT INTO league_playoff_games_new (id, class_id, number, game_id, attempt)
    SELECT id, class_id, number, game_id, 0 FROM league_playoff_games;
DROP TABLE league_playoff_games;
ALTER TABLE league_playoff_games_new RENAME TO league_playoff_games;

-- +goose Down
CREATE TABLE league_playoff_games_old (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL CHECK (number >= 1),
    game_id  INTEGER NOT NULL REFERENCES games (id),
    UNIQUE (class_id, number),
    UNIQUE (game_id)
);
INSERT INTO league_playoff_games_old (id, class_id, number, game_id)
    SELECT id, class_id, number, game_id FROM league_playoff_games p
    WHERE attempt = (SELECT MAX(x.attempt) FROM league_playoff_games x WHERE x.class_id = p.class_id AND x.number = p.number);
DROP TABLE league_playoff_games;
ALTER TABLE league_playoff_games_old RENAME TO league_playoff_games;
