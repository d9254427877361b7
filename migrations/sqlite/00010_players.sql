-- +goose Up
-- The player registry (DOMAIN "People and roles"). Dates are calendar days
-- stored as YYYY-MM-DD text; search_key is computed in Go on every write
-- (NFKC, katakana folded to hiragana, lower case, no spaces).
CREATE TABLE players (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    number      TEXT UNIQUE,
    name        TEXT NOT NULL,
    reading     TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('professional', 'womens', 'shoreikai', 'amateur')),
    rank        TEXT NOT NULL DEFAULT '',
    class       TEXT NOT NULL DEFAULT '' CHECK (class IN ('', 'A', 'B1', 'B2', 'C1', 'C2', 'FREE')),
    affiliation TEXT NOT NULL DEFAULT '',
    birth_date  TEXT CHECK (birth_date IS NULL OR length(birth_date) = 10),
    search_key  TEXT NOT NULL,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL,
    CHECK (class = '' OR kind = 'professional')
);
CREATE INDEX players_reading ON players (reading, id);

-- +goose Down
DROP TABLE players;
