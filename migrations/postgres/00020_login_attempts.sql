-- +goose Up
-- Failed sign-in attempts, kept in the database so the rate limit holds
-- across every process sharing it. Rows older than the window are pruned.
CREATE TABLE login_attempts (
    id           BIGSERIAL PRIMARY KEY,
    login        TEXT NOT NULL,
    ip           TEXT NOT NULL,
    attempted_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX login_attempts_login_idx ON login_attempts (login, attempted_at);
CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, attempted_at);

-- +goose Down
DROP TABLE login_attempts;
