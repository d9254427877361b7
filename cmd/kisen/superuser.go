package main

import (
	"context"
	"log/slog"

	"kisen/store"
)

// warnSuperuser logs a warning when the database role is a PostgreSQL
// superuser (docs/operations.md, "The database role"): such a role can drop
// or disable the triggers that keep history append-only.
func warnSuperuser(ctx context.Context, st *store.Store, log *slog.Logger) {
	super, err := st.Superuser(ctx)
	if err != nil {
		log.Warn("could not tell whether the database role is a superuser", "err", err)
		return
	}
	if super {
		log.Warn("the database role is a PostgreSQL superuser: it can switch off the triggers that keep results append-only; run kisen as an ordinary role (docs/operations.md, \"The database role\")",
			"role_superuser", true)
	}
}
