-- +goose Up
-- Knockout stages of an event (一次予選 → 二次予選 → 本戦), in position order.
-- A stage holds its draw once made: the witnesses' seed (as decimal text:
-- it is a uint64), the draw date, and the slots as a JSON array of entrant
-- ids ("" for a bye). status: setup → drawn → published.
CREATE TABLE knockout_stages (
    id           BIGSERIAL PRIMARY KEY,
    event_id     BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 1),
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('first_preliminary', 'second_preliminary', 'main', 'series')),
    third_place  BOOLEAN NOT NULL DEFAULT FALSE,
    qualifiers   INTEGER NOT NULL DEFAULT 0 CHECK (qualifiers >= 0),
    best_of      INTEGER NOT NULL DEFAULT 0 CHECK (best_of >= 0),
    round_dates  TEXT NOT NULL DEFAULT '[]',
    allowance_minutes INTEGER NOT NULL DEFAULT 0 CHECK (allowance_minutes >= 0),
    status       TEXT NOT NULL DEFAULT 'setup' CHECK (status IN ('setup', 'drawn', 'published')),
    draw_seed    TEXT NOT NULL DEFAULT '',
    draw_date    TEXT NOT NULL DEFAULT '',
    method       TEXT NOT NULL DEFAULT '',
    slots        TEXT NOT NULL DEFAULT '[]',
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, position)
);

-- Entrants of a stage from the player registry: seed 0 is unseeded;
-- enter_round > 1 lets a seeded player start later (D-A1 draw, 001 第8条).
CREATE TABLE knockout_entrants (
    id          BIGSERIAL PRIMARY KEY,
    stage_id    BIGINT NOT NULL REFERENCES knockout_stages (id) ON DELETE CASCADE,
    player_id   BIGINT NOT NULL REFERENCES players (id),
    seed        INTEGER NOT NULL DEFAULT 0 CHECK (seed >= 0),
    enter_round INTEGER NOT NULL DEFAULT 1 CHECK (enter_round >= 1),
    withdrawn   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (stage_id, player_id)
);

-- The game behind each bracket game ("R1-G3", "3P", "S2"): the first game
-- of its redo chain, and the 振り駒 that chose sente (JSON, every piece).
CREATE TABLE knockout_games (
    id           BIGSERIAL PRIMARY KEY,
    stage_id     BIGINT NOT NULL REFERENCES knockout_stages (id) ON DELETE CASCADE,
    bracket_game TEXT NOT NULL,
    game_id      BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    sente_by     TEXT NOT NULL DEFAULT 'furigoma',
    furigoma     TEXT NOT NULL DEFAULT '{}',
    created_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (stage_id, bracket_game)
);

-- Append-only audit trail of a stage's draw: draws, swaps (with the rules
-- they broke and the override reason), publication, withdrawals.
CREATE TABLE knockout_draw_log (
    id         BIGSERIAL PRIMARY KEY,
    stage_id   BIGINT NOT NULL REFERENCES knockout_stages (id) ON DELETE CASCADE,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}',
    reason     TEXT NOT NULL DEFAULT '',
    actor_id   BIGINT NOT NULL REFERENCES users (id),
    at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX knockout_draw_log_stage_idx ON knockout_draw_log (stage_id);

-- +goose Down
DROP TABLE knockout_draw_log;
DROP TABLE knockout_games;
DROP TABLE knockout_entrants;
DROP TABLE knockout_stages;
