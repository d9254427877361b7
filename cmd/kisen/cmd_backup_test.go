package main

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// dbEnv is the environment that points the command at the database o.
func dbEnv(o store.Options, extra map[string]string) func(string) string {
	m := map[string]string{"PATH": os.Getenv("PATH")}
	if o.URL != "" {
		m["KISEN_DATABASE_URL"] = o.URL
	} else {
		m["KISEN_DATA_DIR"] = filepath.Dir(o.SQLitePath)
	}
	for k, v := range extra {
		m[k] = v
	}
	return envOf(m)
}

// fillThroughOffice records what a tournament leaves behind: users, an
// organiser, an event with roles, players, games, results, rulings and a
// session.
func fillThroughOffice(t *testing.T, o store.Options) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	off := office.New(st, func() time.Time { return now })
	user := func(login string, admin bool) office.Actor {
		u := store.User{Login: login, DisplayName: login + " 太郎", PasswordHash: "x", IsAdmin: admin, CreatedAt: now, UpdatedAt: now}
		if err := st.DB(ctx).Create(&u).Error; err != nil {
			t.Fatal(err)
		}
		return office.Actor{UserID: u.ID, Login: login, DisplayName: u.DisplayName, Admin: admin}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	admin, arbiter, second := user("admin", true), user("tachiai", false), user("kiroku", false)
	org := store.Organiser{Name: "日本将棋連盟", Kind: office.OrganiserFederation, CreatedAt: now, UpdatedAt: now}
	must(st.CreateOrganiser(ctx, &org))
	ev, err := off.CreateEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: "第1期バックアップ戦", NameEn: "1st Backup Cup",
		Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2026-12-31", Venue: "東京・将棋会館"})
	must(err)
	must(off.SetEventStatus(ctx, admin, ev.ID, office.StatusPublished))
	must(off.GrantEventRole(ctx, admin, office.RoleGrant{EventID: ev.ID, UserID: arbiter.UserID, Role: office.RoleArbiter}))
	must(off.GrantEventRole(ctx, admin, office.RoleGrant{EventID: ev.ID, UserID: second.UserID, Role: office.RoleArbiter}))
	var players []store.Player
	for i, n := range []string{"羽生 善治", "藤井 聡太", "渡辺 明", "豊島 将之"} {
		p, err := off.CreatePlayer(ctx, admin, office.PlayerInput{Number: fmt.Sprint(100 + i), Name: n, Reading: "よみ", Kind: "professional",
			Rank: "九段", Affiliation: "東京", BirthDate: "1990-01-0" + fmt.Sprint(i+1)})
		must(err)
		players = append(players, p)
	}
	for i := 0; i < 2; i++ {
		g, err := off.CreateGame(ctx, admin, office.GameInput{EventID: ev.ID, Label: fmt.Sprintf("1回戦 第%d局", i+1),
			SenteID: &players[2*i].ID, GoteID: &players[2*i+1].ID, AllowanceMinutes: 180, ScheduledOn: "2026-11-2" + fmt.Sprint(i)})
		must(err)
		_, _, err = off.AddRuling(ctx, arbiter, g.ID, office.RulingInput{Kind: "time_adjust", Player: "sente", DeltaMinutes: "5", Reason: "時計の故障"})
		must(err)
		_, _, err = off.AddRuling(ctx, arbiter, g.ID, office.RulingInput{Kind: "caution", Player: "gote", Reason: "私語"})
		must(err)
		_, err = off.RecordResult(ctx, arbiter, g.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resign", Note: "投了"})
		must(err)
	}
	must(store.NewSessionStore(st, func() time.Time { return now }).CommitCtx(ctx, "tok", []byte{0, 1, 2, 0xff}, now.Add(time.Hour)))
}

// tableRows reads every table named in the catalog, each row rendered as
// text, rows sorted (so no column needs an ordering operator).
func tableRows(t *testing.T, o store.Options) map[string][]string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tables, err := dataTables(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, tb := range tables {
		out[tb] = readRows(t, st.SQL(), tb)
	}
	return out
}

func readRows(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT * FROM " + quoteIdent(table))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				parts[i] = cols[i] + "=NULL"
			case []byte:
				parts[i] = cols[i] + "=x" + hex.EncodeToString(v)
			case time.Time:
				parts[i] = cols[i] + "=" + v.UTC().Format(time.RFC3339Nano)
			default:
				parts[i] = fmt.Sprintf("%s=%v", cols[i], v)
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestBackupRestore_RoundTripsEveryTable fills a database through office
// calls, backs it up, restores it into a fresh empty database, and compares
// every table the catalog lists, row by row (issue 11 part 8).
func TestBackupRestore_RoundTripsEveryTable(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, src store.Options) {
		ctx := context.Background()
		if src.URL != "" {
			needPgTools(t)
		}
		fillThroughOffice(t, src)
		want := tableRows(t, src)
		for _, tb := range []string{"users", "organisers", "events", "event_roles", "players", "games", "game_results",
			"rulings", "sessions", versionTable} {
			if len(want[tb]) == 0 {
				t.Fatalf("table %s is empty after the fill; the round trip would prove little", tb)
			}
		}
		file := filepath.Join(t.TempDir(), "kisen.backup")
		code, stdout, stderr := runCmd(t, ctx, dbEnv(src, nil), "backup", file)
		if code != 0 {
			t.Fatalf("backup: exit %d\n%s%s", code, stdout, stderr)
		}
		wantKind := kindSQLite
		if src.URL != "" {
			wantKind = kindPgDump
		}
		if k, err := sniffBackup(file); err != nil || k != wantKind {
			t.Fatalf("backup file kind %q %v, want %q", k, err, wantKind)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*tmp-*")); len(left) != 0 {
			t.Errorf("temporary files left behind: %v", left)
		}

		// A fresh, migrated, empty database.
		var dst store.Options
		if src.URL != "" {
			dst = storetest.PostgresOptions(t)
		} else {
			dst = storetest.SQLiteOptions(t)
		}
		code, stdout, stderr = runCmd(t, ctx, dbEnv(dst, nil), "restore", file)
		if code != 0 {
			t.Fatalf("restore: exit %d\n%s%s", code, stdout, stderr)
		}
		got := tableRows(t, dst)
		if len(got) != len(want) {
			t.Errorf("restored %d tables, want %d", len(got), len(want))
		}
		for tb, rows := range want {
			if !slices.Equal(got[tb], rows) {
				t.Errorf("table %s differs after the round trip:\n got %q\nwant %q", tb, got[tb], rows)
			}
		}

		// The restored database takes new rows (sequences came along).
		st, err := store.Open(ctx, dst)
		if err != nil {
			t.Fatal(err)
		}
		admin := store.User{}
		if err := st.DB(ctx).Where("login = ?", "admin").Take(&admin).Error; err != nil {
			t.Fatal(err)
		}
		_, err = office.New(st, time.Now).CreatePlayer(ctx, office.Actor{UserID: admin.ID, Login: "admin", Admin: true},
			office.PlayerInput{Name: "復元 後子", Reading: "ふくげん のちこ", Kind: "professional", Rank: "四段"})
		_ = st.Close()
		if err != nil {
			t.Fatalf("create a player after the restore: %v", err)
		}

		// Restoring again, into the database that now holds data, is refused.
		code, _, stderr = runCmd(t, ctx, dbEnv(dst, nil), "restore", file)
		if code != 1 || !strings.Contains(stderr, "already holds data") || !strings.Contains(stderr, "nothing was changed") {
			t.Fatalf("restore into a filled database: exit %d, want 1 with a clear message; stderr %s", code, stderr)
		}
		if rows := tableRows(t, dst)["players"]; len(rows) != len(want["players"])+1 {
			t.Errorf("the refused restore changed the players table: %d rows", len(rows))
		}

		// An existing FILE is kept unless --force.
		before, _ := os.ReadFile(file)
		code, _, stderr = runCmd(t, ctx, dbEnv(src, nil), "backup", file)
		if code != 2 || !strings.Contains(stderr, "already exists") || !strings.Contains(stderr, "--force") {
			t.Fatalf("backup over an existing file: exit %d, want 2 naming --force; stderr %s", code, stderr)
		}
		if after, _ := os.ReadFile(file); !slices.Equal(before, after) {
			t.Error("the refused backup changed the existing file")
		}
		code, _, stderr = runCmd(t, ctx, dbEnv(src, nil), "backup", "--force", file)
		if code != 0 {
			t.Fatalf("backup --force: exit %d; %s", code, stderr)
		}
	})
}

