package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kisen/office"
	"kisen/office/ratings"
)

// runRating: kisen rating recompute [database flags as for serve].
func runRating(ctx context.Context, e env) int {
	return subcommand(ctx, e, "rating", map[string]command{
		"recompute": runRatingRecompute,
	})
}

// runRatingRecompute recomputes every rating from the full history and
// prints the summary as JSON: players rated, games used, games skipped by
// reason. The database is migrated first, like serve does, so a fresh
// install can run it.
func runRatingRecompute(ctx context.Context, e env) int {
	cfg, code := loadConfig("rating recompute", e)
	if code >= 0 {
		return code
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rating recompute: %v\n", err)
		return 1
	}
	defer st.Close()
	sum, err := ratings.New(office.New(st, time.Now)).RecomputeRatings(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen rating recompute: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		fmt.Fprintf(e.stderr, "kisen rating recompute: %v\n", err)
		return 1
	}
	return 0
}
