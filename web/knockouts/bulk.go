package knockouts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// bulkRoutes: paste entrants into a stage, paste many players (issue 13).
func (s *Room) BulkRoutes(e *echo.Echo) {
	e.POST("/stages/:id/entrants/bulk", s.stageAddEntrants, site.RequireUser)
	e.GET("/players/paste", s.playersPasteForm, site.RequireAdmin)
	e.POST("/players/paste", s.playersPaste, site.RequireAdmin)
}

// bulkProblem is one bad pasted line: its number and what is wrong, in
// the user's words.
type bulkProblem struct {
	Line    int
	Message string
}

// bulkProblemsOf lists every problem of a refused paste, in line order.
func bulkProblemsOf(ctx context.Context, err error) ([]bulkProblem, bool) {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	out := make([]bulkProblem, 0, len(ve.Fields))
	for _, f := range ve.Fields {
		msg := site.L(ctx).TData(f.Code, f.Args)
		if col := f.Field; col != "" && col != "lines" && f.Line > 0 {
			msg = site.T(ctx, "bulk.column_problem", "Column", bulkColumnLabel(ctx, col), "Message", msg)
		}
		out = append(out, bulkProblem{Line: f.Line, Message: msg})
	}
	slices.SortStableFunc(out, func(a, b bulkProblem) int { return a.Line - b.Line })
	return out, true
}

// bulkColumnLabel names a pasted column in the user's language.
func bulkColumnLabel(ctx context.Context, col string) string {
	if slices.Contains(office.PastedPlayerColumns, col) || col == office.PlayerFieldKind {
		return site.T(ctx, "bulk.column."+col)
	}
	return site.T(ctx, "bulk.column.other")
}

// stageAddEntrants adds the pasted players to a stage before its draw;
// a paste with any bad line stores nothing and lists every problem.
func (s *Room) stageAddEntrants(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	text := c.FormValue("lines")
	n, err := s.Office.AddEntrants(ctx, site.Actor(c), id, text)
	if problems, ok := bulkProblemsOf(ctx, err); ok {
		return s.renderStage(c, http.StatusUnprocessableEntity, id, stageManage{BulkText: text, BulkProblems: problems}, nil)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, fmt.Sprintf("%s?added=%d#entrants", site.StageURL(id), n))
}

// playersPasteView is the paste form, its text and problems after a
// refused paste, or the summary after a stored one.
type playersPasteView struct {
	Text     string
	Kind     string
	Problems []bulkProblem
	Done     *office.PlayerImportSummary
}

func (s *Room) playersPasteForm(c echo.Context) error {
	ctx := c.Request().Context()
	v := playersPasteView{Kind: string(office.PlayerAmateur)}
	if c.QueryParam("done") == "1" {
		var sum office.PlayerImportSummary
		_, _ = fmt.Sscanf(c.QueryParam("n"), "%d,%d,%d", &sum.Created, &sum.Updated, &sum.Unchanged)
		v.Done = &sum
	}
	return s.Render(c, http.StatusOK, PlayersPastePage(s.Page(c, site.T(ctx, "bulk.players.title")), v))
}

func (s *Room) playersPaste(c echo.Context) error {
	ctx := c.Request().Context()
	v := playersPasteView{Text: c.FormValue("lines"), Kind: c.FormValue("kind")}
	sum, err := s.Office.ImportPlayersPaste(ctx, site.Actor(c), v.Text, v.Kind)
	if problems, ok := bulkProblemsOf(ctx, err); ok {
		v.Problems = problems
		return s.Render(c, http.StatusUnprocessableEntity, PlayersPastePage(s.Page(c, site.T(ctx, "bulk.players.title")), v))
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, fmt.Sprintf("/players/paste?done=1&n=%d,%d,%d", sum.Created, sum.Updated, sum.Unchanged))
}
