package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// ErrUnavailable means the database cannot be reached or will not answer
// now: connection refused or lost, the server shutting down, or (SQLite)
// the file still locked after the busy timeout. The request may succeed
// later, so the web layer answers 503 with Retry-After rather than 500.
var ErrUnavailable = errors.New("database unavailable")

// unavailableError keeps the driver's error (for the log and for errors.As)
// and adds ErrUnavailable to the chain.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string   { return "database unavailable: " + e.err.Error() }
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// Classify returns err with ErrUnavailable in its chain when it means the
// database is unreachable, and err unchanged otherwise (nil stays nil).
func Classify(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) || !IsUnavailable(err) {
		return err
	}
	return &unavailableError{err: err}
}

// SQLite result codes (primary code is the low byte of an extended code).
const (
	sqliteBusy   = 5 // SQLITE_BUSY: the file is locked by another connection
	sqliteLocked = 6 // SQLITE_LOCKED: a table is locked within this connection's cache
)

// IsUnavailable reports whether err means the database is unreachable or
// not answering now, as opposed to a bad query or a constraint.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) ||
		// pgx, on a connection the server ended (57P01 while a statement
		// cache is flushed: gorm keeps only the last error in the chain).
		errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	// Any failure to connect, whatever the server said (e.g. 55000: the
	// database is not accepting connections), before looking at PgError.
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08": // connection exception
			return true
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // admin/crash shutdown, cannot connect now
			return true
		case pgErr.Code == "53300": // too_many_connections
			return true
		}
		return false
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case sqliteBusy, sqliteLocked:
			return true
		}
	}
	return false
}

// classifyCallbacks registers, after every kind of gorm statement, a
// callback that marks unavailability errors, so each query is classified in
// one place and no query function needs to know.
func classifyCallbacks(db *gorm.DB) error {
	mark := func(g *gorm.DB) {
		if g.Error == nil || errors.Is(g.Error, ErrUnavailable) || !IsUnavailable(g.Error) {
			return
		}
		g.Error = Classify(g.Error)
		if g.Statement != nil && g.Statement.Result != nil {
			g.Statement.Result.Error = g.Error
		}
	}
	return afterEveryStatement(db, "kisen:classify_unavailable", mark)
}