// Restoring into a data folder that has no database yet creates it.
func TestRestore_SQLiteIntoANewDataFolder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.SQLiteOptions(t)
	fillThroughOffice(t, src)
	file := filepath.Join(t.TempDir(), "kisen.db.bak")
	if code, _, stderr := runCmd(t, ctx, dbEnv(src, nil), "backup", file); code != 0 {
		t.Fatalf("backup: exit %d; %s", code, stderr)
	}
	dst := store.Options{SQLitePath: filepath.Join(t.TempDir(), "new", "kisen.db")}
	if code, _, stderr := runCmd(t, ctx, dbEnv(dst, nil), "restore", file); code != 0 {
		t.Fatalf("restore: exit %d; %s", code, stderr)
	}
	want, got := tableRows(t, src), tableRows(t, dst)
	for tb, rows := range want {
		if !slices.Equal(got[tb], rows) {
			t.Errorf("table %s differs", tb)
		}
	}
}

func TestBackupRestore_BadInputExits2WithAClearMessage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sqliteFile := write("a.sqlite", append([]byte("SQLite format 3\x00"), make([]byte, 100)...))
	pgFile := write("a.dump", append([]byte("PGDMP"), make([]byte, 100)...))
	textFile := write("a.txt", []byte("hello"))
	pg := store.Options{URL: "postgres://kisen@127.0.0.1:1/kisen?sslmode=disable"}
	sq := store.Options{SQLitePath: filepath.Join(dir, "data", "kisen.db")}
	emptyPath := map[string]string{"PATH": t.TempDir()}
	for _, c := range []struct {
		name string
		env  func(string) string
		args []string
		want []string
	}{
		{"SQLite backup into PostgreSQL", dbEnv(pg, nil), []string{"restore", sqliteFile}, []string{"SQLite backup", "PostgreSQL"}},
		{"pg_dump archive into SQLite", dbEnv(sq, nil), []string{"restore", pgFile}, []string{"PostgreSQL backup", "SQLite", "--database-url"}},
		{"unknown file", dbEnv(sq, nil), []string{"restore", textFile}, []string{"neither a SQLite backup nor a pg_dump"}},
		{"missing file", dbEnv(sq, nil), []string{"restore", filepath.Join(dir, "nope")}, []string{"nope"}},
		{"no FILE", dbEnv(sq, nil), []string{"backup"}, []string{"missing FILE"}},
		{"two files", dbEnv(sq, nil), []string{"backup", "a", "b"}, []string{"one FILE only"}},
		{"bad setting", dbEnv(sq, nil), []string{"backup", "--database-url", "mysql://x", filepath.Join(dir, "b")}, []string{"database-url"}},
		{"missing folder", dbEnv(sq, nil), []string{"backup", filepath.Join(dir, "no", "such", "b")}, []string{"does not exist"}},
		{"pg_dump not installed", dbEnv(pg, emptyPath), []string{"backup", filepath.Join(dir, "b.dump")}, []string{"pg_dump is not installed", "postgresql-client", "KISEN_PG_DUMP"}},
		{"pg_restore not installed", dbEnv(pg, emptyPath), []string{"restore", pgFile}, []string{"pg_restore is not installed", "postgresql-client"}},
		{"KISEN_PG_DUMP not executable", dbEnv(pg, map[string]string{"KISEN_PG_DUMP": textFile}), []string{"backup", filepath.Join(dir, "c.dump")}, []string{"KISEN_PG_DUMP", "not an executable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, ctx, c.env, c.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message lacks %q: %s", w, stderr)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "b.dump")); err == nil {
		t.Error("a failed backup left a file behind")
	}
}

