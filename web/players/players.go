package players

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// playerRoutes: the player registry, lineage and CSV. Reading is public;
// changes are for administrators (office checks again).
func (s *Room) PlayerRoutes(e *echo.Echo) {
	e.GET("/players", s.playersList)
	e.GET("/players/export.csv", s.playersExport)
	e.GET("/players/new", s.playersNew, site.RequireAdmin)
	e.POST("/players", s.playersCreate, site.RequireAdmin)
	e.GET("/players/import", s.playersImportForm, site.RequireAdmin)
	e.POST("/players/import", s.playersImport, site.RequireAdmin)
	e.GET("/players/:id", s.playersShow)
	e.GET("/players/:id/edit", s.playersEdit, site.RequireAdmin)
	e.POST("/players/:id", s.playersUpdate, site.RequireAdmin)
	e.GET("/players/:id/master", s.playersMasterForm, site.RequireAdmin)
	e.POST("/players/:id/master", s.playersMasterChange, site.RequireAdmin)
	e.POST("/players/:id/master/end", s.playersMasterEnd, site.RequireAdmin)
	e.POST("/players/:id/master/period", s.playersMasterPeriod, site.RequireAdmin)
}

// playersList is the list with its search; htmx gets only the table.
func (s *Room) playersList(c echo.Context) error {
	ctx := c.Request().Context()
	page, _ := strconv.Atoi(c.QueryParam("page"))
	pg, err := s.Office.SearchPlayers(ctx, strings.TrimSpace(c.QueryParam("q")), page)
	if err != nil {
		return err
	}
	v := playerListViewOf(pg, site.Actor(c).Admin)
	c.Response().Header().Add("Vary", "HX-Request")
	if site.IsHTMX(c) && c.Request().Header.Get("HX-History-Restore-Request") != "true" {
		return s.Render(c, http.StatusOK, PlayerTable(v))
	}
	return s.Render(c, http.StatusOK, PlayersPage(s.Page(c, site.L(ctx).T("players.title")), v))
}

// playersShow is a player's page with the lineage on ?on= (default today
// in Japan).
func (s *Room) playersShow(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	p, err := s.Office.Player(ctx, id)
	if err != nil {
		return err
	}
	on := s.Office.LineageDay()
	if d, ok := office.ParsePlayerDate(c.QueryParam("on")); ok && !d.IsZero() {
		on = d
	}
	l, err := s.Office.Lineage(ctx, id, on)
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, PlayerDetailPage(s.Page(c, p.Name), playerDetailViewOf(p, l, site.Actor(c).Admin)))
}

// playersExport sends the registry as CSV (built in memory first, so an
// error never sends half a file).
func (s *Room) playersExport(c echo.Context) error {
	var buf bytes.Buffer
	if err := s.Office.ExportPlayersCSV(c.Request().Context(), &buf); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="players.csv"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// playersImportForm is the upload page; after an import it shows the
// summary passed in the query (POST → 303 → GET).
func (s *Room) playersImportForm(c echo.Context) error {
	ctx := c.Request().Context()
	v := playerImportView{}
	if c.QueryParam("done") == "1" {
		n := func(k string) int { x, _ := strconv.Atoi(c.QueryParam(k)); return x }
		v.Done = &office.PlayerImportSummary{
			Created: n("created"), Updated: n("updated"), Unchanged: n("unchanged"), MastersChanged: n("masters"),
		}
	}
	return s.Render(c, http.StatusOK, PlayerImportPage(s.Page(c, site.L(ctx).T("players.import.title")), v))
}

// playerCSVLimit bounds an upload (the server's body limit is 8 MB).
const playerCSVLimit = 8 << 20

// playersImport takes the uploaded CSV; a file with any bad row writes
// nothing and lists every problem (422).
func (s *Room) playersImport(c echo.Context) error {
	ctx := c.Request().Context()
	title := site.L(ctx).T("players.import.title")
	fh, err := c.FormFile("file")
	if err != nil {
		v := playerImportView{Problems: []csvProblem{{Message: site.L(ctx).T("players.import.no_file")}}}
		return s.Render(c, http.StatusUnprocessableEntity, PlayerImportPage(s.Page(c, title), v))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, playerCSVLimit))
	if err != nil {
		return err
	}
	sum, err := s.Office.ImportPlayersCSV(ctx, site.Actor(c), data)
	if problems, ok := csvProblemsOf(ctx, err); ok {
		return s.Render(c, http.StatusUnprocessableEntity, PlayerImportPage(s.Page(c, title), playerImportView{Problems: problems}))
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, fmt.Sprintf("/players/import?done=1&created=%d&updated=%d&unchanged=%d&masters=%d",
		sum.Created, sum.Updated, sum.Unchanged, sum.MastersChanged))
}

// playerImportView is the import page: the form, a summary after success,
// or the problems of a refused file.
type playerImportView struct {
	Done     *office.PlayerImportSummary
	Problems []csvProblem
}

// playerCSVColumns is the documented header, shown on the import page.
func playerCSVColumns() string { return strings.Join(office.PlayerCSVColumns, ",") }

// playerKinds and playerClasses feed the form's choices.
var (
	PlayerKinds   = office.PlayerKinds
	playerClasses = office.PlayerClasses
)
