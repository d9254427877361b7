-- +goose Up
-- Issue 12 part 5 (docs/caching.md): one revision per event that every
-- write to anything its public pages show raises, kept by triggers, so
-- each `kisen serve` process sharing the database answers a conditional
-- GET from one row, without memory of its own. registry_changes is the
-- same for the registry shown on every event page (players, their 師匠
-- and 肉親, organisers, user names): one row, revision 0 until a change.
--
-- Each table that reaches an event names the way: its own event_id, or
-- game_id / game_result_id / stage_id / class_id through the parent row.
-- Append-only tables (00080, 00095) refuse UPDATE and DELETE, so they
-- need INSERT only. A row deleted together with its event (ON DELETE
-- CASCADE) finds no event and bumps nothing: event_changes goes with it.
-- Trigger names are <table>_changed_<insert|update|delete> in both
-- dialects (store.RevisionTables; the parity test compares them).
-- SQLite writes changed_at as UTC text with milliseconds, one format, so
-- text order is time order.

CREATE TABLE event_changes (
    event_id   INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL CHECK (revision >= 1),
    changed_at DATETIME NOT NULL
);

CREATE TABLE registry_changes (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    revision   INTEGER NOT NULL CHECK (revision >= 1),
    changed_at DATETIME NOT NULL
);

INSERT INTO event_changes (event_id, revision, changed_at) SELECT id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events;

-- +goose StatementBegin
CREATE TRIGGER events_changed_insert AFTER INSERT ON events BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER events_changed_update AFTER UPDATE ON events BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_status_changes_changed_insert AFTER INSERT ON event_status_changes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_status_changes_changed_update AFTER UPDATE ON event_status_changes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_status_changes_changed_delete AFTER DELETE ON event_status_changes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_roles_changed_insert AFTER INSERT ON event_roles BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_roles_changed_update AFTER UPDATE ON event_roles BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_roles_changed_delete AFTER DELETE ON event_roles BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_unlocks_changed_insert AFTER INSERT ON event_settings_unlocks BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER event_settings_changes_changed_insert AFTER INSERT ON event_settings_changes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER corrections_changed_insert AFTER INSERT ON corrections BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_changed_insert AFTER INSERT ON games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_changed_update AFTER UPDATE ON games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_changed_delete AFTER DELETE ON games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_results_changed_insert AFTER INSERT ON game_results BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_result_confirmations_changed_insert AFTER INSERT ON game_result_confirmations BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM game_results r JOIN games g ON g.id = r.game_id JOIN events e ON e.id = g.event_id
    WHERE r.id = NEW.game_result_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_records_changed_insert AFTER INSERT ON game_records BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_adjudications_changed_insert AFTER INSERT ON game_adjudications BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER rulings_changed_insert AFTER INSERT ON rulings BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER game_voids_changed_insert AFTER INSERT ON game_voids BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT g.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = NEW.game_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_stages_changed_insert AFTER INSERT ON knockout_stages BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_stages_changed_update AFTER UPDATE ON knockout_stages BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_stages_changed_delete AFTER DELETE ON knockout_stages BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_entrants_changed_insert AFTER INSERT ON knockout_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = NEW.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_entrants_changed_update AFTER UPDATE ON knockout_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = NEW.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_entrants_changed_delete AFTER DELETE ON knockout_entrants BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = OLD.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_games_changed_insert AFTER INSERT ON knockout_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = NEW.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_games_changed_update AFTER UPDATE ON knockout_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = NEW.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_games_changed_delete AFTER DELETE ON knockout_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = OLD.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER knockout_draw_log_changed_insert AFTER INSERT ON knockout_draw_log BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT s.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM knockout_stages s JOIN events e ON e.id = s.event_id WHERE s.id = NEW.stage_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_classes_changed_insert AFTER INSERT ON league_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_classes_changed_update AFTER UPDATE ON league_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_classes_changed_delete AFTER DELETE ON league_classes BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_members_changed_insert AFTER INSERT ON league_members BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_members_changed_update AFTER UPDATE ON league_members BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_members_changed_delete AFTER DELETE ON league_members BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = OLD.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_history_changed_insert AFTER INSERT ON league_history BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_history_changed_update AFTER UPDATE ON league_history BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = NEW.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_history_changed_delete AFTER DELETE ON league_history BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT e.id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM events e WHERE e.id = OLD.event_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_games_changed_insert AFTER INSERT ON league_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_games_changed_update AFTER UPDATE ON league_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_games_changed_delete AFTER DELETE ON league_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = OLD.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_playoff_games_changed_insert AFTER INSERT ON league_playoff_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_playoff_games_changed_update AFTER UPDATE ON league_playoff_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_playoff_games_changed_delete AFTER DELETE ON league_playoff_games BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = OLD.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER league_schedule_log_changed_insert AFTER INSERT ON league_schedule_log BEGIN
