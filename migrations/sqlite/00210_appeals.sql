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
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id          INTEGER NOT NULL REFERENCES games (id),
    ruling_id        INTEGER NOT NULL UNIQUE REFERENCES rulings (id),
    filed_by         TEXT NOT NULL CHECK (filed_by IN ('sente', 'gote')),
    statement_sente  TEXT NOT NULL DEFAULT '',
    statement_gote   TEXT NOT NULL DEFAULT '',
    statement_others TEXT NOT NULL DEFAULT '',
    body             TEXT NOT NULL CHECK (body IN ('arbiter', 'council', 'organiser')),
    deadline_at      DATETIME NOT NULL,
    late_reason      TEXT NOT NULL DEFAULT '',
    entered_by       INTEGER NOT NULL REFERENCES users (id),
    filed_at         DATETIME NOT NULL
);
CREATE INDEX appeals_game_idx ON appeals (game_id);

CREATE TABLE appeal_decisions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    appeal_id    INTEGER NOT NULL UNIQUE REFERENCES appeals (id),
    game_id      INTEGER NOT NULL REFERENCES games (id),
    decision     TEXT NOT NULL CHECK (decision IN ('upheld', 'dismissed', 'replaced')),
    replacement  TEXT NOT NULL DEFAULT '' CHECK (replacement IN ('', 'sente_win', 'gote_win', 'both_lose')),
    reasons      TEXT NOT NULL CHECK (length(reasons) > 0),
    ruling_id    INTEGER REFERENCES rulings (id),
    result_id    INTEGER REFERENCES game_results (id),
    decided_by   INTEGER NOT NULL REFERENCES users (id),
    decided_at   DATETIME NOT NULL
);

-- +goose StatementBegin
CREATE TRIGGER appeals_no_update BEFORE UPDATE ON appeals
BEGIN SELECT RAISE(ABORT, 'append-only: appeals'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeals_no_delete BEFORE DELETE ON appeals
BEGIN SELECT RAISE(ABORT, 'append-only: appeals'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeals_no_replace BEFORE INSERT ON appeals
WHEN EXISTS (SELECT 1 FROM appeals WHERE id = NEW.id OR ruling_id = NEW.ruling_id)
BEGIN SELECT RAISE(ABORT, 'append-only: appeals'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeal_decisions_no_update BEFORE UPDATE ON appeal_decisions
BEGIN SELECT RAISE(ABORT, 'append-only: appeal_decisions'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeal_decisions_no_delete BEFORE DELETE ON appeal_decisions
BEGIN SELECT RAISE(ABORT, 'append-only: appeal_decisions'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeal_decisions_no_replace BEFORE INSERT ON appeal_decisions
WHEN EXISTS (SELECT 1 FROM appeal_decisions WHERE id = NEW.id OR appeal_id = NEW.appeal_id)
BEGIN SELECT RAISE(ABORT, 'append-only: appeal_decisions'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeals_changed_insert AFTER INSERT ON appeals BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appeal_decisions_changed_insert AFTER INSERT ON appeal_decisions BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE appeal_decisions;
DROP TABLE appeals;
