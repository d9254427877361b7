package main

import "context"

func runRules(ctx context.Context, e env) int {
	return subcommand(ctx, e, "rules", map[string]command{
		"perft": runRulesPerft,
		"moves": runRulesMoves,
	})
}
