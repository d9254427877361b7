-- +goose Up
-- API tokens (issue 15 part 4, docs/api.md): a director gives a program
-- (a venue's tablet, a federation's relay) a token for one event and one
-- scope. Only the SHA-256 of the secret is kept; the secret is shown once.
-- A token is revoked, never deleted, so the history that names it stays
-- readable.
CREATE TABLE api_tokens (
    id            BIGSERIAL PRIMARY KEY,
    event_id      BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    scope         TEXT NOT NULL,
    secret_hash   TEXT NOT NULL UNIQUE,
    created_by    BIGINT NOT NULL REFERENCES users (id),
    created_at    TIMESTAMPTZ NOT NULL,
    expires_at    TIMESTAMPTZ NOT NULL,
    last_used_at  TIMESTAMPTZ,
    revoked_at    TIMESTAMPTZ,
    revoked_by    BIGINT REFERENCES users (id)
);
CREATE INDEX api_tokens_event_idx ON api_tokens (event_id);

-- Every write made through a token: the audit log (append-only, 00080's rule).
CREATE TABLE api_token_uses (
    id        BIGSERIAL PRIMARY KEY,
    token_id  BIGINT NOT NULL REFERENCES api_tokens (id) ON DELETE RESTRICT,
    action    TEXT NOT NULL,
    game_id   BIGINT REFERENCES games (id) ON DELETE RESTRICT,
    at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX api_token_uses_token_idx ON api_token_uses (token_id);
CREATE TRIGGER api_token_uses_no_update BEFORE UPDATE ON api_token_uses FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER api_token_uses_no_delete BEFORE DELETE ON api_token_uses FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER api_token_uses_no_truncate BEFORE TRUNCATE ON api_token_uses FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- The token a result version, a record version or a ruling came through
-- ('' for the web): its name, as the history shows it.
ALTER TABLE game_results ADD COLUMN entered_via TEXT NOT NULL DEFAULT '';
ALTER TABLE game_records ADD COLUMN entered_via TEXT NOT NULL DEFAULT '';
ALTER TABLE rulings ADD COLUMN entered_via TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE rulings DROP COLUMN entered_via;
ALTER TABLE game_records DROP COLUMN entered_via;
ALTER TABLE game_results DROP COLUMN entered_via;
DROP TABLE api_token_uses;
DROP TABLE api_tokens;
