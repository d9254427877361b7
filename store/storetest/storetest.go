// Package storetest gives each test its own freshly migrated database:
// always SQLite, and PostgreSQL too when KISEN_TEST_DATABASE_URL is set.
// With KISEN_TEST_POSTGRES=required a missing or unreachable PostgreSQL
// fails the test instead of skipping it (CI sets both).
//
// Migrating costs ~0.1 s on SQLite and ~0.4 s on PostgreSQL, but ~2.4 s
// and ~0.8 s under -race (the pure-Go SQLite is slow under the race
// detector), and hundreds of tests ask for a database. So the migrations
// run once per set of migration files (template.go): each SQLite test
// database is a byte copy of a migrated template file, each PostgreSQL one
// is made by CREATE DATABASE … TEMPLATE from a migrated template database.
// The migration tests roll a copy all the way down and up again, so they
// still run every step.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // driver for the admin connection

	"kisen/store"
)

// Each runs fn as a subtest per database ("sqlite", "postgres").
func Each(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// EachParallel is Each with the two subtests run in parallel (t.Parallel):
// for a long test whose fn shares nothing between the databases, so that
// the package does not wait for one database after the other.
func EachParallel(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, Postgres(t)) })
}

// Dialects runs fn as a subtest per database and hands it the options to
// open that database (for tests that start a whole server or process).
func Dialects(t *testing.T, fn func(t *testing.T, o store.Options)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteOptions(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, PostgresOptions(t)) })
}

// SQLiteOptions points at a new migrated SQLite file in the test's folder
// (a copy of the migrated template).
func SQLiteOptions(t testing.TB) store.Options {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kisen.db")
	copySQLiteTemplate(t, path)
	return store.Options{SQLitePath: path}
}

// SQLite opens a new migrated SQLite database in the test's folder.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), SQLiteOptions(t))
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// PostgresOptions creates a new migrated PostgreSQL database for the test
// (a copy of the migrated template database, dropped at cleanup) and
// returns the options to open it.
func PostgresOptions(t testing.TB) store.Options {
	t.Helper()
	return postgresDatabase(t)
}

func postgresDatabase(t testing.TB) store.Options {
	t.Helper()
	admin := os.Getenv("KISEN_TEST_DATABASE_URL")
	required := os.Getenv("KISEN_TEST_POSTGRES") == "required"
	if admin == "" {
		if required {
			t.Fatal("KISEN_TEST_POSTGRES=required but KISEN_TEST_DATABASE_URL is not set")
		}
		t.Skip("PostgreSQL not configured (set KISEN_TEST_DATABASE_URL)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	adm, err := adminDB(admin)
	if err == nil {
		err = adm.PingContext(ctx)
	}
	if err != nil {
		if required {
			t.Fatalf("PostgreSQL at %s is required but unreachable: %v", store.Redact(admin), err)
		}
		t.Skipf("PostgreSQL at %s unreachable: %v", store.Redact(admin), err)
	}
	name := "kisen_test_" + randomHex(8)
	tmpl, err := postgresTemplate(ctx, adm, admin)
	if err != nil {
		t.Fatalf("template database: %v", err)
	}
	if _, err := adm.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := adm.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	// A test needs few connections at once; `make test` runs three test
	// binaries of up to 8 tests (and two databases each) beside each
	// other, and PostgreSQL's default max_connections is 100.
	return store.Options{URL: withDatabase(t, admin, name), MaxOpenConns: 8, MaxIdleConns: 2}
}

// withDatabase is the admin URL pointed at another database.
func withDatabase(t testing.TB, admin, name string) string {
	t.Helper()
	u, err := urlWithDatabase(admin, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Postgres opens a new migrated PostgreSQL database for the test.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	o := PostgresOptions(t)
	s, err := store.Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// AgeRevisions moves every recorded change of event pages (migration
// 00097) by back into the past, as if the test had waited that long: a
// page sends Last-Modified only once the second of its last change is
// over.
func AgeRevisions(t *testing.T, s *store.Store, by time.Duration) {
	t.Helper()
	ctx := context.Background()
	for _, table := range []string{"event_changes", "registry_changes"} {
		q := "UPDATE " + table + " SET changed_at = strftime('%Y-%m-%d %H:%M:%f', changed_at, ?)"
		arg := any(fmt.Sprintf("-%.3f seconds", by.Seconds()))
		if s.Dialect() == store.Postgres {
			q, arg = "UPDATE "+table+" SET changed_at = changed_at - make_interval(secs => ?)", by.Seconds()
		}
		if err := s.DB(ctx).Exec(q, arg).Error; err != nil {
			t.Fatalf("age %s: %v", table, err)
		}
	}
}
