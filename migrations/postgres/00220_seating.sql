-- +goose Up
-- 席次 (issue 24, docs/seating.md, D-Z1): what decides who sits at the 上座
-- beyond the rank and class the registry already holds: the titles a
-- player holds (names in the federation's order, comma separated), the day
-- of promotion to the present 段 and the day of becoming professional
-- (四段). An organiser's override of one game's 上座, with its reason, is a
-- record of its own and never edited: a later override supersedes.
ALTER TABLE players ADD COLUMN titles TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN rank_since DATE;
ALTER TABLE players ADD COLUMN pro_since DATE;

CREATE TABLE seat_overrides (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE RESTRICT,
    joza_id     BIGINT NOT NULL REFERENCES players (id),
    reason      TEXT NOT NULL,
    actor_id    BIGINT NOT NULL REFERENCES users (id),
    at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX seat_overrides_game ON seat_overrides (game_id, id);

CREATE TRIGGER seat_overrides_no_update BEFORE UPDATE ON seat_overrides FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER seat_overrides_no_delete BEFORE DELETE ON seat_overrides FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER seat_overrides_no_truncate BEFORE TRUNCATE ON seat_overrides FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- The game page names the 上座: an override raises the event's revision
-- (kisen_event_changed, 00097), so a conditional GET never serves it stale.
CREATE CONSTRAINT TRIGGER seat_overrides_changed_insert AFTER INSERT ON seat_overrides DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');

-- +goose Down
DROP TRIGGER seat_overrides_changed_insert ON seat_overrides;
DROP TABLE seat_overrides;
ALTER TABLE players DROP COLUMN pro_since;
ALTER TABLE players DROP COLUMN rank_since;
ALTER TABLE players DROP COLUMN titles;
