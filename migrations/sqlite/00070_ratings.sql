-- +goose Up
-- Ratings are derived data: every row here is rebuilt from games, their
-- effective confirmed results and the rating settings (app_settings key
-- "rating.settings") by one recompute. Nothing else writes them.

-- One row per player on the roster after the latest recompute.
CREATE TABLE player_ratings (
    player_id   INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    rating      REAL NOT NULL,
    rd          REAL NOT NULL DEFAULT 0,
    volatility  REAL NOT NULL DEFAULT 0,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    last_played DATETIME
);
CREATE INDEX player_ratings_rating_idx ON player_ratings (rating);

-- One row per rated game and player, oldest first (seq), for charts.
CREATE TABLE rating_history (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id       INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    opponent_id     INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    played_at       DATETIME NOT NULL,
    period          TEXT NOT NULL DEFAULT '',
    sente           BOOLEAN NOT NULL,
    won             BOOLEAN NOT NULL,
    rating_before   REAL NOT NULL,
    rating_after    REAL NOT NULL,
    opponent_before REAL NOT NULL,
    rd_before       REAL NOT NULL DEFAULT 0,
    rd_after        REAL NOT NULL DEFAULT 0,
    UNIQUE (player_id, seq)
);
CREATE INDEX rating_history_game_idx ON rating_history (game_id);

-- The single row that says what the stored ratings were computed from
-- (fingerprint of the inputs) and what the recompute found.
CREATE TABLE rating_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT NOT NULL,
    summary     TEXT NOT NULL DEFAULT '{}',
    computed_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE rating_state;
DROP TABLE rating_history;
DROP TABLE player_ratings;
