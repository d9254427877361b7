-- +goose Up
-- Issue 21 item 9: sign-in attempts are counted per (login, address) as
-- well as per login and per address (office/auth.go); this index serves the
-- pair's count and its newest attempt.
CREATE INDEX login_attempts_pair_idx ON login_attempts (login, ip, attempted_at);

-- +goose Down
DROP INDEX login_attempts_pair_idx;
