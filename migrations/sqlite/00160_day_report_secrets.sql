-- +goose Up
-- Issue 21 item 5 (docs/amateur-day-paper.md, docs/security.md section C):
-- each player of a board gets their own secret. A secret reports only as
-- its own player; agreement needs both players' secrets.

-- One secret per player of a board: the SHA-256 of a random 128-bit token,
-- never the token. Printing the slips again replaces both. game_id is the
-- board's (root) game; issued_by the director who printed the slips (the
-- link stops working once that account is disabled or loses the role).
CREATE TABLE day_report_secrets (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  INTEGER NOT NULL REFERENCES users (id),
    issued_at  DATETIME NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

-- A report made through the player's own secret. Reports made through the
-- single board link of 00130 (where one phone could report as either
-- player) keep FALSE and no longer count towards an agreement. Adding a
-- column rewrites no row; the append-only triggers stay.
ALTER TABLE day_reports ADD COLUMN own_secret BOOLEAN NOT NULL DEFAULT FALSE;

-- Where a result version reported by the players came from: the two
-- agreeing reports, or one player's report and the desk member who
-- confirmed it (confirmed_by). The result history shows this instead of
-- game_results.entered_by, which must name a user. Append-only.
CREATE TABLE day_report_results (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    result_id       INTEGER NOT NULL UNIQUE REFERENCES game_results (id),
    game_id         INTEGER NOT NULL REFERENCES games (id),
    sente_report_id INTEGER REFERENCES day_reports (id),
    gote_report_id  INTEGER REFERENCES day_reports (id),
    confirmed_by    INTEGER REFERENCES users (id),
    at              DATETIME NOT NULL
);

-- +goose StatementBegin
CREATE TRIGGER day_report_results_no_update BEFORE UPDATE ON day_report_results
BEGIN SELECT RAISE(ABORT, 'append-only: day_report_results'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_report_results_no_delete BEFORE DELETE ON day_report_results
BEGIN SELECT RAISE(ABORT, 'append-only: day_report_results'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_report_results_no_replace BEFORE INSERT ON day_report_results
WHEN EXISTS (SELECT 1 FROM day_report_results WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: day_report_results'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_report_results_no_replace;
DROP TRIGGER day_report_results_no_delete;
DROP TRIGGER day_report_results_no_update;
DROP TABLE day_report_results;
ALTER TABLE day_reports DROP COLUMN own_secret;
DROP TABLE day_report_secrets;
