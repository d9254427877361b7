-- +goose Up
-- Appeals (異議, 000 第10条第8項; issue 24 item 5; docs/appeals.md), append-only.
-- An appeal names the ruling it contests (once: a ruling is appealed at most
-- once), the party who files it, each party's statement and any third
-- party's, the deciding body and the deadline computed from the event's
-- settings when it was filed. late_reason is the override staff gave to
-- accept an appeal after the deadline ('' when in time). The decision is a
-- row of its own, once per appeal: upheld (the ruling is superseded and the
-- result before it restored), dismissed (the ruling stands), replaced (the
-- ruling is superseded and the result replaced); ruling_id is the
-- superseding ruling it wrote, result_id the result version it appended.
CREATE TABLE appeals (
    id               BIGSERIAL PRIMARY KEY,
    game_id          BIGINT NOT NULL REFERENCES games (id),
    ruling_id        BIGINT NOT NULL UNIQUE REFERENCES rulings (id),
    filed_by         TEXT NOT NULL CHECK (filed_by IN ('sente', 'gote')),
    statement_sente  TEXT NOT NULL DEFAULT '',
    statement_gote   TEXT NOT NULL DEFAULT '',
    statement_others TEXT NOT NULL DEFAULT '',
    body             TEXT NOT NULL CHECK (body IN ('arbiter', 'council', 'organiser')),
    deadline_at      TIMESTAMPTZ NOT NULL,
    late_reason      TEXT NOT NULL DEFAULT '',
    entered_by       BIGINT NOT NULL REFERENCES users (id),
    filed_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX appeals_game_idx ON appeals (game_id);

CREATE TABLE appeal_decisions (
    id           BIGSERIAL PRIMARY KEY,
    appeal_id    BIGINT NOT NULL UNIQUE REFERENCES appeals (id),
    game_id      BIGINT NOT NULL REFERENCES games (id),
    decision     TEXT NOT NULL CHECK (decision IN ('upheld', 'dismissed', 'replaced')),
    replacement  TEXT NOT NULL DEFAULT '' CHECK (replacement IN ('', 'sente_win', 'gote_win', 'both_lose')),
    reasons      TEXT NOT NULL CHECK (length(reasons) > 0),
    ruling_id    BIGINT REFERENCES rulings (id),
    result_id    BIGINT REFERENCES game_results (id),
    decided_by   BIGINT NOT NULL REFERENCES users (id),
    decided_at   TIMESTAMPTZ NOT NULL
);

CREATE TRIGGER appeals_no_update BEFORE UPDATE ON appeals FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER appeals_no_delete BEFORE DELETE ON appeals FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER appeals_no_truncate BEFORE TRUNCATE ON appeals FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER appeal_decisions_no_update BEFORE UPDATE ON appeal_decisions FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER appeal_decisions_no_delete BEFORE DELETE ON appeal_decisions FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER appeal_decisions_no_truncate BEFORE TRUNCATE ON appeal_decisions FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- The game page lists its appeals (00097's revision, store.RevisionTables).
CREATE CONSTRAINT TRIGGER appeals_changed_insert AFTER INSERT ON appeals DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');
CREATE CONSTRAINT TRIGGER appeal_decisions_changed_insert AFTER INSERT ON appeal_decisions DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION kisen_event_changed('game_id');

-- +goose Down
DROP TABLE appeal_decisions;
DROP TABLE appeals;