// A data folder without a database has nothing to back up: exit 1.
func TestBackup_NoSQLiteDatabaseExits1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sq := store.Options{SQLitePath: filepath.Join(dir, "data", "kisen.db")}
	code, _, stderr := runCmd(t, context.Background(), dbEnv(sq, nil), "backup", filepath.Join(dir, "b"))
	if code != 1 || !strings.Contains(stderr, "no SQLite database") {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
}

// A SQLite backup written by a newer Kisen (a migration this build does not
// know) is refused before anything is put in place.
func TestRestore_SQLiteFromANewerKisenExits2(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.SQLiteOptions(t)
	st, err := store.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.SQL().ExecContext(ctx, "INSERT INTO "+versionTable+" (version_id, is_applied) VALUES (99999, 1)")
	_ = st.Close()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "newer.db")
	if code, _, stderr := runCmd(t, ctx, dbEnv(src, nil), "backup", file); code != 0 {
		t.Fatalf("backup: exit %d; %s", code, stderr)
	}
	dst := store.Options{SQLitePath: filepath.Join(t.TempDir(), "new", "kisen.db")}
	code, _, stderr := runCmd(t, ctx, dbEnv(dst, nil), "restore", file)
	if code != 2 || !strings.Contains(stderr, "newer Kisen") {
		t.Fatalf("exit %d, want 2 naming the newer Kisen; stderr %s", code, stderr)
	}
	if _, err := os.Stat(dst.SQLitePath); err == nil {
		t.Error("the refused restore put a database in place")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dst.SQLitePath), ".kisen.db.restore-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// needPgTools skips (or, when PostgreSQL is required, fails) a test that
