package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// history writes a decided game with a confirmed result and a player's own
// report: rows that migrations 00165, 00146 and 00130 would remove or
// strip of protection when rolled back.
func history(t *testing.T, o store.Options) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.DB(ctx)
	now := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	create := func(v any) {
		t.Helper()
		if err := db.Create(v).Error; err != nil {
			t.Fatalf("create %T: %v", v, err)
		}
	}
	u := store.User{Login: "director", DisplayName: "主催", PasswordHash: "x"}
	create(&u)
	org := store.Organiser{Name: "協会", Kind: "federation"}
	create(&org)
	ev := store.Event{OrganiserID: org.ID, Name: "大会", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-01", CreatedBy: u.ID}
	create(&ev)
	a := store.Player{Name: "甲", Reading: "こう", Kind: store.PlayerAmateur}
	create(&a)
	b := store.Player{Name: "乙", Reading: "おつ", Kind: store.PlayerAmateur}
	create(&b)
	g := store.Game{EventID: ev.ID, SentePlayerID: &a.ID, GotePlayerID: &b.ID}
	create(&g)
	r := store.GameResult{GameID: g.ID, Version: 1, Result: "sente_win", Reason: "resign", EnteredBy: u.ID, EnteredAt: now}
	create(&r)
	create(&store.GameResultConfirmation{GameResultID: r.ID, ConfirmedBy: u.ID, ConfirmedAt: now})
	create(&store.DayReport{GameID: g.ID, ReporterID: a.ID, WinnerID: a.ID, At: now})
}

// Issue 21 item 6: `kisen migrate down` refuses a step that drops a table
// or column of the history, or a trigger protecting it, while it holds
// rows — unless --i-have-a-backup names a backup of this database. Before,
// four steps silently dropped day_reports. Steps that remove no history
// still go without a backup. About 4 s on PostgreSQL: each of the ~20
// commands opens the database anew, as the command line does.
func TestMigrate_DownRefusesToRemoveHistoryWithoutABackup(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, o store.Options) {
		ctx := context.Background()
		getenv := dbEnv(o, nil)
		history(t, o)
		dir := t.TempDir()
		backup := filepath.Join(dir, "before-down.bak")
		if code, _, stderr := runCmd(t, ctx, getenv, "backup", backup); code != 0 {
			t.Fatalf("backup: %d %s", code, stderr)
		}
		status := func() string {
			t.Helper()
			code, out, stderr := runCmd(t, ctx, getenv, "migrate", "status")
			if code != 0 {
				t.Fatalf("status: %d %s", code, stderr)
			}
			return out
		}
		top := func(out string) int64 { // the latest applied version
			var v int64
			for _, l := range strings.Split(out, "\n") {
				var n int64
				if _, err := fmt.Sscanf(l, "%d\tapplied", &n); err == nil && strings.Contains(l, "\tapplied") && n > v {
					v = n
				}
			}
			return v
		}
		// The steps that must be refused, and what each names; other
		// steps (those between, and any added later) go as their down
		// step says, with a backup when they are refused too.
		want := map[int64]string{
			165: "trigger games_no_update_decided",
			146: "column game_result_confirmations.confirmed_via",
			130: "table day_reports",
		}
		refused := map[int64]bool{}
		checkedFiles := false
		for v := top(status()); v >= 130; v = top(status()) {
			before := status()
			code, _, stderr := runCmd(t, ctx, getenv, "migrate", "down")
			switch {
			case code == 0:
				if want[v] != "" {
					t.Fatalf("down over %05d without a backup went ahead; want refused naming %s", v, want[v])
				}
				continue
			case code != 2 || !strings.Contains(stderr, "refused"):
				t.Fatalf("down over %05d: exit %d, stderr %q", v, code, stderr)
			}
			refused[v] = true
			for _, w := range []string{fmt.Sprintf("migration %05d", v), want[v], "kisen backup", "kisen migrate down --i-have-a-backup FILE", "docs/append-only.md"} {
				if !strings.Contains(stderr, w) {
					t.Errorf("down over %05d: the refusal does not say %q:\n%s", v, w, stderr)
				}
			}
			if after := status(); after != before {
				t.Errorf("a refused down changed the schema:\nbefore\n%s\nafter\n%s", before, after)
			}
			if !checkedFiles { // a file that is no backup of this database is no backup
				checkedFiles = true
				notBackup := filepath.Join(dir, "notes.txt")
				if err := os.WriteFile(notBackup, []byte("hello"), 0o600); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{filepath.Join(dir, "missing.bak"), notBackup} {
					if code, _, stderr := runCmd(t, ctx, getenv, "migrate", "down", "--i-have-a-backup", f); code != 2 || !strings.Contains(stderr, f) {
						t.Errorf("down naming %s: exit %d %q, want refused naming the file", f, code, stderr)
					}
				}
				if code, _, _ := runCmd(t, ctx, getenv, "migrate", "down", "--i-have-a-backup"); code != 2 {
					t.Errorf("down with the flag and no file: exit %d, want 2", code)
				}
			}
			code, out, stderr := runCmd(t, ctx, getenv, "migrate", "down", "--i-have-a-backup="+backup)
			if code != 0 || top(out) >= v {
				t.Fatalf("down over %05d with the backup: exit %d, top %d; stderr %s", v, code, top(out), stderr)
			}
		}
		for v, what := range want {
			if !refused[v] {
				t.Errorf("down over %05d was never refused (%s)", v, what)
			}
		}
	})
}

