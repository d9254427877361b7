-- +goose Up
-- Games of an event. Players may be unknown yet (a bracket slot waiting for
-- an earlier winner). A redo game (指し直し, D-R1) points at the game it
-- replays; redo_number counts the redos in the chain (0 = the original).
CREATE TABLE games (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id           INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    label              TEXT NOT NULL DEFAULT '',
    sente_player_id    INTEGER REFERENCES players (id),
    gote_player_id     INTEGER REFERENCES players (id),
    handicap           TEXT NOT NULL DEFAULT '平手',
    scheduled_on       TEXT CHECK (scheduled_on IS NULL OR length(scheduled_on) = 10),
    sente_allowance_s  INTEGER NOT NULL DEFAULT 0 CHECK (sente_allowance_s >= 0),
    gote_allowance_s   INTEGER NOT NULL DEFAULT 0 CHECK (gote_allowance_s >= 0),
    redo_of_id         INTEGER REFERENCES games (id),
    redo_number        INTEGER NOT NULL DEFAULT 0 CHECK (redo_number >= 0),
    started_at         DATETIME,
    created_at         DATETIME NOT NULL,
    updated_at         DATETIME NOT NULL,
    CHECK (sente_player_id IS NULL OR gote_player_id IS NULL OR sente_player_id <> gote_player_id),
    CHECK ((redo_of_id IS NULL) = (redo_number = 0))
);
CREATE INDEX games_event_idx ON games (event_id);
CREATE INDEX games_redo_of_idx ON games (redo_of_id);
CREATE INDEX games_sente_idx ON games (sente_player_id);
CREATE INDEX games_gote_idx ON games (gote_player_id);

-- Result versions, append-only: a correction is a new version. The latest
-- confirmed version counts.
CREATE TABLE game_results (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 1),
    result     TEXT NOT NULL CHECK (result IN ('sente_win', 'gote_win', 'redo', 'both_lose', 'pending')),
    reason     TEXT NOT NULL,
    outcome    TEXT NOT NULL DEFAULT '{}',
    note       TEXT NOT NULL DEFAULT '',
    entered_by INTEGER NOT NULL REFERENCES users (id),
    entered_at DATETIME NOT NULL,
    UNIQUE (game_id, version)
);

-- Confirmations of result versions, append-only as well.
CREATE TABLE game_result_confirmations (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    game_result_id INTEGER NOT NULL UNIQUE REFERENCES game_results (id) ON DELETE CASCADE,
    confirmed_by   INTEGER NOT NULL REFERENCES users (id),
    confirmed_at   DATETIME NOT NULL
);

-- +goose Down
DROP TABLE game_result_confirmations;
DROP TABLE game_results;
DROP TABLE games;
