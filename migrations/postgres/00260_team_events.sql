-- +goose Up
-- Team events (団体戦, issue 25 items 1 and 2, docs/team-entries.md). An
-- event of kind knockout becomes a team event by a team_events row (as an
-- amateur day does by day_events, 00100): boards per match, reserves
-- (補欠) a team may register, the order rule (free, by rank, fixed) and
-- whether a team short of a majority of its boards forfeits the match.
-- version is the optimistic lock of the settings form.
CREATE TABLE team_events (
    event_id         BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    boards           INTEGER NOT NULL CHECK (boards BETWEEN 1 AND 15),
    reserves         INTEGER NOT NULL DEFAULT 0 CHECK (reserves BETWEEN 0 AND 15),
    order_rule       TEXT NOT NULL DEFAULT 'free' CHECK (order_rule IN ('free', 'rank', 'fixed')),
    majority_forfeit BOOLEAN NOT NULL DEFAULT FALSE,
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL
);

-- A team: its name and the school, club, 支部 or company it belongs to
-- (affiliation_kind; used by the draws to keep teams of one affiliation
-- apart). version rises with every change to the team or its roster.
CREATE TABLE teams (
    id               BIGSERIAL PRIMARY KEY,
    event_id         BIGINT NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    name_en          TEXT NOT NULL DEFAULT '',
    affiliation      TEXT NOT NULL DEFAULT '',
    affiliation_kind TEXT NOT NULL DEFAULT 'other' CHECK (affiliation_kind IN ('school', 'club', 'branch', 'company', 'other')),
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, name),
    UNIQUE (id, event_id)
);

-- A team's roster: position is the registration order (1 first; beyond the
-- event's boards a reserve), rank the rank at entry (the by-rank order rule
-- reads it). A player plays for one team per event: UNIQUE (event_id,
-- player_id), with event_id tied to the team's own by the foreign key.
CREATE TABLE team_members (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL,
    team_id    BIGINT NOT NULL,
    player_id  BIGINT NOT NULL REFERENCES players (id),
    position   INTEGER NOT NULL CHECK (position >= 1),
    rank       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (team_id, event_id) REFERENCES teams (id, event_id) ON DELETE CASCADE,
    UNIQUE (event_id, player_id),
    UNIQUE (team_id, position)
);

-- A round's order deadline (UTC). version is the form's optimistic lock.
CREATE TABLE team_rounds (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    number     INTEGER NOT NULL CHECK (number >= 1),
    deadline   TIMESTAMPTZ NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, number)
);

-- Orders (オーダー): each submission is a row, never changed; a later one
-- for the same round and team supersedes it (supersedes_id, with the reason
-- once the orders were published). late: submitted after the deadline.
-- The boards of an order: player_id NULL is an empty board (不戦敗).
CREATE TABLE team_orders (
    id            BIGSERIAL PRIMARY KEY,
    event_id      BIGINT NOT NULL REFERENCES team_events (event_id) ON DELETE RESTRICT,
    round_id      BIGINT NOT NULL REFERENCES team_rounds (id) ON DELETE RESTRICT,
    team_id       BIGINT NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
    supersedes_id BIGINT REFERENCES team_orders (id),
    reason        TEXT NOT NULL DEFAULT '',
    late          BOOLEAN NOT NULL DEFAULT FALSE,
    submitted_by  BIGINT NOT NULL REFERENCES users (id),
    submitted_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (supersedes_id)
);
CREATE INDEX team_orders_round_idx ON team_orders (round_id, team_id, id);

CREATE TABLE team_order_boards (
    id        BIGSERIAL PRIMARY KEY,
    order_id  BIGINT NOT NULL REFERENCES team_orders (id) ON DELETE RESTRICT,
    board     INTEGER NOT NULL CHECK (board >= 1),
    player_id BIGINT REFERENCES players (id),
    UNIQUE (order_id, board)
);

CREATE TRIGGER team_orders_no_update BEFORE UPDATE ON team_orders FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER team_orders_no_delete BEFORE DELETE ON team_orders FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER team_orders_no_truncate BEFORE TRUNCATE ON team_orders FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER team_order_boards_no_update BEFORE UPDATE ON team_order_boards FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER team_order_boards_no_delete BEFORE DELETE ON team_order_boards FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER team_order_boards_no_truncate BEFORE TRUNCATE ON team_order_boards FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- +goose Down
DROP TRIGGER team_order_boards_no_truncate ON team_order_boards;
DROP TRIGGER team_order_boards_no_delete ON team_order_boards;
DROP TRIGGER team_order_boards_no_update ON team_order_boards;
DROP TRIGGER team_orders_no_truncate ON team_orders;
DROP TRIGGER team_orders_no_delete ON team_orders;
DROP TRIGGER team_orders_no_update ON team_orders;
DROP TABLE team_order_boards;
DROP TABLE team_orders;
DROP TABLE team_rounds;
DROP TABLE team_members;
DROP TABLE teams;
DROP TABLE team_events;
