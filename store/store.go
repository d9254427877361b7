// Package store is Kisen's persistence: gorm models, queries and
// transactions over SQLite (embedded default) or PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Dialect names the database kind behind a Store.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Sentinel errors; office and web wrap and map them (404, 409; ErrUnavailable
// in unavailable.go is 503).
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
)

// Store is a handle on the database. It keeps no state another process
// sharing the same PostgreSQL would need.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	stmts   *atomic.Int64 // statements run (statements.go); shared with transactions
	url     string        // the PostgreSQL URL, for the change listener's own connection (changes.go)
	// wrote is poked after every committed transaction (changes.go: the
	// SQLite watcher looks at once instead of at its next tick); shared
	// with transactions.
	wrote chan struct{}
}

// Options says which database to open.
type Options struct {
	URL        string // postgres://…; empty selects SQLite at SQLitePath
	SQLitePath string
	// SQLiteBusyTimeout is how long a SQLite write waits for the file lock
	// before failing with ErrUnavailable; zero means 5 s.
	SQLiteBusyTimeout time.Duration
	// The connection pool (config: --db-max-open …); zero fields take the
	// defaults of config.Default, which cmd/kisen passes in resolved.
	MaxOpenConns    int           // zero: 20 on PostgreSQL, 8 on SQLite
	MaxIdleConns    int           // zero: MaxOpenConns
	ConnMaxLifetime time.Duration // zero: 30 minutes
	ConnMaxIdleTime time.Duration // zero: 5 minutes
}

// pool fills in the defaults of the zero fields.
func (o Options) pool(d Dialect) Options {
	if o.MaxOpenConns <= 0 {
		// SQLite has one writer at a time; WAL lets readers proceed alongside it.
		o.MaxOpenConns = 8
		if d == Postgres {
			o.MaxOpenConns = 20
		}
	}
	if o.MaxIdleConns <= 0 || o.MaxIdleConns > o.MaxOpenConns {
		o.MaxIdleConns = o.MaxOpenConns
	}
	if o.ConnMaxLifetime <= 0 {
		o.ConnMaxLifetime = 30 * time.Minute
	}
	if o.ConnMaxIdleTime <= 0 {
		o.ConnMaxIdleTime = 5 * time.Minute
	}
	return o
}

// SQLiteDSN is the DSN for the embedded database (ARCHITECTURE.md: without
// _txlock=immediate concurrent read-then-write transactions get SQLITE_BUSY).
func SQLiteDSN(path string) string { return sqliteDSN(path, 0) }

func sqliteDSN(path string, busy time.Duration) string {
	ms := int64(5000)
	if busy > 0 {
		ms = busy.Milliseconds()
	}
	return "file:" + filepath.ToSlash(path) +
		"?_pragma=foreign_keys(1)&_pragma=busy_timeout(" + strconv.FormatInt(ms, 10) + ")&_pragma=journal_mode(WAL)&_txlock=immediate"
}

// Open connects to the database named by o and checks it answers.
func Open(ctx context.Context, o Options) (*Store, error) {
	cfg := &gorm.Config{Logger: logger.Discard, TranslateError: true}
	var (
		db      *gorm.DB
		err     error
		dialect Dialect
	)
	if o.URL != "" {
		dialect = Postgres
		db, err = gorm.Open(postgres.Open(o.URL), cfg)
	} else {
		dialect = SQLite
		if dir := filepath.Dir(o.SQLitePath); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create data folder %s: %w", dir, err)
			}
		}
		db, err = gorm.Open(sqlite.Open(sqliteDSN(o.SQLitePath, o.SQLiteBusyTimeout)), cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, Classify(err))
	}
	if err := classifyCallbacks(db); err != nil {
		return nil, fmt.Errorf("register error classification: %w", err)
	}
	s := &Store{db: db, dialect: dialect, stmts: new(atomic.Int64), url: o.URL, wrote: make(chan struct{}, 1)}
	if err := countStatements(db, s.stmts); err != nil {
		return nil, fmt.Errorf("register statement counter: %w", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	// Idle as many as open (Go's default keeps 2): a burst of requests
	// otherwise opens, and closes, a new PostgreSQL connection for nearly
	// every query beyond the second (issue 12).
	p := o.pool(dialect)
	sqlDB.SetMaxOpenConns(p.MaxOpenConns)
	sqlDB.SetMaxIdleConns(p.MaxIdleConns)
	sqlDB.SetConnMaxLifetime(p.ConnMaxLifetime)
	sqlDB.SetConnMaxIdleTime(p.ConnMaxIdleTime)
	if err := s.Ping(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("connect to %s database %s: %w", dialect, Redact(o.URL), err)
	}
	return s, nil
}

// Redact hides the password of a database URL for messages and logs.
func Redact(raw string) string {
	if raw == "" {
		return "(sqlite)"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// Dialect tells which database kind this store uses.
func (s *Store) Dialect() Dialect { return s.dialect }

// DB is the gorm handle bound to ctx; queries in this package start here.
func (s *Store) DB(ctx context.Context) *gorm.DB { return s.db.WithContext(ctx) }

// SQL is the underlying connection pool (for migrations and health checks).
func (s *Store) SQL() *sql.DB {
	sqlDB, _ := s.db.DB()
	return sqlDB
}

// Ping checks the database answers (ErrUnavailable when it does not).
func (s *Store) Ping(ctx context.Context) error {
	return Classify(s.SQL().PingContext(ctx))
}

// Close releases the connection pool.
func (s *Store) Close() error { return s.SQL().Close() }

// Tx runs fn in one transaction: everything fn writes lands, or nothing does.
// A BEGIN or COMMIT that fails because the database is unreachable (or, on
// SQLite, still locked after the busy timeout) comes back as ErrUnavailable.
func (s *Store) Tx(ctx context.Context, fn func(tx *Store) error) error {
	err := Classify(AppendOnly(s.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		return fn(&Store{db: g, dialect: s.dialect, stmts: s.stmts, url: s.url, wrote: s.wrote})
	})))
	if err == nil {
		s.poke()
	}
	return err
}

// notFound turns gorm's record-not-found into ErrNotFound with context.
func notFound(err error, what string) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("%s: %w", what, ErrConflict)
	}
	if isAppendOnly(err) {
		return fmt.Errorf("%s: %w", what, AppendOnly(err))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// likeEscape escapes % and _ for a LIKE pattern using \ as the escape.
func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}
