package main

import "context"

func runDraw(ctx context.Context, e env) int {
	return subcommand(ctx, e, "draw", map[string]command{
		"bracket":        runDrawBracket,
		"league":         runDrawLeague,
		"swiss":          runDrawSwiss,
		"pools":          runDrawPools,
		"final":          runDrawFinal,
		"ranking-groups": runDrawRankingGroups,
	})
}
