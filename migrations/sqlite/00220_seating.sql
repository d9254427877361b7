-- +goose Up
-- 席次 (issue 24, docs/seating.md, D-Z1): what decides who sits at the 上座
-- beyond the rank and class the registry already holds: the titles a
-- player holds (names in the federation's order, comma separated), the day
-- of promotion to the present 段 and the day of becoming professional
-- (四段). An organiser's override of one game's 上座, with its reason, is a
-- record of its own and never edited: a later override supersedes.
ALTER TABLE players ADD COLUMN titles TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN rank_since TEXT CHECK (rank_since IS NULL OR length(rank_since) = 10);
ALTER TABLE players ADD COLUMN pro_since TEXT CHECK (pro_since IS NULL OR length(pro_since) = 10);

CREATE TABLE seat_overrides (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE RESTRICT,
    joza_id     INTEGER NOT NULL REFERENCES players (id),
    reason      TEXT NOT NULL,
    actor_id    INTEGER NOT NULL REFERENCES users (id),
    at          DATETIME NOT NULL
);
CREATE INDEX seat_overrides_game ON seat_overrides (game_id, id);

-- +goose StatementBegin
CREATE TRIGGER seat_overrides_no_update BEFORE UPDATE ON seat_overrides
BEGIN SELECT RAISE(ABORT, 'append-only: seat_overrides'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seat_overrides_no_delete BEFORE DELETE ON seat_overrides
BEGIN SELECT RAISE(ABORT, 'append-only: seat_overrides'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER seat_overrides_no_replace BEFORE INSERT ON seat_overrides
WHEN EXISTS (SELECT 1 FROM seat_overrides WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: seat_overrides'); END;
-- +goose StatementEnd

-- The game page names the 上座: an override raises the event's revision
-- (00097), so a conditional GET never serves it stale.
-- +goose StatementBegin
CREATE TRIGGER seat_overrides_changed_insert AFTER INSERT ON seat_overrides BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER seat_overrides_changed_insert;
DROP TRIGGER seat_overrides_no_replace;
DROP TRIGGER seat_overrides_no_delete;
DROP TRIGGER seat_overrides_no_update;
DROP TABLE seat_overrides;
ALTER TABLE players DROP COLUMN pro_since;
ALTER TABLE players DROP COLUMN rank_since;
ALTER TABLE players DROP COLUMN titles;