// needs pg_dump and pg_restore on PATH.
func needPgTools(t *testing.T) {
	t.Helper()
	e := env{getenv: os.Getenv}
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := findTool(e, tool, "KISEN_"+strings.ToUpper(tool)); err != nil {
			if os.Getenv("KISEN_TEST_POSTGRES") == "required" {
				t.Fatalf("PostgreSQL tests are required: %v", err)
			}
			t.Skip(err)
		}
	}
}

// The SQLite backup is online: taken while another connection keeps
// writing, it is one intact snapshot, and it restores.
func TestBackup_SQLiteWhileWritesGoOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.SQLiteOptions(t)
	writer, err := store.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	ss := store.NewSessionStore(writer, time.Now)
	stop := make(chan struct{})
	done := make(chan int)
	writing := make(chan struct{}) // closed once the writer has committed
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				done <- n
				return
			default:
			}
			if err := ss.CommitCtx(ctx, fmt.Sprintf("tok-%d", n), []byte("x"), time.Now().Add(time.Hour)); err == nil {
				if n == 0 {
					close(writing)
				}
				n++
			}
		}
	}()
	select {
	case <-writing:
	case <-time.After(30 * time.Second):
		t.Fatal("the writer committed nothing in 30 s")
	}
	file := filepath.Join(t.TempDir(), "online.db")
	code, _, stderr := runCmd(t, ctx, dbEnv(src, nil), "backup", file)
	close(stop)
	written := <-done
	if code != 0 {
		t.Fatalf("backup while writing: exit %d; %s", code, stderr)
	}
	dst := store.Options{SQLitePath: filepath.Join(t.TempDir(), "d", "kisen.db")}
	if code, _, stderr := runCmd(t, ctx, dbEnv(dst, nil), "restore", file); code != 0 {
		t.Fatalf("restore: exit %d; %s", code, stderr)
	}
	got := len(tableRows(t, dst)["sessions"])
	if got == 0 || got > written {
		t.Errorf("restored %d sessions of %d written (want a snapshot in between)", got, written)
	}
	t.Logf("%d of %d sessions in the snapshot", got, written)
}
