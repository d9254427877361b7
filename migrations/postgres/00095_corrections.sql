-- +goose Up
-- A correction that changed who advanced (issue 11): an edited result, a
-- foul claim that reverses one, a withdrawal. Append-only; the reason is
-- required, void_chosen records that the director chose to void later games
-- that had a confirmed result.
CREATE TABLE corrections (
    id           BIGSERIAL PRIMARY KEY,
    event_id     BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    game_id      BIGINT REFERENCES games (id) ON DELETE CASCADE,
    stage_id     BIGINT REFERENCES knockout_stages (id) ON DELETE CASCADE,
    reason       TEXT NOT NULL,
    void_chosen  BOOLEAN NOT NULL DEFAULT FALSE,
    actor_id     BIGINT NOT NULL REFERENCES users (id),
    at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX corrections_event_idx ON corrections (event_id);
-- corrections is append-only as well (00080's rule).
CREATE TRIGGER corrections_no_update BEFORE UPDATE ON corrections FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER corrections_no_delete BEFORE DELETE ON corrections FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER corrections_no_truncate BEFORE TRUNCATE ON corrections FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- game_voids also marks the later games a correction made void: the row
-- names the correction; result_id is empty when no result superseded it
-- (a withdrawal).
ALTER TABLE game_voids ALTER COLUMN result_id DROP NOT NULL;
ALTER TABLE game_voids ADD COLUMN correction_id BIGINT REFERENCES corrections (id) ON DELETE CASCADE;

-- A bracket slot keeps every game it ever had: a void game's link stays,
-- and the fresh game takes the slot with the next attempt number.
ALTER TABLE knockout_games ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE knockout_games DROP CONSTRAINT knockout_games_stage_id_bracket_game_key;
ALTER TABLE knockout_games ADD CONSTRAINT knockout_games_slot_attempt_key UNIQUE (stage_id, bracket_game, attempt);

-- +goose Down
DELETE FROM knockout_games k WHERE k.attempt < (SELECT MAX(x.attempt) FROM knockout_games x WHERE x.stage_id = k.stage_id AND x.bracket_game = k.bracket_game);
ALTER TABLE knockout_games DROP CONSTRAINT knockout_games_slot_attempt_key;
ALTER TABLE knockout_games DROP COLUMN attempt;
ALTER TABLE knockout_games ADD CONSTRAINT knockout_games_stage_id_bracket_game_key UNIQUE (stage_id, bracket_game);
ALTER TABLE game_voids DISABLE TRIGGER game_voids_no_delete;
DELETE FROM game_voids WHERE result_id IS NULL;
ALTER TABLE game_voids ENABLE TRIGGER game_voids_no_delete;
ALTER TABLE game_voids DROP COLUMN correction_id;
ALTER TABLE game_voids ALTER COLUMN result_id SET NOT NULL;
DROP TRIGGER corrections_no_truncate ON corrections;
DROP TRIGGER corrections_no_delete ON corrections;
DROP TRIGGER corrections_no_update ON corrections;
DROP TABLE corrections;
