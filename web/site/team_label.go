package site

import (
	"context"
	"regexp"
	"strconv"
)

// reTeamBoardLabel is a team board game's stored label (office/teams
// StartMatch: 「第1回戦 第2卓 3将」).
var reTeamBoardLabel = regexp.MustCompile(`^第(\d+)回戦 第(\d+)卓 (\d+)将$`)

// teamBoardLabel says a team board game's label in the reader's language
// ("Round 1, table 2, board 3"); ok is false for any other label.
func teamBoardLabel(ctx context.Context, label string) (string, bool) {
	m := reTeamBoardLabel.FindStringSubmatch(label)
	if m == nil {
		return "", false
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return T(ctx, "team_records.game_label", "Round", n(m[1]), "Table", n(m[2]), "Board", n(m[3])), true
}
