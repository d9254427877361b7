-- +goose Up
-- A playoff game (パラマス) a correction of the league table made void keeps
-- its link; the game created in its place takes the next attempt number.
ALTER TABLE league_playoff_games ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_playoff_games DROP CONSTRAINT league_playoff_games_class_id_number_key;
ALTER TABLE league_playoff_games ADD CONSTRAINT league_playoff_games_number_attempt_key UNIQUE (class_id, number, attempt);

-- +goose Down
DELETE FROM league_playoff_games p WHERE p.attempt < (SELECT MAX(x.attempt) FROM league_playoff_games x WHERE x.class_id = p.class_id AND x.number = p.number);
ALTER TABLE league_playoff_games DROP CONSTRAINT league_playoff_games_number_attempt_key;
ALTER TABLE league_playoff_games DROP COLUMN attempt;
ALTER TABLE league_playoff_games ADD CONSTRAINT league_playoff_games_class_id_number_key UNIQUE (class_id, number);
