-- +goose Up
-- Game records (棋譜), append-only: a new upload is a new version. text is
-- the original as pasted or uploaded; moves are the parsed main line in
-- USI, space-separated, from start_sfen. findings is what the rules engine
-- read (adjudication.Findings as JSON); has_foul marks a record saved
-- although it contains an illegal move (the foul is then a finding).
CREATE TABLE game_records (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL CHECK (version >= 1),
    format      TEXT NOT NULL CHECK (format IN ('kif', 'ki2', 'csa', 'usi')),
    text        TEXT NOT NULL,
    start_sfen  TEXT NOT NULL,
    moves       TEXT NOT NULL DEFAULT '',
    plies       INTEGER NOT NULL CHECK (plies >= 0),
    has_foul    BOOLEAN NOT NULL DEFAULT FALSE,
    findings    TEXT NOT NULL DEFAULT '{}',
    entered_by  BIGINT NOT NULL REFERENCES users (id),
    entered_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (game_id, version)
);

-- +goose Down
DROP TABLE game_records;
