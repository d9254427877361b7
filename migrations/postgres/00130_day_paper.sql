-- +goose Up
-- Paper and self-report for the amateur day (issue 14 parts 5-QR, 6, 7;
-- docs/amateur-day-paper.md). See the SQLite migration for the comments.
CREATE TABLE day_class_paper (
    class_id     BIGINT PRIMARY KEY REFERENCES day_classes (id) ON DELETE CASCADE,
    qr           BOOLEAN NOT NULL DEFAULT FALSE,
    wait_minutes INTEGER NOT NULL DEFAULT 10 CHECK (wait_minutes BETWEEN 1 AND 240),
    updated_by   BIGINT NOT NULL REFERENCES users (id),
    updated_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE day_report_links (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  BIGINT NOT NULL REFERENCES users (id),
    issued_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE day_reports (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE RESTRICT,
    reporter_id BIGINT NOT NULL REFERENCES players (id),
    winner_id   BIGINT NOT NULL REFERENCES players (id),
    result_id   BIGINT REFERENCES game_results (id),
    at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX day_reports_game_idx ON day_reports (game_id);

CREATE TABLE day_report_misses (
    id  BIGSERIAL PRIMARY KEY,
    ip  TEXT NOT NULL,
    at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX day_report_misses_ip_idx ON day_report_misses (ip, at);

CREATE TRIGGER day_reports_no_update BEFORE UPDATE ON day_reports FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_reports_no_delete BEFORE DELETE ON day_reports FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_reports_no_truncate BEFORE TRUNCATE ON day_reports FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- +goose Down
DROP TABLE day_report_misses;
DROP TABLE day_reports;
DROP TABLE day_report_links;
DROP TABLE day_class_paper;
