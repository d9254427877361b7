package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"kisen/migrations"
	"kisen/store"
)

// backupFlag names the backup a `migrate down` that removes history needs
// (docs/append-only.md, "Rolling a migration back").
const backupFlag = "--i-have-a-backup"

// runMigrate: kisen migrate up|down|status [--i-have-a-backup FILE] [database flags].
func runMigrate(ctx context.Context, e env) int {
	if len(e.args) == 0 || (e.args[0] != "up" && e.args[0] != "down" && e.args[0] != "status") {
		fmt.Fprintln(e.stderr, "kisen migrate: want one of up, down, status (then --database-url / --data-dir as for serve; down may need "+backupFlag+" FILE)")
		return 2
	}
	action := e.args[0]
	sub := e.sub()
	backup, rest, ok := takeBackupFlag(sub.args)
	if !ok {
		fmt.Fprintf(e.stderr, "kisen migrate %s: %s wants the backup file's name\n", action, backupFlag)
		return 2
	}
	if backup != "" && action != "down" {
		fmt.Fprintf(e.stderr, "kisen migrate %s: %s is for down only\n", action, backupFlag)
		return 2
	}
	sub.args = rest
	cfg, code := loadConfig("migrate "+action, sub)
	if code >= 0 {
		return code
	}
	st, err := store.Open(ctx, storeOptions(cfg))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen migrate: %v\n", err)
		return 1
	}
	defer st.Close()
	warnSuperuser(ctx, st, newLogger(cfg, e.stderr))
	d := string(st.Dialect())
	switch action {
	case "up":
		err = migrations.Up(ctx, st.SQL(), d)
	case "down":
		if code := guardDown(ctx, st, backup, e.stderr); code >= 0 {
			return code
		}
		err = migrations.Down(ctx, st.SQL(), d)
	}
	if err == nil {
		err = migrations.Status(ctx, st.SQL(), d, e.stdout)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen migrate %s: %v\n", action, err)
		return 1
	}
	return 0
}

// takeBackupFlag removes --i-have-a-backup FILE (or =FILE) from args; ok
// is false when the flag has no value.
func takeBackupFlag(args []string) (file string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == backupFlag || a == "-"+strings.TrimPrefix(backupFlag, "--"):
			if i+1 >= len(args) || args[i+1] == "" {
				return "", nil, false
			}
			file = args[i+1]
			i++
		case strings.HasPrefix(a, backupFlag+"="):
			file = strings.TrimPrefix(a, backupFlag+"=")
			if file == "" {
				return "", nil, false
			}
		default:
			rest = append(rest, a)
		}
	}
	return file, rest, true
}

// guardDown refuses (exit 2) to roll back a migration that would remove
// history (migrations.DownLosses) unless backup names a Kisen backup of this
// database's kind; -1 lets the rollback go on.
func guardDown(ctx context.Context, st *store.Store, backup string, stderr io.Writer) int {
	losses, err := migrations.DownLosses(ctx, st.SQL(), string(st.Dialect()), store.HistoryTables())
	if err != nil {
		fmt.Fprintf(stderr, "kisen migrate down: %v\n", err)
		return 1
	}
	if len(losses) == 0 {
		return -1
	}
	var what strings.Builder
	for _, l := range losses {
		fmt.Fprintf(&what, "  %s\n", l)
	}
	if backup == "" {
		fmt.Fprintf(stderr, `kisen migrate down: refused: rolling back migration %05d would remove history that is never deleted (docs/append-only.md):
%sTake a backup first, then run the same command again naming it:
  kisen backup [database flags] FILE
  kisen migrate down %s FILE [database flags]
`, losses[0].Version, what.String(), backupFlag)
		return 2
	}
	if why := notABackup(backup, st.Dialect()); why != "" {
		fmt.Fprintf(stderr, "kisen migrate down: refused: %s %s: %s; name the file `kisen backup` wrote for this database\n", backupFlag, backup, why)
		return 2
	}
	fmt.Fprintf(stderr, "kisen migrate down: rolling back migration %05d removes, with backup %s:\n%s", losses[0].Version, backup, what.String())
	return -1
}

// notABackup says why file is not a backup of a database of dialect d
// (kisen backup writes SQLite's own file, or pg_dump's custom format), or
// "" when it is one.
func notABackup(file string, d store.Dialect) string {
	f, err := os.Open(file)
	if err != nil {
		return "cannot read it (" + err.Error() + ")"
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	want, kind := []byte("SQLite format 3\x00"), "a SQLite backup"
	if d == store.Postgres {
		want, kind = []byte("PGDMP"), "a pg_dump archive (kisen backup of PostgreSQL)"
	}
	if !bytes.HasPrefix(head, want) {
		return "it is not " + kind
	}
	return ""
}
