-- +goose Up
-- Arbiter rulings (立会人の裁定, D-K1), append-only. An appeal or a
-- correction is a new ruling whose supersedes_id names the one it
-- replaces; a ruling is superseded at most once. by_organiser marks a
-- ruling by the director where the event has no arbiter (D-K2). result_id
-- is the result version a foul-loss ruling produced.
CREATE TABLE rulings (
    id             BIGSERIAL PRIMARY KEY,
    game_id        BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind           TEXT NOT NULL CHECK (kind IN ('environment', 'clock_stop', 'clock_restart', 'time_adjust', 'caution', 'warning', 'foul_loss', 'other')),
    player         TEXT NOT NULL DEFAULT '' CHECK (player IN ('', 'sente', 'gote')),
    delta_s        INTEGER NOT NULL DEFAULT 0,
    reason         TEXT NOT NULL CHECK (length(reason) > 0),
    arbiter_id     BIGINT NOT NULL REFERENCES users (id),
    by_organiser   BOOLEAN NOT NULL DEFAULT FALSE,
    supersedes_id  BIGINT UNIQUE REFERENCES rulings (id),
    result_id      BIGINT REFERENCES game_results (id),
    made_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX rulings_game_idx ON rulings (game_id);

-- +goose Down
DROP TABLE rulings;
