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
    id              BIGSERIAL PRIMARY KEY,
    game_id         BIGINT NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL CHECK (ply >= 1),
    attempt         INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    usi             TEXT NOT NULL CHECK (length(usi) BETWEEN 4 AND 5),
    elapsed_seconds INTEGER NOT NULL CHECK (elapsed_seconds >= 0),
    comment         TEXT NOT NULL DEFAULT '',
    entered_by      BIGINT NOT NULL REFERENCES users (id),
    entered_via     TEXT NOT NULL DEFAULT '',
    entered_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (game_id, ply, attempt)
);

CREATE TABLE game_move_undos (
    id         BIGSERIAL PRIMARY KEY,
    move_id    BIGINT NOT NULL UNIQUE REFERENCES game_moves (id),
    game_id    BIGINT NOT NULL REFERENCES games (id),
    reason     TEXT NOT NULL CHECK (length(reason) > 0),
    entered_by BIGINT NOT NULL REFERENCES users (id),
    entered_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX game_move_undos_game_idx ON game_move_undos (game_id);

-- The recorder's secret link of a game (issued by the director, revocable;
-- the SHA-256 of the token only). Not append-only: revoking sets
-- revoked_at.
CREATE TABLE recorder_links (
    id         BIGSERIAL PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  BIGINT NOT NULL REFERENCES users (id),
    issued_at  TIMESTAMPTZ NOT NULL,
    revoked_by BIGINT REFERENCES users (id),
    revoked_at TIMESTAMPTZ
);
CREATE INDEX recorder_links_game_idx ON recorder_links (game_id);

CREATE TRIGGER game_moves_no_update BEFORE UPDATE ON game_moves FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_moves_no_delete BEFORE DELETE ON game_moves FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_moves_no_truncate BEFORE TRUNCATE ON game_moves FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_move_undos_no_update BEFORE UPDATE ON game_move_undos FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_move_undos_no_delete BEFORE DELETE ON game_move_undos FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER game_move_undos_no_truncate BEFORE TRUNCATE ON game_move_undos FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- The game's record and downloads read the live moves (store.RevisionTables).
CREATE CONSTRAINT TRIGGER game_moves_changed_insert AFTER INSERT ON game_moves DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER game_move_undos_changed_insert AFTER INSERT ON game_move_undos DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');

-- +goose Down
DROP TABLE recorder_links;
DROP TABLE game_move_undos;
DROP TABLE game_moves;
