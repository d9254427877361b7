-- +goose Up
-- The team Swiss draw and the organiser's scoring (団体戦, issue 25,
-- docs/team-matches.md "Drawing a round" and "Match points and
-- tie-breaks").
--
-- A round's bye (不戦勝 of a whole team, no match): at most one a round
-- and one a team in the event (the draw never gives a second). Written in
-- the transaction that writes the drawn round's matches.
CREATE TABLE team_round_byes (
    round_id   INTEGER PRIMARY KEY REFERENCES team_rounds (id) ON DELETE CASCADE,
    event_id   INTEGER NOT NULL REFERENCES team_events (event_id) ON DELETE CASCADE,
    team_id    INTEGER NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
    created_at DATETIME NOT NULL,
    UNIQUE (event_id, team_id)
);

-- The organiser's match points and tie-break order; no row means the
-- defaults (2/1/0, a bye 2, direct, weighted, captain, buchholz, sb, lot).
-- Points are stored in half points (win_halves 4 is 2 match points; 1 is
-- ½), so 1/0.5/0 is 2/1/0 here. tiebreaks: the chosen ids in order,
-- comma-separated ('' none). version is the form's optimistic lock.
CREATE TABLE team_event_scoring (
    event_id       INTEGER PRIMARY KEY REFERENCES team_events (event_id) ON DELETE CASCADE,
    win_halves     INTEGER NOT NULL CHECK (win_halves BETWEEN 1 AND 100),
    draw_halves    INTEGER NOT NULL CHECK (draw_halves BETWEEN 0 AND 100),
    loss_halves    INTEGER NOT NULL CHECK (loss_halves BETWEEN 0 AND 100),
    bye_halves     INTEGER NOT NULL CHECK (bye_halves BETWEEN 0 AND 100),
    bye_board_wins INTEGER NOT NULL DEFAULT 0 CHECK (bye_board_wins BETWEEN 0 AND 15),
    tiebreaks      TEXT NOT NULL,
    version        INTEGER NOT NULL DEFAULT 1,
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL,
    CHECK (win_halves >= draw_halves AND draw_halves >= loss_halves)
);

-- +goose Down
DROP TABLE team_event_scoring;
DROP TABLE team_round_byes;
