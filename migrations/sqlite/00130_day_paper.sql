-- +goose Up
-- Paper and self-report for the amateur day (issue 14 parts 5-QR, 6, 7;
-- docs/amateur-day-paper.md).

-- A class's paper settings: whether its slips carry a QR code for the
-- players' own report, and how long one side's report waits for the
-- other's before the board goes to the desk.
CREATE TABLE day_class_paper (
    class_id     INTEGER PRIMARY KEY REFERENCES day_classes (id) ON DELETE CASCADE,
    qr           BOOLEAN NOT NULL DEFAULT FALSE,
    wait_minutes INTEGER NOT NULL DEFAULT 10 CHECK (wait_minutes BETWEEN 1 AND 240),
    updated_by   INTEGER NOT NULL REFERENCES users (id),
    updated_at   DATETIME NOT NULL
);

-- The secret link of a board's slip: the SHA-256 of a random 128-bit
-- token, never the token. Printing the slips again issues a new token
-- (the old slip's code stops working). game_id is the board's game.
CREATE TABLE day_report_links (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  INTEGER NOT NULL REFERENCES users (id),
    issued_at  DATETIME NOT NULL
);

-- What the players reported through a slip's link: who reported (one of
-- the two players) and whom they named the winner. result_id is the
-- result version the report completed when both sides agreed.
-- Append-only.
CREATE TABLE day_reports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    reporter_id INTEGER NOT NULL REFERENCES players (id),
    winner_id   INTEGER NOT NULL REFERENCES players (id),
    result_id   INTEGER REFERENCES game_results (id),
    at          DATETIME NOT NULL
);
CREATE INDEX day_reports_game_idx ON day_reports (game_id);

-- Wrong tokens by client address, for the rate limit; pruned by age.
CREATE TABLE day_report_misses (
    id  INTEGER PRIMARY KEY AUTOINCREMENT,
    ip  TEXT NOT NULL,
    at  DATETIME NOT NULL
);
CREATE INDEX day_report_misses_ip_idx ON day_report_misses (ip, at);

-- +goose StatementBegin
CREATE TRIGGER day_reports_no_update BEFORE UPDATE ON day_reports
BEGIN SELECT RAISE(ABORT, 'append-only: day_reports'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_reports_no_delete BEFORE DELETE ON day_reports
BEGIN SELECT RAISE(ABORT, 'append-only: day_reports'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_reports_no_replace BEFORE INSERT ON day_reports
WHEN EXISTS (SELECT 1 FROM day_reports WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: day_reports'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_reports_no_replace;
DROP TRIGGER day_reports_no_delete;
DROP TRIGGER day_reports_no_update;
DROP TABLE day_report_misses;
DROP TABLE day_reports;
DROP TABLE day_report_links;
DROP TABLE day_class_paper;
