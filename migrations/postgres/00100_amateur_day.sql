-- +goose Up
-- The amateur tournament day (issue 14, docs/amateur-day.md). An event of
-- kind knockout becomes an amateur day (アマチュア大会) by a day_events row:
-- its classes (クラス別) run preliminaries (N勝通過M敗失格 or Swiss) whose
-- rounds create ordinary games of the event, and the class's final is a
-- knockout stage of the same event. (A new events.kind value would need the
-- events table rebuilt on SQLite, which cannot happen inside goose's
-- transaction with foreign keys on; see 00080.)
CREATE TABLE day_events (
    event_id   BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL
);

-- Classes of a day. settings is a validated JSON object (office/day
-- ClassSettings): format details, rank range, 手合割 policy, time control,
-- relation policies, withdrawal policy, qualifiers, Swiss tie-breaks and
-- the first board number.
CREATE TABLE day_classes (
    id         BIGSERIAL PRIMARY KEY,
    event_id   BIGINT NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    name_en    TEXT NOT NULL DEFAULT '',
    position   INTEGER NOT NULL DEFAULT 0,
    format     TEXT NOT NULL CHECK (format IN ('pools', 'swiss', 'knockout')),
    settings   TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, name)
);

-- Entrants of a day, one class each. checkin is the reception state;
-- class_by says whether the declared rank or the director chose the class.
CREATE TABLE day_entrants (
    id            BIGSERIAL PRIMARY KEY,
    event_id      BIGINT NOT NULL REFERENCES day_events (event_id) ON DELETE CASCADE,
    class_id      BIGINT NOT NULL REFERENCES day_classes (id) ON DELETE CASCADE,
    player_id     BIGINT NOT NULL REFERENCES players (id),
    declared_rank TEXT NOT NULL DEFAULT '',
    class_by      TEXT NOT NULL DEFAULT 'rank' CHECK (class_by IN ('rank', 'director')),
    walk_in       BOOLEAN NOT NULL DEFAULT FALSE,
    checkin       TEXT NOT NULL DEFAULT 'expected' CHECK (checkin IN ('expected', 'present', 'absent', 'late')),
    checkin_by    BIGINT REFERENCES users (id),
    checkin_at    TIMESTAMPTZ,
    withdrawn_by  BIGINT REFERENCES users (id),
    withdrawn_at  TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, player_id)
);
CREATE INDEX day_entrants_class_idx ON day_entrants (class_id);

-- Drawn rounds of a class: the seed (decimal uint64, so the draw can be
-- re-checked), the blocks of a blocks-mode preliminary (JSON, from round
-- 1), and the avoidances the draw could not keep (JSON). Append-only.
CREATE TABLE day_rounds (
    id        BIGSERIAL PRIMARY KEY,
    class_id  BIGINT NOT NULL REFERENCES day_classes (id) ON DELETE RESTRICT,
    number    INTEGER NOT NULL CHECK (number >= 1),
    seed      TEXT NOT NULL,
    blocks    TEXT NOT NULL DEFAULT '[]',
    not_kept  TEXT NOT NULL DEFAULT '[]',
    drawn_by  BIGINT NOT NULL REFERENCES users (id),
    drawn_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (class_id, number)
);

-- One board of a round (a game of the event) or one bye (不戦勝, no game).
-- Append-only.
CREATE TABLE day_pairings (
    id            BIGSERIAL PRIMARY KEY,
    round_id      BIGINT NOT NULL REFERENCES day_rounds (id) ON DELETE RESTRICT,
    board         INTEGER CHECK (board IS NULL OR board >= 1),
    game_id       BIGINT UNIQUE REFERENCES games (id),
    bye_player_id BIGINT REFERENCES players (id),
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
    id        BIGSERIAL PRIMARY KEY,
    event_id  BIGINT NOT NULL REFERENCES day_events (event_id) ON DELETE RESTRICT,
    class_id  BIGINT REFERENCES day_classes (id) ON DELETE RESTRICT,
    player_id BIGINT REFERENCES players (id),
    action    TEXT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}',
    actor_id  BIGINT NOT NULL REFERENCES users (id),
    at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX day_log_event_idx ON day_log (event_id);

CREATE TRIGGER day_rounds_no_update BEFORE UPDATE ON day_rounds FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_rounds_no_delete BEFORE DELETE ON day_rounds FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_rounds_no_truncate BEFORE TRUNCATE ON day_rounds FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER day_pairings_no_update BEFORE UPDATE ON day_pairings FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_pairings_no_delete BEFORE DELETE ON day_pairings FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_pairings_no_truncate BEFORE TRUNCATE ON day_pairings FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

CREATE TRIGGER day_log_no_update BEFORE UPDATE ON day_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_log_no_delete BEFORE DELETE ON day_log FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_log_no_truncate BEFORE TRUNCATE ON day_log FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- +goose Down
DROP TABLE day_log;
DROP TABLE day_pairings;
DROP TABLE day_rounds;
DROP TABLE day_entrants;
DROP TABLE day_classes;
DROP TABLE day_events;
