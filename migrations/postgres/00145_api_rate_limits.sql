-- +goose Up
-- Issue 15 part 3 (docs/api.md, Rate limit): the API's rate limit shared
-- by every `kisen serve` on this database. One row per client address: the
-- theoretical arrival time (GCRA; microseconds since the Unix epoch) of
-- its next request. One upsert per API request reads and moves it.
-- UNLOGGED: no WAL for a counter; a crash empties it, which only forgets
-- who was limited.
CREATE UNLOGGED TABLE api_rate_limits (
    client  TEXT PRIMARY KEY,
    tat     BIGINT NOT NULL,
    -- whether the latest request was allowed (the upsert's answer)
    allowed BOOLEAN NOT NULL DEFAULT TRUE
);
CREATE INDEX api_rate_limits_tat_idx ON api_rate_limits (tat);

-- +goose Down
DROP TABLE api_rate_limits;
