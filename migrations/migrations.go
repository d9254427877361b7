// Package migrations holds Kisen's versioned SQL, one folder per dialect
// with the same version numbers, embedded, and runs it with goose.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/pressly/goose/v3"
)

//go:embed postgres/*.sql sqlite/*.sql
var files embed.FS

// FS returns the migration files of one dialect ("sqlite" or "postgres").
func FS(dialect string) (fs.FS, error) {
	switch dialect {
	case "sqlite", "postgres":
		return fs.Sub(files, dialect)
	}
	return nil, fmt.Errorf("unknown database dialect %q", dialect)
}

func provider(db *sql.DB, dialect string) (*goose.Provider, error) {
	fsys, err := FS(dialect)
	if err != nil {
		return nil, err
	}
	d := goose.DialectPostgres
	if dialect == "sqlite" {
		d = goose.DialectSQLite3
	}
	return goose.NewProvider(d, db, fsys)
}

// Up applies every pending migration.
func Up(ctx context.Context, db *sql.DB, dialect string) error {
	p, err := provider(db, dialect)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// Down rolls back the latest applied migration.
func Down(ctx context.Context, db *sql.DB, dialect string) error {
	p, err := provider(db, dialect)
	if err != nil {
		return err
	}
	if _, err := p.Down(ctx); err != nil {
		return fmt.Errorf("migrate down: %w", err)
	}
	return nil
}

// Status writes one line per migration: version, applied or pending, file.
func Status(ctx context.Context, db *sql.DB, dialect string, w io.Writer) error {
	p, err := provider(db, dialect)
	if err != nil {
		return err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return fmt.Errorf("migrate status: %w", err)
	}
	for _, s := range st {
		applied := "pending"
		if s.State == goose.StateApplied {
			applied = "applied " + s.AppliedAt.UTC().Format("2006-01-02 15:04:05Z")
		}
		fmt.Fprintf(w, "%05d\t%s\t%s\n", s.Source.Version, applied, s.Source.Path)
	}
	return nil
}

// Versions lists the migration versions present for a dialect, in order.
func Versions(dialect string) ([]int64, error) {
	fsys, err := FS(dialect)
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, n := range names {
		v, err := goose.NumericComponent(n)
		if err != nil {
			return nil, fmt.Errorf("migration file %s: %w", n, err)
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out, nil
}
