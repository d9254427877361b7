-- +goose Up
-- Classes of a league event: the five 順位戦 classes of a junisen_term event
-- (A, B1, B2, C1, C2), or one group ('') of an event of kind league.
-- settings is league.Settings, rules is league.ClassRules (both JSON, the
-- league room's defaults unless the scheduler changed them). Once drawn the
-- class holds the witnesses' seed (decimal text: a uint64), the draw date,
-- the round dates ([[date…]…]), the schedule (league.Schedule JSON with
-- player ids in decimal) and its constraint report.
-- status: setup → drawn → published.
CREATE TABLE league_classes (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id          INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    class             TEXT NOT NULL CHECK (class IN ('', 'A', 'B1', 'B2', 'C1', 'C2')),
    settings          TEXT NOT NULL DEFAULT '{}',
    rules             TEXT NOT NULL DEFAULT '{}',
    allowance_minutes INTEGER NOT NULL DEFAULT 0 CHECK (allowance_minutes >= 0),
    status            TEXT NOT NULL DEFAULT 'setup' CHECK (status IN ('setup', 'drawn', 'published')),
    draw_seed         TEXT NOT NULL DEFAULT '',
    draw_date         TEXT NOT NULL DEFAULT '',
    round_dates       TEXT NOT NULL DEFAULT '[]',
    schedule          TEXT NOT NULL DEFAULT '{}',
    report            TEXT NOT NULL DEFAULT '{}',
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL,
    UNIQUE (event_id, class)
);

-- Members of a class in this term's 順位 order (1 = top) with the 降級点
-- they hold before the term.
CREATE TABLE league_members (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id   INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    junni      INTEGER NOT NULL CHECK (junni >= 1),
    points     INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
    UNIQUE (class_id, player_id),
    UNIQUE (class_id, junni)
);

-- Pairings of earlier terms that this term's draw must know (D-C1, D-C2):
-- terms_ago 1 is last term, 2 the term before; final marks last term's
-- final-round pairs. Written by the CSV import or by the roll-over.
CREATE TABLE league_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    terms_ago   INTEGER NOT NULL CHECK (terms_ago IN (1, 2)),
    class       TEXT NOT NULL DEFAULT '',
    round       INTEGER NOT NULL DEFAULT 0,
    player_a_id INTEGER NOT NULL REFERENCES players (id),
    player_b_id INTEGER NOT NULL REFERENCES players (id),
    final       BOOLEAN NOT NULL DEFAULT FALSE,
    source      TEXT NOT NULL DEFAULT 'import',
    created_at  DATETIME NOT NULL
);
CREATE INDEX league_history_event_idx ON league_history (event_id);

-- The game created for each scheduled game at publication.
CREATE TABLE league_games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL CHECK (round >= 1),
    game_id  INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
);

-- Append-only audit trail of a class's schedule: draws, edits (with the
-- rules they broke and the override reason), publication.
CREATE TABLE league_schedule_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id   INTEGER NOT NULL REFERENCES league_classes (id) ON DELETE CASCADE,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}',
    violations TEXT NOT NULL DEFAULT '[]',
    reason     TEXT NOT NULL DEFAULT '',
    actor_id   INTEGER NOT NULL REFERENCES users (id),
    at         DATETIME NOT NULL
);
CREATE INDEX league_schedule_log_class_idx ON league_schedule_log (class_id);

-- +goose Down
DROP TABLE league_schedule_log;
DROP TABLE league_games;
DROP TABLE league_history;
DROP TABLE league_members;
DROP TABLE league_classes;
