-- +goose Up
-- The facts each adjudicated result version was decided on (the JSON the
-- adjudication room reads, without the record text: record_id names the
-- stored record version it used). A later foul claim or ruling re-decides
-- from these facts and appends a new result version.
CREATE TABLE game_adjudications (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    result_id   BIGINT NOT NULL UNIQUE REFERENCES game_results (id) ON DELETE CASCADE,
    record_id   BIGINT REFERENCES game_records (id),
    facts       TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX game_adjudications_game_idx ON game_adjudications (game_id);

-- +goose Down
DROP TABLE game_adjudications;
