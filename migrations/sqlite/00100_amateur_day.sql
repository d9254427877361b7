-- +goose Up
-- The amateur tournament day (issue 14, docs/amateur-day.md). An event of
-- kind knockout becomes an amateur day (アマチュア大会) by a day_events row:
-- its classes (クラス別) run preliminaries (N勝通過M敗失格 or Swiss) whose
-- rounds create ordinary games of the event, and the class's final is a
-- knockout stage of the same event. (A new events.kind value would need the
-- events table rebuilt on SQLite, which cannot happen inside goose's
-- transaction with foreign keys on; see 00080.)
CREATE TABLE day_events (
    event_id   INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    created_at DATETIME NOT NULL
);

-- Classes of a day. settings is a validated JSON object (office/day
-- ClassSettings): format details, rank range, 手合割 policy, time control,
-- relation policies, withdrawal policy, qualifiers, Swiss tie-breaks and
-- the first board number.
CREATE TABLE day_classes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    name_en    TEXT NOT NULL DEFAULT '',
    position   INTEGER NOT NULL DEFAULT 0,
    format     TEXT NOT NULL CHECK (format IN ('pools', 'swiss', 'knockout')),
    settings   TEXT NOT NULL DEFAULT '{}',
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL,
    UNIQUE (event_id, name)
);

-- Entrants of a day, one class each. checkin is the reception state;
-- class_by says whether the declared rank or the director chose the class.
CREATE TABLE day_entrants (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id      INTEGER NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    class_id      INTEGER NOT NULL REFERENCES day_classes (id) ON DELETE CASCADE,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    declared_rank TEXT NOT NULL DEFAULT '',
    class_by      TEXT NOT NULL DEFAULT 'rank' CHECK (class_by IN ('rank', 'director')),
    walk_in       BOOLEAN NOT NULL DEFAULT FALSE,
    checkin       TEXT NOT NULL DEFAULT 'expected' CHECK (checkin IN ('expected', 'present', 'absent', 'late')),
    checkin_by    INTEGER REFERENCES users (id),
    checkin_at    DATETIME,
    withdrawn_by  INTEGER REFERENCES users (id),
    withdrawn_at  DATETIME,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL,
    UNIQUE (event_id, player_id)
);
CREATE INDEX day_entrants_class_idx ON day_entrants (class_id);

-- Drawn rounds of a class: the seed (decimal uint64, so the draw can be
-- re-checked), the blocks of a blocks-mode preliminary (JSON, from round
-- 1), and the avoidances the draw could not keep (JSON). Append-only.
CREATE TABLE day_rounds (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id  INTEGER NOT NULL REFERENCES day_classes (id) ON DELETE CASCADE,
    number    INTEGER NOT NULL CHECK (number >= 1),
    seed      TEXT NOT NULL,
    blocks    TEXT NOT NULL DEFAULT '[]',
    not_kept  TEXT NOT NULL DEFAULT '[]',
    drawn_by  INTEGER NOT NULL REFERENCES users (id),
    drawn_at  DATETIME NOT NULL,
    UNIQUE (class_id, number)
);

-- One board of a round (a game of the event) or one bye (不戦勝, no game).
-- Append-only.
CREATE TABLE day_pairings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id      INTEGER NOT NULL REFERENCES day_rounds (id) ON DELETE CASCADE,
    board         INTEGER CHECK (board IS NULL OR board >= 1),
    game_id       INTEGER UNIQUE REFERENCES games (id),
    bye_player_id INTEGER REFERENCES players (id),
    sente_by      TEXT NOT NULL DEFAULT '',
    furigoma      TEXT NOT NULL DEFAULT '{}',
    CHECK ((game_id IS NULL) = (bye_player_id IS NOT NULL)),
    CHECK ((game_id IS NULL) = (board IS NULL)),
    UNIQUE (round_id, board)
);
CREATE INDEX day_pairings_round_idx ON day_pairings (round_id);

-- What the desk did, for the record: class overrides, check-ins,
-- walk-ins, withdrawals, class settings. Append-only.
CREATE TABLE day_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id  INTEGER NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    class_id  INTEGER REFERENCES day_classes (id) ON DELETE CASCADE,
    player_id INTEGER REFERENCES players (id),
    action    TEXT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}',
    actor_id  INTEGER NOT NULL REFERENCES users (id),
    at        DATETIME NOT NULL
);
CREATE INDEX day_log_event_idx ON day_log (event_id);

-- +goose StatementBegin
CREATE TRIGGER day_rounds_no_update BEFORE UPDATE ON day_rounds
BEGIN SELECT RAISE(ABORT, 'append-only: day_rounds'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_rounds_no_delete BEFORE DELETE ON day_rounds
BEGIN SELECT RAISE(ABORT, 'append-only: day_rounds'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_rounds_no_replace BEFORE INSERT ON day_rounds
WHEN EXISTS (SELECT 1 FROM day_rounds WHERE id = NEW.id OR (class_id = NEW.class_id AND number = NEW.number))
BEGIN SELECT RAISE(ABORT, 'append-only: day_rounds'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_pairings_no_update BEFORE UPDATE ON day_pairings
BEGIN SELECT RAISE(ABORT, 'append-only: day_pairings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_pairings_no_delete BEFORE DELETE ON day_pairings
BEGIN SELECT RAISE(ABORT, 'append-only: day_pairings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_pairings_no_replace BEFORE INSERT ON day_pairings
WHEN EXISTS (SELECT 1 FROM day_pairings WHERE id = NEW.id OR game_id = NEW.game_id OR (round_id = NEW.round_id AND board = NEW.board))
BEGIN SELECT RAISE(ABORT, 'append-only: day_pairings'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_log_no_update BEFORE UPDATE ON day_log
BEGIN SELECT RAISE(ABORT, 'append-only: day_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_log_no_delete BEFORE DELETE ON day_log
BEGIN SELECT RAISE(ABORT, 'append-only: day_log'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER day_log_no_replace BEFORE INSERT ON day_log
WHEN EXISTS (SELECT 1 FROM day_log WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: day_log'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER day_log_no_replace;
DROP TRIGGER day_log_no_delete;
DROP TRIGGER day_log_no_update;
DROP TRIGGER day_pairings_no_replace;
DROP TRIGGER day_pairings_no_delete;
DROP TRIGGER day_pairings_no_update;
DROP TRIGGER day_rounds_no_replace;
DROP TRIGGER day_rounds_no_delete;
DROP TRIGGER day_rounds_no_update;
DROP TABLE day_log;
DROP TABLE day_pairings;
DROP TABLE day_rounds;
DROP TABLE day_entrants;
DROP TABLE day_classes;
DROP TABLE day_events;
