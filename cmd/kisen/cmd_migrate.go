package main

import (
	"context"
	"fmt"

	"kisen/migrations"
	"kisen/store"
)

// runMigrate: kisen migrate up|down|status [database flags].
func runMigrate(ctx context.Context, e env) int {
	if len(e.args) == 0 || (e.args[0] != "up" && e.args[0] != "down" && e.args[0] != "status") {
		fmt.Fprintln(e.stderr, "kisen migrate: want one of up, down, status (then --database-url / --data-dir as for serve)")
		return 2
	}
	action := e.args[0]
	cfg, code := loadConfig("migrate "+action, e.sub())
	if code >= 0 {
		return code
	}
	st, err := store.Open(ctx, storeOptions(cfg))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen migrate: %v\n", err)
		return 1
	}
	defer st.Close()
	d := string(st.Dialect())
	switch action {
	case "up":
		err = migrations.Up(ctx, st.SQL(), d)
	case "down":
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