INSERT INTO event_changes (event_id, revision, changed_at)
    SELECT c.event_id, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM league_classes c JOIN events e ON e.id = c.event_id WHERE c.id = NEW.class_id
    ON CONFLICT (event_id) DO UPDATE SET revision = event_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER organisers_changed_insert AFTER INSERT ON organisers BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER organisers_changed_update AFTER UPDATE ON organisers BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER organisers_changed_delete AFTER DELETE ON organisers BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_changed_insert AFTER INSERT ON players BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_changed_update AFTER UPDATE ON players BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_changed_delete AFTER DELETE ON players BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_masters_changed_insert AFTER INSERT ON player_masters BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_masters_changed_update AFTER UPDATE ON player_masters BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_masters_changed_delete AFTER DELETE ON player_masters BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_relatives_changed_insert AFTER INSERT ON player_relatives BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_relatives_changed_update AFTER UPDATE ON player_relatives BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER player_relatives_changed_delete AFTER DELETE ON player_relatives BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER users_changed_update AFTER UPDATE OF login, display_name ON users BEGIN
INSERT INTO registry_changes (id, revision, changed_at) VALUES (1, 1, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (id) DO UPDATE SET revision = registry_changes.revision + 1, changed_at = excluded.changed_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER users_changed_update;
DROP TRIGGER player_relatives_changed_delete;
DROP TRIGGER player_relatives_changed_update;
DROP TRIGGER player_relatives_changed_insert;
DROP TRIGGER player_masters_changed_delete;
DROP TRIGGER player_masters_changed_update;
DROP TRIGGER player_masters_changed_insert;
DROP TRIGGER players_changed_delete;
DROP TRIGGER players_changed_update;
DROP TRIGGER players_changed_insert;
DROP TRIGGER organisers_changed_delete;
DROP TRIGGER organisers_changed_update;
DROP TRIGGER organisers_changed_insert;
DROP TRIGGER league_schedule_log_changed_insert;
DROP TRIGGER league_playoff_games_changed_delete;
DROP TRIGGER league_playoff_games_changed_update;
DROP TRIGGER league_playoff_games_changed_insert;
DROP TRIGGER league_games_changed_delete;
DROP TRIGGER league_games_changed_update;
DROP TRIGGER league_games_changed_insert;
DROP TRIGGER league_history_changed_delete;
DROP TRIGGER league_history_changed_update;
DROP TRIGGER league_history_changed_insert;
DROP TRIGGER league_members_changed_delete;
DROP TRIGGER league_members_changed_update;
DROP TRIGGER league_members_changed_insert;
DROP TRIGGER league_classes_changed_delete;
DROP TRIGGER league_classes_changed_update;
DROP TRIGGER league_classes_changed_insert;
DROP TRIGGER knockout_draw_log_changed_insert;
DROP TRIGGER knockout_games_changed_delete;
DROP TRIGGER knockout_games_changed_update;
DROP TRIGGER knockout_games_changed_insert;
DROP TRIGGER knockout_entrants_changed_delete;
DROP TRIGGER knockout_entrants_changed_update;
DROP TRIGGER knockout_entrants_changed_insert;
DROP TRIGGER knockout_stages_changed_delete;
DROP TRIGGER knockout_stages_changed_update;
DROP TRIGGER knockout_stages_changed_insert;
DROP TRIGGER game_voids_changed_insert;
DROP TRIGGER rulings_changed_insert;
DROP TRIGGER game_adjudications_changed_insert;
DROP TRIGGER game_records_changed_insert;
DROP TRIGGER game_result_confirmations_changed_insert;
DROP TRIGGER game_results_changed_insert;
DROP TRIGGER games_changed_delete;
DROP TRIGGER games_changed_update;
DROP TRIGGER games_changed_insert;
DROP TRIGGER corrections_changed_insert;
DROP TRIGGER event_settings_changes_changed_insert;
DROP TRIGGER event_settings_unlocks_changed_insert;
DROP TRIGGER event_roles_changed_delete;
DROP TRIGGER event_roles_changed_update;
DROP TRIGGER event_roles_changed_insert;
DROP TRIGGER event_status_changes_changed_delete;
DROP TRIGGER event_status_changes_changed_update;
DROP TRIGGER event_status_changes_changed_insert;
DROP TRIGGER events_changed_update;
DROP TRIGGER events_changed_insert;
DROP TABLE registry_changes;
DROP TABLE event_changes;
