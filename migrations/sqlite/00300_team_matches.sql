-- +goose Up
-- Team matches (団体戦, issue 25 item 3, docs/team-matches.md): team A
-- against team B at a table of a round, made by the director. Once both
-- orders are published the match is started: one 振り駒 (furigoma, the
-- record as JSON, tossed from seed) decides board 1 and the boards
-- alternate; each board with two players is an ordinary game (game_id),
-- an empty board has no game and is a forfeit for the side present. A
-- team short of a majority forfeits the whole match when the event says so
-- (forfeit_team_id). The match result is never stored: it is derived from
-- the boards' games. version is the optimistic lock.
CREATE TABLE team_matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        INTEGER NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    round_id        INTEGER NOT NULL REFERENCES team_rounds (id) ON DELETE RESTRICT,
    table_no        INTEGER NOT NULL CHECK (table_no >= 1),
    team_a_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
    team_b_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
    seed            TEXT NOT NULL,
    started         BOOLEAN NOT NULL DEFAULT FALSE,
    furigoma        TEXT NOT NULL DEFAULT '{}',
    forfeit_team_id INTEGER REFERENCES teams (id),
    version         INTEGER NOT NULL DEFAULT 1,
    created_at      DATETIME NOT NULL,
    updated_at      DATETIME NOT NULL,
    CHECK (team_a_id <> team_b_id),
    UNIQUE (round_id, table_no)
);
CREATE INDEX team_matches_event_idx ON team_matches (event_id, round_id);

-- The boards of a started match: the two players (NULL: the board is empty
-- in that team's order), a_sente (team A's player has sente) and the game
-- (NULL when a board is empty or the match is forfeited).
CREATE TABLE team_match_boards (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id    INTEGER NOT NULL REFERENCES team_matches (id) ON DELETE CASCADE,
    board       INTEGER NOT NULL CHECK (board >= 1),
    a_player_id INTEGER REFERENCES players (id),
    b_player_id INTEGER REFERENCES players (id),
    a_sente     BOOLEAN NOT NULL,
    game_id     INTEGER REFERENCES games (id) ON DELETE RESTRICT,
    UNIQUE (match_id, board),
    UNIQUE (game_id)
);

-- +goose Down
DROP TABLE team_match_boards;
DROP INDEX team_matches_event_idx;
DROP TABLE team_matches;
