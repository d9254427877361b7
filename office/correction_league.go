package office

import (
	"context"
	"strconv"
	"time"

	"kisen/league"
	"kisen/store"
)

// leagueAffected lists the playoff games (パラマス) of e's classes that no
// longer match the standings: a correction of a league game can end the
// tie, change who tied, or change their order; a later playoff game then
// also loses the winner it was fed. Walking each class's playoff games in
// order, the first that does not match the stepladder the table now gives
// and every one after it are affected.
func leagueAffected(ctx context.Context, s *store.Store, e store.Event, now time.Time) ([]AffectedGame, error) {
	classes, err := s.LeagueClasses(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	var out []AffectedGame
	for _, c := range classes {
		made, err := s.LeaguePlayoffGames(ctx, c.ID)
		if err != nil || len(made) == 0 {
			if err != nil {
				return nil, err
			}
			continue
		}
		gs, err := s.GameSetOfEvent(ctx, e.ID)
		if err != nil {
			return nil, err
		}
		d, err := loadClassDetail(ctx, s, e, c)
		if err != nil {
			return nil, err
		}
		st, err := New(s, func() time.Time { return now }).standingsOf(ctx, d)
		if err != nil && len(st.Table.Rows) == 0 {
			return nil, err // the table itself, not the playoff that follows it
		}
		// The stepladder the table gives: from the playoff view when the
		// table could follow it (a settled playoff clears Table.Playoff),
		// else from the tied players themselves.
		var steps []league.PlayoffGame
		switch {
		case st.Playoff != nil:
			for _, g := range st.Playoff.Games {
				pg := league.PlayoffGame{Number: g.Number, Higher: leaguePlayerID(g.Higher), LowerFrom: g.LowerFrom}
				if g.LowerFrom == 0 {
					pg.Lower = leaguePlayerID(g.Lower)
				}
				steps = append(steps, pg)
			}
		case st.Table.Final && len(st.Table.Playoff) >= 2:
			if steps, err = league.Stepladder(st.Table.Playoff); err != nil {
				return nil, err
			}
		}
		var winners []string
		broken := false
		for i, m := range made {
			kg := store.KnockoutGame{BracketGame: "PO" + strconv.Itoa(m.Number), GameID: m.GameID}
			ch, err := readChain(gs, kg)
			if err != nil {
				return nil, err
			}
			ok := !broken && i < len(steps) && steps[i].Number == m.Number
			want := [2]string{}
			if ok {
				want = [2]string{steps[i].Higher, steps[i].Lower}
				if f := steps[i].LowerFrom; f > 0 {
					if f <= len(winners) && winners[f-1] != "" {
						want[1] = winners[f-1]
					} else {
						ok = false
					}
				}
			}
			if ok {
				have := firstPlayers(ch)
				ok = have[0] == want[0] && have[1] == want[1] || have[0] == want[1] && have[1] == want[0]
			}
			if !ok {
				broken = true
				a, err := affectedGame(ctx, s, store.KnockoutStage{Name: c.Class}, ch, 0)
				if err != nil {
					return nil, err
				}
				a.AfterStatus = "gone"
				if want[0] != "" && want[1] != "" {
					a.AfterStatus = "ready"
					a.After[0], _ = playerOfLeagueID(want[0])
					a.After[1], _ = playerOfLeagueID(want[1])
				}
				out = append(out, a)
				continue
			}
			w := ""
			if ch.decided {
				w, _ = ch.winnerOf()
			}
			winners = append(winners, w)
		}
	}
	return out, nil
}
