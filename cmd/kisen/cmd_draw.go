package main

import "context"

func runDraw(ctx context.Context, e env) int {
	return subcommand(ctx, e, "draw", map[string]command{
		"bracket": runDrawBracket,
		"league":  runDrawLeague,
		"swiss":   runDrawSwiss,
		"pools":   runDrawPools,
		"final":   runDrawFinal,
		// 団体戦 (issue 25, cmd_draw_team.go)
		"team-swiss":     runDrawTeamSwiss,
		"team-league":    runDrawTeamLeague,
		"team-standings": runDrawTeamStandings,
		"ranking-groups": runDrawRankingGroups,
	})
}
