-- +goose Up
-- 師匠 history: one row per period in which a disciple had a master, who is
-- either a player (master_player_id) or a teacher outside the registry
-- (teacher_name/teacher_reading). master_key identifies the master for
-- fellow-disciple checks: 'p:<id>' or 't:<normalised name>|<normalised reading>'.
-- Periods are inclusive on both ends; to_date NULL means "still".
CREATE TABLE player_masters (
    id               BIGSERIAL PRIMARY KEY,
    disciple_id      BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    master_player_id BIGINT REFERENCES players (id) ON DELETE RESTRICT,
    teacher_name     TEXT NOT NULL DEFAULT '',
    teacher_reading  TEXT NOT NULL DEFAULT '',
    master_key       TEXT NOT NULL,
    from_date        DATE NOT NULL,
    to_date          DATE,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    CHECK (master_player_id IS NOT NULL OR teacher_name <> ''),
    CHECK (master_player_id IS NULL OR master_player_id <> disciple_id),
    CHECK (to_date IS NULL OR from_date <= to_date)
);
CREATE INDEX player_masters_disciple ON player_masters (disciple_id, from_date);
CREATE INDEX player_masters_key ON player_masters (master_key, from_date);
CREATE INDEX player_masters_master ON player_masters (master_player_id);

-- +goose Down
DROP TABLE player_masters;
