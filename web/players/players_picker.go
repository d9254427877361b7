package players

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kisen/web/site"
)

// pickerLimit is how many candidates the 師匠 picker lists.
const PickerLimit = 10

// masterPick is the 師匠 picker's state: the search text, the candidates
// found, or the player chosen (ChosenID > 0).
type masterPick struct {
	Query      string
	Candidates []PickCandidate
	Searched   bool
	ChosenID   int64
	ChosenName string
	Exclude    int64 // the player whose master is being set
}

type PickCandidate struct {
	ID     int64
	Name   string
	Detail string // reading, number, rank
}

// pickerRoutes: the 師匠 picker's fragments (htmx; administrators, like
// the master form).
func (s *Room) PickerRoutes(e *echo.Echo) {
	e.GET("/players/picker", s.masterPicker, site.RequireAdmin)
	e.GET("/players/picker/choose", s.masterPickerChoose, site.RequireAdmin)
}

// masterPicker lists the players whose name or reading matches q (as the
// user types); each candidate can be clicked to choose it.
func (s *Room) masterPicker(c echo.Context) error {
	ctx := c.Request().Context()
	exclude, _ := strconv.ParseInt(c.QueryParam("exclude"), 10, 64)
	v := masterPick{Query: strings.TrimSpace(c.QueryParam("master_q")), Exclude: exclude}
	if v.Query != "" {
		pg, err := s.Office.SearchPlayers(ctx, v.Query, 1)
		if err != nil {
			return err
		}
		v.Searched = true
		for _, p := range pg.Players {
			if p.ID == exclude || len(v.Candidates) == PickerLimit {
				continue
			}
			detail := p.Reading
			if p.Number != nil {
				detail += " · " + *p.Number
			}
			if p.Rank != "" {
				detail += " · " + p.Rank
			}
			v.Candidates = append(v.Candidates, PickCandidate{ID: p.ID, Name: p.Name, Detail: detail})
		}
	}
	return s.Render(c, http.StatusOK, masterPickerResults(v))
}

// masterPickerChoose answers the picker with one player chosen.
func (s *Room) masterPickerChoose(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.QueryParam("id"), 10, 64)
	if err != nil || id <= 0 {
		return s.Render(c, http.StatusOK, MasterPicker(masterPick{}))
	}
	exclude, _ := strconv.ParseInt(c.QueryParam("exclude"), 10, 64)
	p, err := s.Office.Player(ctx, id)
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, MasterPicker(masterPick{ChosenID: p.ID, ChosenName: p.Name, Exclude: exclude}))
}
