package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"kisen/migrations"
	"kisen/store"
)

const restoreUsage = `usage: kisen restore [--data-dir DIR | --database-url URL] FILE

Restores a backup written by 'kisen backup' into an EMPTY database (no
tables, or tables without rows, as after 'kisen migrate up'); a database
holding any data is never overwritten. Stop 'kisen serve' first. A SQLite
backup goes into the SQLite file under --data-dir; a pg_dump archive into
the PostgreSQL database of --database-url through pg_restore (found on PATH,
or set KISEN_PG_RESTORE). Migrations newer than the backup are applied after.

Exit codes: 0 restored, 1 the target holds data or the restore failed,
2 bad input (unknown file, a backup of the other database kind, pg_restore
not installed).
`

// runRestore: kisen restore [database flags] FILE.
func runRestore(ctx context.Context, e env) int {
	a, code := parseFileArgs("restore", e, false, restoreUsage)
	if code >= 0 {
		return code
	}
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "kisen restore: "+format+"\n", args...)
		return code
	}
	kind, err := sniffBackup(a.file)
	if err != nil {
		return fail(2, "%v", err)
	}
	switch {
	case kind == kindSQLite && a.cfg.UsesPostgres():
		return fail(2, "%s is a SQLite backup, but the configured database is PostgreSQL (%s); "+
			"restore it into SQLite (no --database-url; --data-dir names the folder)", a.file, store.Redact(a.cfg.DatabaseURL))
	case kind == kindPgDump && !a.cfg.UsesPostgres():
		return fail(2, "%s is a PostgreSQL backup (pg_dump), but the configured database is SQLite (%s); "+
			"restore it with --database-url postgres://… naming an empty database", a.file, a.cfg.SQLitePath())
	}
	if kind == kindSQLite {
		return restoreSQLite(ctx, e, a, fail)
	}
	return restorePostgres(ctx, e, a, fail)
}

type failFunc func(code int, format string, args ...any) int

// refuseFilled returns a message when st holds data, "" when it is empty.
func refuseFilled(ctx context.Context, st *store.Store, where string) (string, error) {
	t, n, err := firstFilledTable(ctx, st)
	if err != nil || t == "" {
		return "", err
	}
	return fmt.Sprintf("the database %s already holds data (table %s has %d rows); "+
		"restore only into an empty database — nothing was changed", where, t, n), nil
}

func restoreSQLite(ctx context.Context, e env, a fileArgs, fail failFunc) int {
	target := a.cfg.SQLitePath()
	if _, err := os.Stat(target); err == nil {
		st, err := store.Open(ctx, store.Options{SQLitePath: target})
		if err != nil {
			return fail(1, "%v", err)
		}
		msg, err := refuseFilled(ctx, st, target)
		_ = st.Close()
		if err != nil {
			return fail(1, "%v", err)
		}
		if msg != "" {
			return fail(1, "%s", msg)
		}
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(2, "create data folder %s: %v", dir, err)
	}
	// Check a copy beside the target, then rename it into place.
	tmp, err := copyToTemp(a.file, dir, ".kisen.db.restore-*")
	if err != nil {
		return fail(1, "copy %s: %v", a.file, err)
	}
	defer removeSQLite(tmp)
	if err := checkSQLiteBackup(ctx, tmp); err != nil {
		return fail(2, "%s: %v", a.file, err)
	}
	if err := syncFile(tmp); err != nil {
		return fail(1, "flush %s: %v", tmp, err)
	}
	// The target is empty (checked above); its WAL must go with it, or
	// SQLite would replay the old log onto the restored file.
	removeSQLite(target)
	if err := os.Rename(tmp, target); err != nil {
		return fail(1, "place %s: %v", target, err)
	}
	syncDir(dir)
	return finishRestore(ctx, e, a, target, fail)
}

// checkSQLiteBackup opens the copy: an intact Kisen database whose schema
// this binary knows. It leaves no WAL beside the file.
func checkSQLiteBackup(ctx context.Context, file string) error {
	st, err := store.Open(ctx, store.Options{SQLitePath: file})
	if err != nil {
		return err
	}
	defer st.Close()
	var ok string
	if err := st.SQL().QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		return fmt.Errorf("not an intact SQLite database (integrity check: %q %v)", ok, err)
	}
	var version int64
	if err := st.SQL().QueryRowContext(ctx, "SELECT MAX(version_id) FROM "+versionTable).Scan(&version); err != nil {
		return fmt.Errorf("not a Kisen database (no migration table): %w", err)
	}
	if latest := latestMigration(string(store.SQLite)); version > latest {
		return fmt.Errorf("written by a newer Kisen (migration %d; this build knows up to %d)", version, latest)
	}
	_, err = st.SQL().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// latestMigration is the highest migration version embedded in this build.
