-- +goose Up
-- Team events (団体戦, issue 25 items 1 and 2, docs/team-entries.md). An
-- event of kind knockout becomes a team event by a team_events row (as an
-- amateur day does by day_events, 00100): boards per match, reserves
-- (補欠) a team may register, the order rule (free, by rank, fixed) and
-- whether a team short of a majority of its boards forfeits the match.
-- version is the optimistic lock of the settings form.
CREATE TABLE team_events (
    event_id         INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    boards           INTEGER NOT NULL CHECK (boards BETWEEN 1 AND 15),
    reserves         INTEGER NOT NULL DEFAULT 0 CHECK (reserves BETWEEN 0 AND 15),
    order_rule       TEXT NOT NULL DEFAULT 'free' CHECK (order_rule IN ('free', 'rank', 'fixed')),
    majority_forfeit BOOLEAN NOT NULL DEFAULT FALSE,
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL
);

-- A team: its name and the school, club, 支部 or company it belongs to
-- (affiliation_kind; used by the draws to keep teams of one affiliation
-- apart). version rises with every change to the team or its roster.
CREATE TABLE teams (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id         INTEGER NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    name_en          TEXT NOT NULL DEFAULT '',
    affiliation      TEXT NOT NULL DEFAULT '',
    affiliation_kind TEXT NOT NULL DEFAULT 'other' CHECK (affiliation_kind IN ('school', 'club', 'branch', 'company', 'other')),
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL,
    UNIQUE (event_id, name),
    UNIQUE (id, event_id)
);

-- A team's roster: position is the registration order (1 first; beyond the
-- event's boards a reserve), rank the rank at entry (the by-rank order rule
-- reads it). A player plays for one team per event: UNIQUE (event_id,
-- player_id), with event_id tied to the team's own by the foreign key.
CREATE TABLE team_members (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL,
    team_id    INTEGER NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    position   INTEGER NOT NULL CHECK (position >= 1),
    rank       TEXT NOT NULL DEFAULT '',
    created_at DATETIME NOT NULL,
    FOREIGN KEY (team_id, event_id) REFERENCES teams (id, event_id) ON DELETE CASCADE,
    UNIQUE (event_id, player_id),
    UNIQUE (team_id, position)
);

-- A round's order deadline (UTC). version is the form's optimistic lock.
CREATE TABLE team_rounds (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    number     INTEGER NOT NULL CHECK (number >= 1),
    deadline   DATETIME NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL,
    UNIQUE (event_id, number)
);

-- Orders (オーダー): each submission is a row, never changed; a later one
-- for the same round and team supersedes it (supersedes_id, with the reason
-- once the orders were published). late: submitted after the deadline.
-- The boards of an order: player_id NULL is an empty board (不戦敗).
CREATE TABLE team_orders (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id      INTEGER NOT NULL REFERENCES team_events (event_id) ON DELETE RESTRICT,
    round_id      INTEGER NOT NULL REFERENCES team_rounds (id) ON DELETE RESTRICT,
    team_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
    supersedes_id INTEGER REFERENCES team_orders (id),
    reason        TEXT NOT NULL DEFAULT '',
    late          BOOLEAN NOT NULL DEFAULT FALSE,
    submitted_by  INTEGER NOT NULL REFERENCES users (id),
    submitted_at  DATETIME NOT NULL,
    UNIQUE (supersedes_id)
);
CREATE INDEX team_orders_round_idx ON team_orders (round_id, team_id, id);

CREATE TABLE team_order_boards (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id  INTEGER NOT NULL REFERENCES team_orders (id) ON DELETE RESTRICT,
    board     INTEGER NOT NULL CHECK (board >= 1),
    player_id INTEGER REFERENCES players (id),
    UNIQUE (order_id, board)
);

-- +goose StatementBegin
CREATE TRIGGER team_orders_no_update BEFORE UPDATE ON team_orders
BEGIN SELECT RAISE(ABORT, 'append-only: team_orders'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER team_orders_no_delete BEFORE DELETE ON team_orders
BEGIN SELECT RAISE(ABORT, 'append-only: team_orders'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER team_orders_no_replace BEFORE INSERT ON team_orders
WHEN EXISTS (SELECT 1 FROM team_orders WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: team_orders'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER team_order_boards_no_update BEFORE UPDATE ON team_order_boards
BEGIN SELECT RAISE(ABORT, 'append-only: team_order_boards'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER team_order_boards_no_delete BEFORE DELETE ON team_order_boards
BEGIN SELECT RAISE(ABORT, 'append-only: team_order_boards'); END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER team_order_boards_no_replace BEFORE INSERT ON team_order_boards
WHEN EXISTS (SELECT 1 FROM team_order_boards WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'append-only: team_order_boards'); END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER team_order_boards_no_replace;
DROP TRIGGER team_order_boards_no_delete;
DROP TRIGGER team_order_boards_no_update;
DROP TRIGGER team_orders_no_replace;
DROP TRIGGER team_orders_no_delete;
DROP TRIGGER team_orders_no_update;
DROP TABLE team_order_boards;
DROP INDEX team_orders_round_idx;
DROP TABLE team_orders;
DROP TABLE team_rounds;
DROP TABLE team_members;
DROP TABLE teams;
DROP TABLE team_events;
