-- +goose Up
-- A redo game (指し直し) made void: the result that called for it was later
-- superseded by a result that is not a redo (a correction, a foul claim or
-- a ruling). Append-only; the game row stays, so its history is kept, and
-- the redo chain (D-R3) skips it. result_id is the version that superseded
-- the redo.
CREATE TABLE game_voids (
    id         BIGSERIAL PRIMARY KEY,
    game_id    BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    result_id  BIGINT NOT NULL REFERENCES game_results (id) ON DELETE CASCADE,
    voided_by  BIGINT NOT NULL REFERENCES users (id),
    voided_at  TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE game_voids;
