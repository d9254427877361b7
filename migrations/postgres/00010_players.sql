-- +goose Up
-- The player registry (DOMAIN "People and roles"). search_key is computed in
-- Go on every write (NFKC, katakana folded to hiragana, lower case, no
-- spaces). reading uses the C collation so both databases sort by code
-- point, which for hiragana is gojūon order.
CREATE TABLE players (
    id          BIGSERIAL PRIMARY KEY,
    number      TEXT UNIQUE,
    name        TEXT NOT NULL,
    reading     TEXT COLLATE "C" NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('professional', 'womens', 'shoreikai', 'amateur')),
    rank        TEXT NOT NULL DEFAULT '',
    class       TEXT NOT NULL DEFAULT '' CHECK (class IN ('', 'A', 'B1', 'B2', 'C1', 'C2', 'FREE')),
    affiliation TEXT NOT NULL DEFAULT '',
    birth_date  DATE,
    search_key  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    CHECK (class = '' OR kind = 'professional')
);
CREATE INDEX players_reading ON players (reading, id);

-- +goose Down
DROP TABLE players;
