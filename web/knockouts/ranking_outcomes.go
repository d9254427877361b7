package knockouts

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"kisen/web/site"
)

// The term's outcome (issue 24 item 8, D-G4): every group of a ranking
// event side by side — its 本戦 places and who is promoted, stays, is
// relegated or still undecided — read-only, seen by whoever may see the
// event's brackets (the public once published).

// outcomeGroup is one group's column.
type outcomeGroup struct {
	StageID  int64
	Group    int
	Name     string
	Finished bool
	Places   []site.Choice // Label the slot, Value who fills it ("" while the group plays)
	Promoted []string
	Stays    []string
	Demoted  []string
	Pending  []string
}

// outcomeGroups are the event's groups from the top (1組 first).
func outcomeGroups(v bracketsView) []outcomeGroup {
	var out []outcomeGroup
	for _, sv := range v.Stages {
		r := sv.Ranking
		if r == nil {
			continue
		}
		g := outcomeGroup{StageID: sv.ID, Group: r.Group, Name: sv.Name, Finished: r.Finished}
		who := map[string]string{}
		for _, row := range r.Rows {
			if row.Slot != "" {
				who[row.Slot] = row.Name
			}
			switch row.Status {
			case "promoted":
				g.Promoted = append(g.Promoted, row.Name)
			case "relegated":
				g.Demoted = append(g.Demoted, row.Name)
			case "stays":
				g.Stays = append(g.Stays, row.Name)
			default:
				g.Pending = append(g.Pending, row.Name)
			}
		}
		for _, slot := range r.Slots {
			g.Places = append(g.Places, site.Choice{Label: slot, Value: who[slot]})
		}
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b outcomeGroup) int { return a.Group - b.Group })
	return out
}

// rankingOutcomesPage (GET /events/:id/ranking): the groups side by side,
// from the same reads as the bracket page (a fixed number of statements).
func (s *Room) rankingOutcomesPage(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	v, err := s.BracketsView(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	site.MarkDraft(c, v.Draft)
	title := v.EventName + " — " + site.T(ctx, "knockout.outcomes.title")
	return s.Render(c, http.StatusOK, RankingOutcomesPage(s.Page(c, title), v, outcomeGroups(v)))
}
