package leagues

import (
	"context"
	"errors"

	"kisen/league"
	"kisen/office"
	"kisen/web/site"
)

// drawLimitMessage localises the draw's size and time limits
// (docs/league-draw-limits.md), or returns "" for other errors. Running out
// of time is said apart from "no schedule exists": it proves nothing.
func drawLimitMessage(ctx context.Context, err error) string {
	var big *office.ClassTooLargeError
	if errors.As(err, &big) {
		return site.L(ctx).TData("league_limits.too_many_players", map[string]any{"Count": big.Players, "Max": big.Max})
	}
	var late *office.DrawOutOfTimeError
	if errors.As(err, &late) {
		return site.L(ctx).TData("league_limits.out_of_time", map[string]any{"Seconds": late.Budget.Seconds()})
	}
	return ""
}

// rematchMinimality localises the report's D-C1 verdict.
func rematchMinimality(ctx context.Context, m string) string {
	switch m {
	case league.MinimalityProven:
		return site.T(ctx, "league_limits.rematch_proven")
	case league.MinimalityBestFound:
		return site.T(ctx, "league_limits.rematch_best_found")
	}
	return ""
}
