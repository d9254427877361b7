-- +goose Up
-- Issue 15 part 4 (docs/api.md): a result confirmed through an API token
-- carries the token's name, as entered_via does on the version (00115).
ALTER TABLE game_result_confirmations ADD COLUMN confirmed_via TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE game_result_confirmations DROP COLUMN confirmed_via;
