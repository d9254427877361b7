-- +goose Up
-- Issue 21 item 5 (docs/amateur-day-paper.md, docs/security.md section C):
-- each player of a board gets their own secret. See the SQLite migration
-- for the comments.
CREATE TABLE day_report_secrets (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id  BIGINT NOT NULL REFERENCES players (id),
    token_hash TEXT NOT NULL UNIQUE,
    issued_by  BIGINT NOT NULL REFERENCES users (id),
    issued_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

ALTER TABLE day_reports ADD COLUMN own_secret BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE day_report_results (
    id              BIGSERIAL PRIMARY KEY,
    result_id       BIGINT NOT NULL UNIQUE REFERENCES game_results (id),
    game_id         BIGINT NOT NULL REFERENCES games (id),
    sente_report_id BIGINT REFERENCES day_reports (id),
    gote_report_id  BIGINT REFERENCES day_reports (id),
    confirmed_by    BIGINT REFERENCES users (id),
    at              TIMESTAMPTZ NOT NULL
);

CREATE TRIGGER day_report_results_no_update BEFORE UPDATE ON day_report_results FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_report_results_no_delete BEFORE DELETE ON day_report_results FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_report_results_no_truncate BEFORE TRUNCATE ON day_report_results FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- +goose Down
DROP TABLE day_report_results;
ALTER TABLE day_reports DROP COLUMN own_secret;
DROP TABLE day_report_secrets;
