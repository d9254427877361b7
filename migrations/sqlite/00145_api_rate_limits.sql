-- +goose Up
-- Issue 15 part 3 (docs/api.md, Rate limit): the API's rate limit kept in
-- the database (PostgreSQL shares it between processes; SQLite has the same
-- table so that both run the same code). One row per client address: the
-- theoretical arrival time (GCRA; microseconds since the Unix epoch) of
-- its next request.
CREATE TABLE api_rate_limits (
    client  TEXT PRIMARY KEY,
    tat     INTEGER NOT NULL,
    -- whether the latest request was allowed (the upsert's answer)
    allowed BOOLEAN NOT NULL DEFAULT 1
);
CREATE INDEX api_rate_limits_tat_idx ON api_rate_limits (tat);

-- +goose Down
DROP TABLE api_rate_limits;
