-- +goose Up
-- The final knockout (決勝トーナメント) of a day's class (issue 14 part 4,
-- docs/final-knockout.md): the knockout stage of the event built from the
-- class's finished preliminary, the placement's seed, the qualifiers in
-- the order they entered (JSON) and the relations and block pairs the
-- placement could not keep apart (JSON), and the placement's whole request
-- (JSON of pairing.FinalRequest), so a swap on the stage page is judged by
-- the final's rules too. A class has one final; the row is
-- the record of how it was built, so it is append-only.
CREATE TABLE day_finals (
    id          BIGSERIAL PRIMARY KEY,
    class_id    BIGINT NOT NULL UNIQUE REFERENCES day_classes (id),
    stage_id    BIGINT NOT NULL UNIQUE REFERENCES knockout_stages (id),
    seed        TEXT NOT NULL,
    qualifiers  TEXT NOT NULL DEFAULT '[]',
    not_kept    TEXT NOT NULL DEFAULT '[]',
    together    TEXT NOT NULL DEFAULT '[]',
    request     TEXT NOT NULL DEFAULT '{}',
    built_by    BIGINT NOT NULL REFERENCES users (id),
    built_at    TIMESTAMPTZ NOT NULL
);

CREATE TRIGGER day_finals_no_update BEFORE UPDATE ON day_finals FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_finals_no_delete BEFORE DELETE ON day_finals FOR EACH ROW EXECUTE FUNCTION kisen_append_only();
CREATE TRIGGER day_finals_no_truncate BEFORE TRUNCATE ON day_finals FOR EACH STATEMENT EXECUTE FUNCTION kisen_append_only();

-- +goose Down
DROP TABLE day_finals;
