-- +goose Up
-- Moves entered live by the recorder (記録係, issue 26; docs/recorder.md),
-- append-only: one row per move as entered, in USI, with the time the move
-- took in seconds and a comment. attempt counts the times ply was entered:
-- 0 the first time, one more after each undo of that ply. UNIQUE (game_id,
-- ply, attempt) is the database's own guard against a forked record: two
-- devices entering the same ply from the same record both write attempt n,
-- and one of them fails. An undo is a row of game_move_undos naming the
-- move it takes back, once per move.
CREATE TABLE game_moves (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL CHECK (ply >= 1),
    attempt         INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    usi             TEXT NOT NULL CHECK (length(usi) BETWEEN 4 AND 5),
    elapsed_seconds INTEGER NOT NULL CHECK (elapsed_seconds >= 0),
    comment         TEXT NOT NULL DEFAULT '',
    entered_by      INTEGER NOT NULL REFERENCES users (id),
    entered_via     TEXT NOT NULL DEFAULT '',
    entered_at      DATETIME NOT NULL,
    UNIQUE (game_id, ply, attempt)
);

CREATE TABLE game_move_undos (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    move_id    INTEGER NOT NULL UNIQUE REFERENCES game_moves (id),
    game_id    INTEGER NOT NULL REFERENCES games (id),
    reason     TEXT NOT NULL CHECK (length(reason) > 0),
    entered_by INTEGER NOT NULL REFERENCES users (id),
    entered_at DATETIME NOT NULL
);
CREATE INDEX game_move_undos_game_idx ON game_move_undos (game_id);

-- The recorder's secret link of a game (issued by the director, revocable;
-- the SHA-256 of the token only). Not append-only: revoking sets
-- revoked_at.
CREATE TABLE recorder_links (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  INTEGER NOT NULL REFERENCES users (id),
    issued_at  DATETIME NOT NULL,
    revoked_by INTEGER REFERENCES users (id),
    revoked_at DATETIME
);
CREATE INDEX recorder_links_game_idx ON recorder_links (game_id);

-- +goose StatementBegin
CREATE TRIGGER game_moves_no_update BEFORE UPDATE ON game_moves
BEGIN SELECT RAISE(ABORT, 'append-only: game_moves'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_moves_no_delete BEFORE DELETE ON game_moves
BEGIN SELECT RAISE(ABORT, 'append-only: game_moves'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_moves_no_replace BEFORE INSERT ON game_moves
WHEN EXISTS (SELECT 1 FROM game_moves WHERE id = NEW.id OR (game_id = NEW.game_id AND ply = NEW.ply AND attempt = NEW.attempt))
BEGIN SELECT RAISE(ABORT, 'append-only: game_moves'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_move_undos_no_update BEFORE UPDATE ON game_move_undos
BEGIN SELECT RAISE(ABORT, 'append-only: game_move_undos'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_move_undos_no_delete BEFORE DELETE ON game_move_undos
BEGIN SELECT RAISE(ABORT, 'append-only: game_move_undos'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_move_undos_no_replace BEFORE INSERT ON game_move_undos
WHEN EXISTS (SELECT 1 FROM game_move_undos WHERE id = NEW.id OR move_id = NEW.move_id)
BEGIN SELECT RAISE(ABORT, 'append-only: game_move_undos'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_moves_changed_insert AFTER INSERT ON game_moves BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_move_undos_changed_insert AFTER INSERT ON game_move_undos BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE recorder_links;
DROP TABLE game_move_undos;
DROP TABLE game_moves;
