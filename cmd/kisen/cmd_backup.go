package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"kisen/store"
)

const backupUsage = `usage: kisen backup [--force] [--data-dir DIR | --database-url URL] FILE

Writes a consistent copy of the database to FILE while the server may keep
running: SQLite through VACUUM INTO (a SQLite file), PostgreSQL through
pg_dump --format=custom (found on PATH, or set KISEN_PG_DUMP). FILE is
written under a temporary name and renamed when complete; an existing FILE
is replaced only with --force.

Exit codes: 0 written, 1 the database or the dump failed, 2 bad input
(FILE exists, folder missing, pg_dump not installed).
`

// runBackup: kisen backup [--force] [database flags] FILE.
func runBackup(ctx context.Context, e env) int {
	a, code := parseFileArgs("backup", e, true, backupUsage)
	if code >= 0 {
		return code
	}
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "kisen backup: "+format+"\n", args...)
		return code
	}
	if fi, err := os.Lstat(a.file); err == nil {
		if fi.IsDir() {
			return fail(2, "%s is a folder; name the backup file", a.file)
		}
		if !a.force {
			return fail(2, "%s already exists; choose another name or add --force to replace it", a.file)
		}
	}
	dir := filepath.Dir(a.file)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail(2, "folder %s does not exist", dir)
	}
	// The temporary file sits beside FILE, so the final rename is atomic.
	tmpFile, err := os.CreateTemp(dir, "."+filepath.Base(a.file)+".tmp-*")
	if err != nil {
		return fail(2, "cannot write in %s: %v", dir, err)
	}
	tmp := tmpFile.Name()
	_ = tmpFile.Close()
	_ = os.Remove(tmp) // VACUUM INTO wants a new file
	defer os.Remove(tmp)

	var kind backupKind
	if a.cfg.UsesPostgres() {
		kind = kindPgDump
		tool, err := findTool(e, "pg_dump", "KISEN_PG_DUMP")
		if err != nil {
			return fail(2, "%v", err)
		}
		dsn, envs, err := pgToolTarget(a.cfg.DatabaseURL)
		if err != nil {
			return fail(2, "database URL: %v", err)
		}
		cmd := exec.CommandContext(ctx, tool, "--format=custom", "--no-owner", "--no-privileges",
			"--file="+tmp, "--dbname="+dsn)
		cmd.Env = envs
		cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
		if err := cmd.Run(); err != nil {
			return fail(1, "pg_dump of %s failed: %v", store.Redact(a.cfg.DatabaseURL), err)
		}
	} else {
		kind = kindSQLite
		path := a.cfg.SQLitePath()
		if _, err := os.Stat(path); err != nil {
			return fail(1, "no SQLite database at %s (set --data-dir, or --database-url for PostgreSQL)", path)
		}
		st, err := store.Open(ctx, store.Options{SQLitePath: path})
		if err != nil {
			return fail(1, "%v", err)
		}
		// VACUUM INTO reads one snapshot: a consistent copy while the
		// server goes on writing (WAL).
		_, err = st.SQL().ExecContext(ctx, "VACUUM INTO ?", tmp)
		_ = st.Close()
		if err != nil {
			return fail(1, "copy %s: %v", path, err)
		}
	}
	if err := syncFile(tmp); err != nil {
		return fail(1, "flush %s: %v", tmp, err)
	}
	if a.force {
		err = os.Rename(tmp, a.file)
	} else {
		// A hard link never replaces a file that appeared meanwhile.
		if err = os.Link(tmp, a.file); errors.Is(err, fs.ErrExist) {
			return fail(2, "%s already exists; choose another name or add --force to replace it", a.file)
		}
	}
	if err != nil {
		return fail(1, "place %s: %v", a.file, err)
	}
	syncDir(dir)
	size := int64(0)
	if fi, err := os.Stat(a.file); err == nil {
		size = fi.Size()
	}
	fmt.Fprintf(e.stdout, "backup written: %s (%s, %d bytes)\n", a.file, kind, size)
	return 0
}
