-- +goose Up
-- An appeal's decision may order the game replayed (指し直し, issue 24,
-- docs/appeals.md, 000 第10条第8項): the replacement may be 'redo'.
ALTER TABLE appeal_decisions DROP CONSTRAINT appeal_decisions_replacement_check;
ALTER TABLE appeal_decisions ADD CONSTRAINT appeal_decisions_replacement_check
    CHECK (replacement IN ('', 'sente_win', 'gote_win', 'both_lose', 'redo'));

-- +goose Down
ALTER TABLE appeal_decisions DROP CONSTRAINT appeal_decisions_replacement_check;
ALTER TABLE appeal_decisions ADD CONSTRAINT appeal_decisions_replacement_check
    CHECK (replacement IN ('', 'sente_win', 'gote_win', 'both_lose'));
