package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/pressly/goose/v3"
)

// Loss is one thing rolling a migration back would remove from the
// history: a table, a column of one, or a trigger that protects one, with
// how many rows the table holds now.
type Loss struct {
	Version int64  // the migration whose down step does it
	Table   string // the history table it touches
	What    string // "table games", "column game_result_confirmations.confirmed_via", "trigger games_no_update_decided"
	Rows    int64
}

func (l Loss) String() string {
	return fmt.Sprintf("%s (%d rows in %s)", l.What, l.Rows, l.Table)
}

var (
	reDropTable   = regexp.MustCompile(`(?is)^\s*DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?([a-z0-9_]+)"?`)
	reAlterTable  = regexp.MustCompile(`(?is)^\s*ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?"?([a-z0-9_]+)"?(.*)$`)
	reDropColumn  = regexp.MustCompile(`(?is)\bDROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?"?([a-z0-9_]+)"?`)
	reDropTrigger = regexp.MustCompile(`(?is)^\s*DROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?"?([a-z0-9_]+)"?(?:\s+ON\s+"?([a-z0-9_]+)"?)?`)
	reComment     = regexp.MustCompile(`(?m)--.*$`)
)

// DownLosses tells what rolling back the latest applied migration would
// remove from the history: the down step's DROP TABLE, ALTER TABLE … DROP
// COLUMN and DROP TRIGGER statements (of the protecting triggers, named
// <table>_no_…) that touch one of the history tables
// (store.HistoryTables: the append-only tables and the parents they hang
// from) while that table holds rows. An empty database, or a down step
// that touches no history, loses nothing. It reads the down step as text,
// so it errs on the side of refusing: a SQLite table rebuild that copies
// the rows back counts as a loss too.
func DownLosses(ctx context.Context, db *sql.DB, dialect string, history []string) ([]Loss, error) {
	p, err := provider(db, dialect)
	if err != nil {
		return nil, err
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate down: %w", err)
	}
	if v == 0 {
		return nil, nil
	}
	down, err := downSQL(dialect, v)
	if err != nil {
		return nil, err
	}
	var out []Loss
	add := func(table, what string) error {
		if !slices.Contains(history, table) {
			return nil
		}
		var n int64
		// The table name comes from our own migration text and is one of
		// history's names, never from input.
		err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n)
		if err != nil {
			return nil // the table is gone already (an earlier statement of the same step): nothing held
		}
		if n > 0 {
			out = append(out, Loss{Version: v, Table: table, What: what, Rows: n})
		}
		return nil
	}
	for _, stmt := range strings.Split(reComment.ReplaceAllString(down, ""), ";") {
		if m := reDropTable.FindStringSubmatch(stmt); m != nil {
			if err := add(m[1], "table "+m[1]); err != nil {
				return nil, err
			}
			continue
		}
		if m := reDropTrigger.FindStringSubmatch(stmt); m != nil {
			if !strings.Contains(m[1], "_no_") {
				continue // revision and notify triggers (00097, 00120…) guard nothing
			}
			table := m[2]
			if table == "" {
				table = triggerTable(ctx, db, dialect, m[1])
			}
			if err := add(table, "trigger "+m[1]); err != nil {
				return nil, err
			}
			continue
		}
		if m := reAlterTable.FindStringSubmatch(stmt); m != nil {
			for _, c := range reDropColumn.FindAllStringSubmatch(m[2], -1) {
				if strings.EqualFold(c[1], "constraint") || strings.EqualFold(c[1], "default") || strings.EqualFold(c[1], "not") {
					continue // DROP CONSTRAINT / DEFAULT / NOT NULL: no data goes
				}
				if err := add(m[1], "column "+m[1]+"."+c[1]); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// triggerTable is the table a SQLite trigger is on (PostgreSQL's DROP
// TRIGGER names it).
func triggerTable(ctx context.Context, db *sql.DB, dialect, trigger string) string {
	var t string
	if dialect == "sqlite" {
		_ = db.QueryRowContext(ctx, "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name = ?", trigger).Scan(&t)
	}
	return t
}

// downSQL is the down step of one migration version.
func downSQL(dialect string, v int64) (string, error) {
	fsys, err := FS(dialect)
	if err != nil {
		return "", err
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return "", err
	}
	for _, n := range names {
		if nv, err := goose.NumericComponent(n); err == nil && nv == v {
			b, err := fs.ReadFile(fsys, n)
			if err != nil {
				return "", err
			}
			_, down, ok := strings.Cut(string(b), "-- +goose Down")
			if !ok {
				return "", nil
			}
			return down, nil
		}
	}
	return "", fmt.Errorf("migration %05d: no file for it in %s", v, dialect)
}
