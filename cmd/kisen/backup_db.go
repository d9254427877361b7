package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"kisen/config"
	"kisen/store"
)

// fileArgs is "kisen backup|restore [flags] FILE": the file, --force, and
// the database settings (the flags of serve) in any order.
type fileArgs struct {
	file  string
	force bool
	cfg   config.Config
}

// parseFileArgs reads the arguments of backup and restore; code ≥ 0 means
// stop with that exit code (help, or bad input already reported).
func parseFileArgs(name string, e env, allowForce bool, usage string) (fileArgs, int) {
	var a fileArgs
	var flags, files []string
	for i := 0; i < len(e.args); i++ {
		arg := e.args[i]
		switch {
		case arg == "-h" || arg == "-help" || arg == "--help":
			fmt.Fprint(e.stdout, usage)
			_, _ = config.Load(name, []string{"-h"}, e.lookupEnv, e.stdout)
			return a, 0
		case allowForce && (arg == "--force" || arg == "-force" || arg == "--force=true" || arg == "-force=true"):
			a.force = true
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			flags = append(flags, arg)
			if !strings.Contains(arg, "=") && i+1 < len(e.args) {
				i++
				flags = append(flags, e.args[i])
			}
		default:
			files = append(files, arg)
		}
	}
	switch {
	case len(files) == 0:
		fmt.Fprintf(e.stderr, "kisen %s: missing FILE\n%s", name, usage)
		return a, 2
	case len(files) > 1:
		fmt.Fprintf(e.stderr, "kisen %s: one FILE only, got %q\n%s", name, files, usage)
		return a, 2
	}
	a.file = files[0]
	cfg, code := loadConfig(name, env{args: flags, stdin: e.stdin, stdout: e.stdout, stderr: e.stderr, getenv: e.getenv})
	if code >= 0 {
		return a, code
	}
	a.cfg = cfg
	return a, -1
}

// backupKind is what a backup file holds, told by its first bytes.
type backupKind string

const (
	kindSQLite backupKind = "SQLite"
	kindPgDump backupKind = "pg_dump"
)

// sqliteMagic opens every SQLite database file; pgDumpMagic every archive
// of pg_dump --format=custom.
var (
	sqliteMagic = []byte("SQLite format 3\x00")
	pgDumpMagic = []byte("PGDMP")
)

func sniffBackup(path string) (backupKind, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	head = head[:n]
	switch {
	case len(head) == len(sqliteMagic) && string(head) == string(sqliteMagic):
		return kindSQLite, nil
	case len(head) >= len(pgDumpMagic) && string(head[:len(pgDumpMagic)]) == string(pgDumpMagic):
		return kindPgDump, nil
	}
	return "", fmt.Errorf("%s is neither a SQLite backup nor a pg_dump custom-format archive", path)
}

// findTool locates a PostgreSQL client program: the setting (e.g.
// KISEN_PG_DUMP) when given, else the PATH of the environment.
func findTool(e env, name, setting string) (string, error) {
	if p := e.lookupEnv(setting); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("%s=%s is not an executable file", setting, p)
	}
	for _, dir := range filepath.SplitList(e.lookupEnv("PATH")) {
		if dir == "" {
			continue
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not installed (not on PATH, and %s is not set): install the PostgreSQL client "+
		"programs of the server's major version (Debian/Ubuntu: apt-get install postgresql-client)", name, setting)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// pgToolTarget splits a database URL for libpq's programs: the password
// goes into PGPASSWORD rather than onto the command line (where ps shows it).
func pgToolTarget(raw string) (dsn string, envs []string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, err
	}
	envs = os.Environ()
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			envs = append(envs, "PGPASSWORD="+pw)
			u.User = url.User(u.User.Username())
		}
	}
	return u.String(), envs, nil
}

// versionTable is goose's bookkeeping; every other table is Kisen's data.
const versionTable = "goose_db_version"

// dataTables lists the tables of the database (from its catalog, so new
// tables are covered without a list to maintain), sorted by name.
func dataTables(ctx context.Context, st *store.Store) ([]string, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`
	if st.Dialect() == store.Postgres {
		q = `SELECT table_name FROM information_schema.tables
		     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	rows, err := st.SQL().QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// firstFilledTable names a table that holds rows (goose's bookkeeping
// aside), or "" when the database holds no data.
func firstFilledTable(ctx context.Context, st *store.Store) (string, int64, error) {
	tables, err := dataTables(ctx, st)
	if err != nil {
		return "", 0, err
	}
	for _, t := range tables {
		if t == versionTable {
			continue
		}
		var n int64
		if err := st.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quoteIdent(t)).Scan(&n); err != nil {
			return "", 0, fmt.Errorf("count rows of %s: %w", t, err)
		}
		if n > 0 {
			return t, n, nil
		}
	}
	return "", 0, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
