package knockouts

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// csvColumns are the documented columns of a stage's CSV export.
var csvColumns = []string{"stage", "round", "game", "player_1", "player_2", "status", "winner", "kind", "result", "reason", "redos", "scheduled_on", "game_id", "game_label"}

// stageCSV exports a stage's draw and results (UTF-8 with a BOM so Excel
// reads the Japanese names). Public for published stages.
func (s *Room) stageCSV(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.NotModifiedStage(c, id); done || err != nil {
		return err
	}
	st, err := s.Office.Stage(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v, err := s.BracketsView(ctx, site.Actor(c), st.EventID)
	if err != nil {
		return err
	}
	var sv *StageView
	for i := range v.Stages {
		if v.Stages[i].ID == id {
			sv = &v.Stages[i]
		}
	}
	if sv == nil {
		return fmt.Errorf("stage %d: %w", id, office.ErrNotFound)
	}
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := office.NewCSVWriter(&buf)
	_ = w.Write(csvColumns)
	row := func(round string, g BracketGameView) {
		winner := ""
		for _, sd := range g.Sides {
			if sd.Winner {
				winner = sd.Name
			}
		}
		name := func(sd BracketSide) string {
			if sd.Bye {
				return "-"
			}
			return sd.Name
		}
		gid := ""
		if g.GameID != 0 {
			gid = strconv.FormatInt(g.GameID, 10)
		}
		// The round, the redo count, the game id, the game's name (Kisen's
		// own words) and a bye's "-" are Kisen's own; every other cell is
		// neutralised.
		own := []int{1, 10, 12, 13}
		for i, sd := range g.Sides {
			if sd.Bye {
				own = append(own, 3+i)
			}
		}
		_ = w.Write([]string{sv.Name, round, g.ID, name(g.Sides[0]), name(g.Sides[1]), g.Status, winner, g.Kind, g.Result, g.Reason,
			strconv.Itoa(g.Redos), g.Date, gid, g.Label}, own...)
	}
	for r, round := range sv.Rounds {
		for _, g := range round {
			row(strconv.Itoa(r+1), g)
		}
	}
	if sv.Third != nil {
		row("3P", *sv.Third)
	}
	for _, g := range sv.Series {
		row("S", g)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="stage-%d.csv"`, id))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}
