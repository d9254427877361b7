-- +goose Up
-- An appeal's decision may order the game replayed (指し直し, issue 24,
-- docs/appeals.md, 000 第10条第8項): the replacement may be 'redo'. SQLite
-- cannot change a CHECK constraint, so the append-only table is rebuilt
-- with its rows, ids and triggers (00210's) as they were.
DROP TRIGGER appeal_decisions_no_update;
DROP TRIGGER appeal_decisions_no_delete;
DROP TRIGGER appeal_decisions_no_replace;
DROP TRIGGER appeal_decisions_changed_insert;
CREATE TABLE appeal_decisions_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    appeal_id    INTEGER NOT NULL UNIQUE REFERENCES appeals (id),
    game_id      INTEGER NOT NULL REFERENCES games (id),
    decision     TEXT NOT NULL CHECK (decision IN ('upheld', 'dismissed', 'replaced')),
    replacement  TEXT NOT NULL DEFAULT '' CHECK (replacement IN ('', 'sente_win', 'gote_win', 'both_lose', 'redo')),
    reasons      TEXT NOT NULL CHECK (length(reasons) > 0),
    ruling_id    INTEGER REFERENCES rulings (id),
    result_id    INTEGER REFERENCES game_results (id),
    decided_by   INTEGER NOT NULL REFERENCES users (id),
    decided_at   DATETIME NOT NULL
);
INSERT INTO appeal_decisions_new (id, appeal_id, game_id, decision, replacement, reasons, ruling_id, result_id, decided_by, decided_at)
    SELECT id, appeal_id, game_id, decision, replacement, reasons, ruling_id, result_id, decided_by, decided_at FROM appeal_decisions;
DROP TABLE appeal_decisions;
ALTER TABLE appeal_decisions_new RENAME TO appeal_decisions;

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
CREATE TRIGGER appeal_decisions_changed_insert AFTER INSERT ON appeal_decisions BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
-- (a decision with a replay cannot go back: its row fails the old CHECK)
DROP TRIGGER appeal_decisions_no_update;
DROP TRIGGER appeal_decisions_no_delete;
DROP TRIGGER appeal_decisions_no_replace;
DROP TRIGGER appeal_decisions_changed_insert;
CREATE TABLE appeal_decisions_new (
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
INSERT INTO appeal_decisions_new (id, appeal_id, game_id, decision, replacement, reasons, ruling_id, result_id, decided_by, decided_at)
    SELECT id, appeal_id, game_id, decision, replacement, reasons, ruling_id, result_id, decided_by, decided_at FROM appeal_decisions;
DROP TABLE appeal_decisions;
ALTER TABLE appeal_decisions_new RENAME TO appeal_decisions;

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
CREATE TRIGGER appeal_decisions_changed_insert AFTER INSERT ON appeal_decisions BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd
