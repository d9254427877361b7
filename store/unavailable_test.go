package store_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"kisen/store"
	"kisen/store/storetest"
)

type sqliteCode int

func (c sqliteCode) Error() string { return fmt.Sprintf("sqlite code %d", int(c)) }
func (c sqliteCode) Code() int     { return int(c) }

func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"not found", fmt.Errorf("player 3: %w", store.ErrNotFound), false},
		{"conflict", fmt.Errorf("player: %w", store.ErrConflict), false},
		{"gorm record not found", gorm.ErrRecordNotFound, false},
		{"duplicate key", gorm.ErrDuplicatedKey, false},
		{"plain error", errors.New("syntax error at or near"), false},
		{"context canceled", context.Canceled, false},
		{"pg unique violation 23505", &pgconn.PgError{Code: "23505"}, false},
		{"pg serialization failure 40001", &pgconn.PgError{Code: "40001"}, false},
		{"pg connection failure 08006", &pgconn.PgError{Code: "08006"}, true},
		{"pg connection exception 08000", fmt.Errorf("query: %w", &pgconn.PgError{Code: "08000"}), true},
		{"pg admin shutdown 57P01", &pgconn.PgError{Code: "57P01"}, true},
		{"pg crash shutdown 57P02", &pgconn.PgError{Code: "57P02"}, true},
		{"pg cannot connect now 57P03", &pgconn.PgError{Code: "57P03"}, true},
		{"pg query canceled 57014", &pgconn.PgError{Code: "57014"}, false},
		{"pg too many connections 53300", &pgconn.PgError{Code: "53300"}, true},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{"connection reset", fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"EOF on the connection", fmt.Errorf("receive message: %w", io.ErrUnexpectedEOF), true},
		{"io.EOF", io.EOF, true},
		{"driver bad conn", driver.ErrBadConn, true},
		{"pgx conn closed, joined by gorm", fmt.Errorf("FATAL: terminating connection (SQLSTATE 57P01); %w",
			fmt.Errorf("failed to deallocate cached statement(s): %w", pgconn.ErrConnClosed)), true},
		{"already classified", fmt.Errorf("tx: %w", store.ErrUnavailable), true},
		{"SQLITE_BUSY", sqliteCode(5), true},
		{"SQLITE_BUSY_SNAPSHOT (extended)", sqliteCode(5 | 2<<8), true},
		{"SQLITE_LOCKED", sqliteCode(6), true},
		{"SQLITE_CONSTRAINT", sqliteCode(19), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.IsUnavailable(tc.err); got != tc.want {
				t.Errorf("IsUnavailable(%v) = %v, want %v", tc.err, got, tc.want)
			}
			c := store.Classify(tc.err)
			if got := errors.Is(c, store.ErrUnavailable); got != tc.want {
				t.Errorf("errors.Is(Classify(%v), ErrUnavailable) = %v, want %v", tc.err, got, tc.want)
			}
			if tc.err != nil && !errors.Is(c, tc.err) {
				t.Errorf("Classify lost the original error %v", tc.err)
			}
		})
	}
}

// A PostgreSQL that does not listen (a closed port) is unavailable, not a
// generic failure.
func TestOpenClosedPortIsUnavailable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = store.Open(ctx, store.Options{URL: "postgres://kisen@" + addr + "/kisen?sslmode=disable&connect_timeout=5"})
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("open at a closed port: %v, want ErrUnavailable", err)
	}
}

// SQLite: a write that still finds the file locked after the busy timeout
// is ErrUnavailable, through Tx (BEGIN IMMEDIATE) and through a single
// statement (the gorm callback).
func TestSQLiteLockedIsUnavailable(t *testing.T) {
	t.Parallel()
	o := storetest.SQLiteOptions(t)
	o.SQLiteBusyTimeout = 100 * time.Millisecond
	ctx := context.Background()
	holder, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK") //nolint:errcheck

	s, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ss := store.NewSessionStore(s, time.Now)
	err = ss.CommitCtx(ctx, "tok", []byte("x"), time.Now().Add(time.Hour))
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("single write while locked: %v, want ErrUnavailable", err)
	}
	err = s.Tx(ctx, func(tx *store.Store) error {
		return store.NewSessionStore(tx, time.Now).CommitCtx(ctx, "tok", []byte("x"), time.Now().Add(time.Hour))
	})
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("transaction while locked: %v, want ErrUnavailable", err)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := ss.CommitCtx(ctx, "tok", []byte("x"), time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("write after the lock is released: %v", err)
	}
}

// PostgreSQL: terminating the store's connections and refusing new ones
// makes queries ErrUnavailable; allowing connections again heals the store.
func TestPostgresOutageIsUnavailable(t *testing.T) {
	t.Parallel()
	o := storetest.PostgresOptions(t)
	ctx := context.Background()
	s, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	outage := storetest.PostgresOutage(t, o)
	outage.Begin()
	if err := s.Ping(ctx); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("ping during outage: %v, want ErrUnavailable", err)
	}
	_, _, err = store.NewSessionStore(s, time.Now).FindCtx(ctx, "tok")
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("query during outage: %v, want ErrUnavailable", err)
	}
	if err := s.Tx(ctx, func(*store.Store) error { return nil }); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("transaction during outage: %v, want ErrUnavailable", err)
	}
	outage.End()
	if _, _, err := store.NewSessionStore(s, time.Now).FindCtx(ctx, "tok"); err != nil {
		t.Fatalf("query after the outage: %v", err)
	}
}
