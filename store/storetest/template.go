package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"kisen/migrations"
	"kisen/store"
)

// migrationsKey names one set of migration files: a hash of every file of
// both dialects, names and contents. A template built from other files
// (another branch, an edited migration) has another name and is never
// reused by mistake.
var migrationsKey = sync.OnceValues(func() (string, error) {
	h := sha256.New()
	for _, dialect := range []string{"sqlite", "postgres"} {
		fsys, err := migrations.FS(dialect)
		if err != nil {
			return "", err
		}
		var names []string
		if err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				names = append(names, p)
			}
			return err
		}); err != nil {
			return "", err
		}
		sort.Strings(names)
		for _, n := range names {
			b, err := fs.ReadFile(fsys, n)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s %d\n", dialect, n, len(b))
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
})

// sqliteTemplate is the path of the migrated SQLite template of this
// process's migrations, built once. It lives in the system's temporary
// folder under the migrations' key, so the test binaries of one run (and
// of the next run with the same migrations) share it; it is built under a
// temporary name and renamed into place, so a reader never sees half of it.
var sqliteTemplate = sync.OnceValues(func() (string, error) {
	key, err := migrationsKey()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(os.TempDir(), "kisen-storetest")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "sqlite-"+key+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	build, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(build)
	tmp := filepath.Join(build, "template.db")
	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{SQLitePath: tmp})
	if err != nil {
		return "", err
	}
	if err := migrations.Up(ctx, s.SQL(), string(s.Dialect())); err != nil {
		_ = s.Close()
		return "", err
	}
	// One file, no write-ahead log beside it: the copy is the database.
	if _, err := s.SQL().ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		_ = s.Close()
		return "", err
	}
	if err := s.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
})

// copySQLiteTemplate writes a copy of the migrated template to path.
func copySQLiteTemplate(t testing.TB, path string) {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("SQLite template database: %v", err)
	}
	if err := copyFile(tmpl, path); err != nil {
		t.Fatalf("copy SQLite template database: %v", err)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// adminDB is one pool per admin URL for the whole test process (creating
// and dropping test databases), so parallel tests do not each hold their
// own admin connections.
var (
	adminMu  sync.Mutex
	adminDBs = map[string]*sql.DB{}
)

func adminDB(url string) (*sql.DB, error) {
	adminMu.Lock()
	defer adminMu.Unlock()
	if db, ok := adminDBs[url]; ok {
		return db, nil
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(2)
	db.SetMaxOpenConns(4) // CREATE and DROP DATABASE, one short statement each
	adminDBs[url] = db
	return db, nil
}

// postgresTemplates remembers the template database built or found per
// admin URL in this process.
var (
	pgTmplMu sync.Mutex
	pgTmpls  = map[string]string{}
)

// postgresTemplate returns the name of the migrated template database of
// this process's migrations on the server adm talks to, building it once.
// Several test binaries run at once, so the check and the build happen
// under an advisory lock held on one connection; the template is migrated
// under a temporary name and renamed when complete, so a killed run leaves
// no template that looks whole. Nothing stays connected to it afterwards
// (CREATE DATABASE … TEMPLATE needs that).
func postgresTemplate(ctx context.Context, adm *sql.DB, admin string) (string, error) {
	pgTmplMu.Lock()
	defer pgTmplMu.Unlock()
	if name, ok := pgTmpls[admin]; ok {
		return name, nil
	}
	key, err := migrationsKey()
	if err != nil {
		return "", err
	}
	name := "kisen_tmpl_" + key
	conn, err := adm.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	lock := int64(binary.BigEndian.Uint64([]byte(key[:8]))) // any stable number of the key
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lock); err != nil {
		return "", err
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", lock) }()
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if err := buildPostgresTemplate(ctx, conn, admin, name); err != nil {
			return "", err
		}
	}
	pgTmpls[admin] = name
	return name, nil
}

func buildPostgresTemplate(ctx context.Context, conn *sql.Conn, admin, name string) error {
	build := name + "_build_" + randomHex(4)
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+build); err != nil {
		return err
	}
	drop := func() {
		_, _ = conn.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+build+" WITH (FORCE)")
	}
	u, err := urlWithDatabase(admin, build)
	if err != nil {
		drop()
		return err
	}
	s, err := store.Open(ctx, store.Options{URL: u})
	if err != nil {
		drop()
		return err
	}
	err = migrations.Up(ctx, s.SQL(), string(s.Dialect()))
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		drop()
		return err
	}
	// A closed client's server process may linger a moment; renaming
	// needs the database to itself.
	if _, err := conn.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", build); err != nil {
		drop()
		return err
	}
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+build+" RENAME TO "+name); err != nil {
		drop()
		return errors.Join(errors.New("rename the built template"), err)
	}
	return nil
}

// urlWithDatabase is the admin URL pointed at another database.
func urlWithDatabase(admin, name string) (string, error) {
	u, err := url.Parse(admin)
	if err != nil {
		return "", fmt.Errorf("KISEN_TEST_DATABASE_URL: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}
