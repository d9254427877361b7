package store_test

import (
	"context"
	"slices"
	"testing"

	"kisen/migrations"
	"kisen/store"
	"kisen/store/storetest"
)

func TestMigrations_SameVersionsInBothDialects(t *testing.T) {
	t.Parallel()
	sq, err := migrations.Versions("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations.Versions("postgres")
	if err != nil {
		t.Fatal(err)
	}
	if len(sq) == 0 {
		t.Fatal("no migrations found")
	}
	if !slices.Equal(sq, pg) {
		t.Fatalf("migration versions differ: sqlite %v, postgres %v", sq, pg)
	}
}

func TestMigrations_EveryModelColumnExists(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		db := s.DB(context.Background())
		for _, m := range store.Models() {
			stmt := db.Model(m).Statement
			if err := stmt.Parse(m); err != nil {
				t.Fatalf("parse model %T: %v", m, err)
			}
			if !db.Migrator().HasTable(m) {
				t.Errorf("table %s for %T missing", stmt.Schema.Table, m)
				continue
			}
			for _, f := range stmt.Schema.Fields {
				if f.DBName == "" || f.IgnoreMigration {
					continue
				}
				if !db.Migrator().HasColumn(m, f.DBName) {
					t.Errorf("column %s.%s for %T.%s missing", stmt.Schema.Table, f.DBName, m, f.Name)
				}
			}
		}
	})
}

func TestMigrations_DownAndUpAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		vs, _ := migrations.Versions(string(s.Dialect()))
		for range vs {
			if err := migrations.Down(ctx, s.SQL(), string(s.Dialect())); err != nil {
				t.Fatalf("down: %v", err)
			}
		}
		if s.DB(ctx).Migrator().HasTable(&store.AppSetting{}) {
			t.Fatal("app_settings still exists after rolling every migration back")
		}
		if err := migrations.Up(ctx, s.SQL(), string(s.Dialect())); err != nil {
			t.Fatalf("up again: %v", err)
		}
	})
}