func latestMigration(dialect string) int64 {
	fsys, err := migrations.FS(dialect)
	if err != nil {
		return 0
	}
	var latest int64
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		num, _, _ := strings.Cut(path.Base(p), "_")
		if v, err := strconv.ParseInt(num, 10, 64); err == nil && v > latest {
			latest = v
		}
		return nil
	})
	return latest
}

func copyToTemp(src, dir, pattern string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		_ = os.Remove(out.Name())
		return "", err
	}
	return out.Name(), out.Close()
}

// removeSQLite deletes a database file with its WAL and shared-memory files.
func removeSQLite(file string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(file + suffix)
	}
}

func restorePostgres(ctx context.Context, e env, a fileArgs, fail failFunc) int {
	tool, err := findTool(e, "pg_restore", "KISEN_PG_RESTORE")
	if err != nil {
		return fail(2, "%v", err)
	}
	where := store.Redact(a.cfg.DatabaseURL)
	st, err := store.Open(ctx, store.Options{URL: a.cfg.DatabaseURL})
	if err != nil {
		return fail(1, "%v (the target database must exist: create an empty one first, e.g. createdb)", err)
	}
	msg, err := refuseFilled(ctx, st, where)
	if err == nil && msg == "" {
		err = dropEmptyTables(ctx, st)
	}
	_ = st.Close()
	if err != nil {
		return fail(1, "%v", err)
	}
	if msg != "" {
		return fail(1, "%s", msg)
	}
	dsn, envs, err := pgToolTarget(a.cfg.DatabaseURL)
	if err != nil {
		return fail(2, "database URL: %v", err)
	}
	cmd := exec.CommandContext(ctx, tool, "--dbname="+dsn, "--no-owner", "--no-privileges",
		"--exit-on-error", "--single-transaction", a.file)
	cmd.Env = envs
	cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
	if err := cmd.Run(); err != nil {
		return fail(1, "pg_restore into %s failed (nothing was restored: one transaction): %v", where, err)
	}
	return finishRestore(ctx, e, a, where, fail)
}

// dropEmptyTables removes the tables of an empty, already migrated database
// (checked by the caller) so pg_restore can create them as the backup has
// them.
func dropEmptyTables(ctx context.Context, st *store.Store) error {
	tables, err := dataTables(ctx, st)
	if err != nil || len(tables) == 0 {
		return err
	}
	quoted := make([]string, len(tables))
	for i, t := range tables {
		quoted[i] = quoteIdent(t)
	}
	_, err = st.SQL().ExecContext(ctx, "DROP TABLE IF EXISTS "+strings.Join(quoted, ", ")+" CASCADE")
	if err != nil {
		return fmt.Errorf("clear the empty tables before restoring: %w", err)
	}
	// The migrations' trigger functions (append-only, 00080) come back
	// with the backup too.
	rows, err := st.SQL().QueryContext(ctx, `SELECT p.oid::regprocedure::text FROM pg_proc p
		JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = current_schema() AND p.proname LIKE 'kisen\_%'`)
	if err != nil {
		return fmt.Errorf("list the trigger functions before restoring: %w", err)
	}
	var funcs []string
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			_ = rows.Close()
			return err
		}
		funcs = append(funcs, f)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if len(funcs) > 0 {
		if _, err := st.SQL().ExecContext(ctx, "DROP FUNCTION IF EXISTS "+strings.Join(funcs, ", ")+" CASCADE"); err != nil {
			return fmt.Errorf("clear the trigger functions before restoring: %w", err)
		}
	}
	return nil
}

// finishRestore applies migrations newer than the backup and reports.
func finishRestore(ctx context.Context, e env, a fileArgs, where string, fail failFunc) int {
	st, err := openStore(ctx, a.cfg)
	if err != nil {
		return fail(1, "restored, but migrating %s failed: %v", where, err)
	}
	defer st.Close()
	tables, err := dataTables(ctx, st)
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(e.stdout, "restored %s into %s (%d tables)\n", a.file, where, len(tables))
	return 0
}