// Issue 21 item 6: kisen warns at start when its PostgreSQL role is a
// superuser (the test server's postgres is one), and not for an ordinary
// role nor on SQLite.
func TestMigrate_WarnsWhenTheDatabaseRoleIsASuperuser(t *testing.T) {
	t.Parallel()
	const warning = "PostgreSQL superuser"
	code, _, stderr := runCmd(t, context.Background(), dbEnv(storetest.SQLiteOptions(t), nil), "migrate", "status")
	if code != 0 || strings.Contains(stderr, warning) {
		t.Errorf("SQLite: exit %d, stderr %q; want no warning", code, stderr)
	}
	o := storetest.PostgresOptions(t)
	code, _, stderr = runCmd(t, context.Background(), dbEnv(o, nil), "migrate", "status")
	if code != 0 || !strings.Contains(stderr, warning) || !strings.Contains(stderr, "docs/operations.md") {
		t.Errorf("PostgreSQL as postgres: exit %d, stderr %q; want the superuser warning", code, stderr)
	}

	// The role docs/operations.md describes for kisen serve (owns nothing;
	// SELECT, INSERT, UPDATE, DELETE on the tables, the sequences): no
	// warning, the start-up migration check passes, it writes, and it
	// cannot switch the append-only triggers off.
	ctx := context.Background()
	adm, err := sql.Open("pgx", o.URL)
	if err != nil {
		t.Fatal(err)
	}
	role := fmt.Sprintf("kisen_app_%d", time.Now().UnixNano())
	for _, q := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT USAGE ON SCHEMA public TO " + role,
		"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + role,
		"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO " + role,
	} {
		if _, err := adm.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		_, _ = adm.ExecContext(ctx, "DROP OWNED BY "+role)
		_, _ = adm.ExecContext(ctx, "DROP ROLE "+role)
		_ = adm.Close()
	})
	ordinary := o
	ordinary.URL = strings.Replace(o.URL, "postgres://postgres@", "postgres://"+role+"@", 1)
	if ordinary.URL == o.URL {
		t.Skipf("cannot put another role into %s", store.Redact(o.URL))
	}
	for _, action := range []string{"status", "up"} { // serve runs up at start: nothing pending, nothing to create
		code, _, stderr = runCmd(t, ctx, dbEnv(ordinary, nil), "migrate", action)
		if code != 0 || strings.Contains(stderr, warning) {
			t.Errorf("PostgreSQL as the app role: migrate %s: exit %d, stderr %q; want no warning", action, code, stderr)
		}
	}
	app, err := sql.Open("pgx", ordinary.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	if _, err := app.ExecContext(ctx, "INSERT INTO app_settings (key, value, updated_at) VALUES ('role_test', 'x', now())"); err != nil {
		t.Errorf("the app role cannot write: %v", err)
	}
	for _, q := range []string{
		"ALTER TABLE game_results DISABLE TRIGGER ALL",
		"DROP TRIGGER games_no_update_decided ON games",
		"SET session_replication_role = replica",
		"TRUNCATE game_results CASCADE",
	} {
		if _, err := app.ExecContext(ctx, q); err == nil {
			t.Errorf("the app role may %s", q)
		}
	}
}
