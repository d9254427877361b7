package knockouts

import (
	"context"

	"kisen/office"
	"kisen/web/site"
)

// RankingGroupView is a ranking group's losers' brackets and outcome as the
// stage's page shows them (issue 24 item 8, docs/ranking-groups.md).
type RankingGroupView struct {
	PlayoffName  string // 昇級者決定戦, or 出場者決定戦 in the top group
	Playoff      [][]BracketGameView
	PlayoffThird *BracketGameView
	Survival     [][]BracketGameView
	Rows         []RankingRow
	// Group is the group's number; Slots the 本戦 slots its table line
	// names, in its order (the 本戦 seating form, D-G4).
	Group int
	Slots []string
	// Finished: every player's next term is known (D-G4).
	Finished bool
}

// RankingRow is one player of the group: where they go next term
// (promoted, relegated, stays, undecided) and the 本戦 slot they fill.
type RankingRow struct {
	Name   string
	Status string
	Slot   string
}

// rankingGroupOf is sb's ranking view; nil for an ordinary stage. Every
// player is listed once, in the bracket's order (D-G4).
func rankingGroupOf(ctx context.Context, eb office.EventBracket, sb office.StageBracket, staff bool) *RankingGroupView {
	rv := sb.Ranking
	if rv == nil {
		return nil
	}
	v := &RankingGroupView{PlayoffName: site.T(ctx, "knockout.ranking.playoff"), Group: rv.Rule.Group,
		Finished: rv.Outcome.Finished && len(rv.Outcome.Undecided) == 0}
	for _, p := range rv.Rule.Places {
		v.Slots = append(v.Slots, p.Slot)
	}
	if rv.Rule.Group == 1 {
		v.PlayoffName = site.T(ctx, "knockout.ranking.playoff_top")
	}
	rounds := func(in [][]office.BracketGame, name string, toOne bool) [][]BracketGameView {
		out := make([][]BracketGameView, len(in))
		for r, round := range in {
			head := site.GroupRoundWords(ctx, r+1, len(in), toOne)
			for i, g := range round {
				gv := bracketGameOf(eb, g, staff)
				gv.Label = site.T(ctx, "knockout.ranking.game", "Bracket", name, "Round", site.GameInRound(ctx, head, len(round), i+1))
				out[r] = append(out[r], gv)
			}
		}
		return out
	}
	v.Playoff = rounds(rv.Playoff, v.PlayoffName, rv.Rule.Playoff != nil && rv.Rule.Playoff.Winners == 1)
	v.Survival = rounds(rv.Survival, site.T(ctx, "knockout.ranking.survival"), false)
	if tp := rv.PlayoffThird; tp != nil {
		gv := bracketGameOf(eb, *tp, staff)
		gv.Label = site.T(ctx, "knockout.ranking.game", "Bracket", v.PlayoffName, "Round", site.ThirdPlaceWords(ctx))
		v.PlayoffThird = &gv
	}
	status := map[string]string{}
	for _, l := range []struct {
		ids    []string
		status string
	}{{rv.Outcome.Promoted, "promoted"}, {rv.Outcome.Relegated, "relegated"}, {rv.Outcome.Stays, "stays"}, {rv.Outcome.Undecided, "undecided"}} {
		for _, id := range l.ids {
			status[id] = l.status
		}
	}
	slot := map[string]string{}
	for _, p := range rv.Outcome.Places {
		if p.Player != "" {
			slot[p.Player] = p.Slot
		}
	}
	for _, id := range sb.Slots {
		if _, ok := status[id]; !ok || id == "" {
			continue
		}
		v.Rows = append(v.Rows, RankingRow{Name: eb.PlayerName(id), Status: status[id], Slot: slot[id]})
	}
	return v
}
