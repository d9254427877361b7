-- +goose Up
-- Issue 15 part 1 (docs/live.md). PostgreSQL raises NOTIFY from the
-- revision rows of 00097 here; SQLite has no such channel and serves one
-- process, which reads event_changes itself (store/changes.go), so this
-- version changes nothing on SQLite and exists to keep the two folders in
-- step.
SELECT 1;

-- +goose Down
SELECT 1;
