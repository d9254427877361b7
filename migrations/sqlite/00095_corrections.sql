-- +goose Up
-- A correction that changed who advanced (issue 11): an edited result, a
-- foul claim that reverses one, a withdrawal. Append-only; the reason is
-- required, void_chosen records that the director chose to void later games
-- that had a confirmed result.
CREATE TABLE corrections (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id     INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    game_id      INTEGER REFERENCES games (id) ON DELETE CASCADE,
    stage_id     INTEGER REFERENCES knockout_stages (id) ON DELETE CASCADE,
    reason       TEXT NOT NULL,
    void_chosen  BOOLEAN NOT NULL DEFAULT FALSE,
    actor_id     INTEGER NOT NULL REFERENCES users (id),
    at           DATETIME NOT NULL
);
CREATE INDEX corrections_event_idx ON corrections (event_id);

-- game_voids also marks the later games a correction made void: the row
-- names the correction; result_id is empty when no result superseded it
-- (a withdrawal). Rebuilt because SQLite cannot drop NOT NULL in place.
CREATE TABLE game_voids_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    result_id     INTEGER REFERENCES game_results (id) ON DELETE CASCADE,
    voided_by     INTEGER NOT NULL REFERENCES users (id),
    voided_at     DATETIME NOT NULL,
    correction_id INTEGER REFERENCES corrections (id) ON DELETE CASCADE
);
INSERT INTO game_voids_new (id, game_id, result_id, voided_by, voided_at)
    SELECT id, game_id, result_id, voided_by, voided_at FROM game_voids;
DROP TABLE game_voids;
ALTER TABLE game_voids_new RENAME TO game_voids;
-- The rebuild dropped game_voids' append-only triggers (00080): again.
CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
CREATE TRIGGER game_voids_no_replace BEFORE INSERT ON game_voids
WHEN EXISTS (SELECT 1 FROM game_voids WHERE id = NEW.id OR game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;

-- corrections is append-only as well (00080's rule).
CREATE TRIGGER corrections_no_update BEFORE UPDATE ON corrections
BEGIN SELECT RAISE(ABORT, 'append-only: corrections'); END;
CREATE TRIGGER corrections_no_delete BEFORE DELETE ON corrections
BEGIN SELECT RAISE(ABORT, 'append-only: corrections'); END;
CREATE TRIGGER corrections_no_replace BEFORE INSERT ON corrections
WHEN EXISTS (SELECT 1 FROM corrections WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: corrections'); END;

-- A bracket slot keeps every game it ever had: a void game's link stays,
-- and the fresh game takes the slot with the next attempt number.
CREATE TABLE knockout_games_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    stage_id     INTEGER NOT NULL REFERENCES knockout_stages (id) ON DELETE CASCADE,
    bracket_game TEXT NOT NULL,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    sente_by     TEXT NOT NULL DEFAULT 'furigoma',
    furigoma     TEXT NOT NULL DEFAULT '{}',
    created_at   DATETIME NOT NULL,
    observed     TEXT NOT NULL DEFAULT '{}',
    attempt      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (stage_id, bracket_game, attempt)
);
INSERT INTO knockout_games_new (id, stage_id, bracket_game, game_id, sente_by, furigoma, created_at, observed, attempt)
    SELECT id, stage_id, bracket_game, game_id, sente_by, furigoma, created_at, observed, 0 FROM knockout_games;
DROP TABLE knockout_games;
ALTER TABLE knockout_games_new RENAME TO knockout_games;

-- +goose Down
CREATE TABLE knockout_games_old (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    stage_id     INTEGER NOT NULL REFERENCES knockout_stages (id) ON DELETE CASCADE,
    bracket_game TEXT NOT NULL,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    sente_by     TEXT NOT NULL DEFAULT 'furigoma',
    furigoma     TEXT NOT NULL DEFAULT '{}',
    created_at   DATETIME NOT NULL,
    observed     TEXT NOT NULL DEFAULT '{}',
    UNIQUE (stage_id, bracket_game)
);
INSERT INTO knockout_games_old (id, stage_id, bracket_game, game_id, sente_by, furigoma, created_at, observed)
    SELECT id, stage_id, bracket_game, game_id, sente_by, furigoma, created_at, observed FROM knockout_games
    WHERE attempt = (SELECT MAX(k.attempt) FROM knockout_games k WHERE k.stage_id = knockout_games.stage_id AND k.bracket_game = knockout_games.bracket_game);
DROP TABLE knockout_games;
ALTER TABLE knockout_games_old RENAME TO knockout_games;
DROP TRIGGER corrections_no_replace;
DROP TRIGGER corrections_no_delete;
DROP TRIGGER corrections_no_update;
DROP TRIGGER game_voids_no_replace;
DROP TRIGGER game_voids_no_delete;
DROP TRIGGER game_voids_no_update;
DELETE FROM game_voids WHERE result_id IS NULL;
CREATE TABLE game_voids_old (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    result_id  INTEGER NOT NULL REFERENCES game_results (id) ON DELETE CASCADE,
    voided_by  INTEGER NOT NULL REFERENCES users (id),
    voided_at  DATETIME NOT NULL
);
INSERT INTO game_voids_old (id, game_id, result_id, voided_by, voided_at)
    SELECT id, game_id, result_id, voided_by, voided_at FROM game_voids;
DROP TABLE game_voids;
ALTER TABLE game_voids_old RENAME TO game_voids;
CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
CREATE TRIGGER game_voids_no_replace BEFORE INSERT ON game_voids
WHEN EXISTS (SELECT 1 FROM game_voids WHERE id = NEW.id OR game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_voids'); END;
DROP TABLE corrections;
