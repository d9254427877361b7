-- +goose Up
-- Issue 24 item 7 (docs/leagues.md, "The next term before its draw"): the
-- members of a class before its draw can be added, removed and moved
-- between the term's classes, each with a reason. origin says where a
-- member's place came from: the roll-over's groups (demoted_from_above,
-- stayed, promoted_from_below, stayed_with_point), added or moved by a
-- change, or '' for a class entered by hand.
ALTER TABLE league_members ADD COLUMN origin TEXT NOT NULL DEFAULT '';

-- Every change, append-only: seq is the term's member version after the
-- change (1, 2, …); a writer inserts the version it saw plus one, so two
-- writers that saw the same version cannot both land (UNIQUE).
CREATE TABLE league_member_changes (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL REFERENCES events (id) ON DELETE RESTRICT,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT NOT NULL CHECK (action IN ('add', 'remove', 'move')),
    player_id  BIGINT NOT NULL REFERENCES players (id),
    from_class TEXT NOT NULL DEFAULT '',
    to_class   TEXT NOT NULL DEFAULT '',
    kind       TEXT NOT NULL,
    reason     TEXT NOT NULL CHECK (reason <> ''),
    junni      INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    actor_id   BIGINT NOT NULL REFERENCES users (id),
    at         TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, seq)
);

CREATE TRIGGER league_member_changes_no_update BEFORE UPDATE ON league_member_changes FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER league_member_changes_no_delete BEFORE DELETE ON league_member_changes FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER league_member_changes_no_truncate BEFORE TRUNCATE ON league_member_changes FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();
CREATE CONSTRAINT TRIGGER league_member_changes_changed_insert AFTER INSERT ON league_member_changes DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('event_id');

-- +goose Down
DROP TABLE league_member_changes;
ALTER TABLE league_members DROP COLUMN origin;
