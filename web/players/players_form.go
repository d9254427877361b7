package players

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// playerForm is the player form as posted (and shown again on errors).
type playerForm struct {
	Number      string `form:"number"`
	Name        string `form:"name"`
	Reading     string `form:"reading"`
	Kind        string `form:"kind"`
	Rank        string `form:"rank"`
	Class       string `form:"class"`
	Affiliation string `form:"affiliation"`
	BirthDate   string `form:"birth_date"`
	// 席次 facts (docs/seating.md): titles held, promoted to the present
	// 段 on, professional since.
	Titles    string `form:"titles"`
	RankSince string `form:"rank_since"`
	ProSince  string `form:"pro_since"`
}

func (f playerForm) input() office.PlayerInput {
	return office.PlayerInput{
		Number: f.Number, Name: f.Name, Reading: f.Reading, Kind: f.Kind, Rank: f.Rank,
		Class: f.Class, Affiliation: f.Affiliation, BirthDate: f.BirthDate,
		Seat: &office.SeatFactsInput{Titles: f.Titles, RankSince: f.RankSince, ProSince: f.ProSince},
	}
}

// playerFormView is what the form page needs.
type playerFormView struct {
	Action string
	Cancel string
	New    bool
	Form   playerForm
	Errs   playerErrs
}

func (s *Room) playersNew(c echo.Context) error {
	v := playerFormView{Action: "/players", Cancel: "/players", New: true, Form: playerForm{Kind: "professional"}}
	return s.renderPlayerForm(c, http.StatusOK, v)
}

func (s *Room) renderPlayerForm(c echo.Context, status int, v playerFormView) error {
	ctx := c.Request().Context()
	title := site.L(ctx).T("players.form.new_title")
	if !v.New {
		title = site.L(ctx).T("players.form.edit_title", "Name", v.Form.Name)
	}
	return s.Render(c, status, PlayerFormPage(s.Page(c, title), v))
}

func (s *Room) playersCreate(c echo.Context) error {
	ctx := c.Request().Context()
	var f playerForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	p, err := s.Office.CreatePlayer(ctx, site.Actor(c), f.input())
	if errs, ok := playerErrsOf(ctx, err); ok {
		return s.renderPlayerForm(c, http.StatusUnprocessableEntity, playerFormView{Action: "/players", Cancel: "/players", New: true, Form: f, Errs: errs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.PlayerURL(p.ID))
}

func (s *Room) playersEdit(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	p, err := s.Office.Player(ctx, id)
	if err != nil {
		return err
	}
	seat, err := s.Office.PlayerSeatFacts(ctx, id)
	if err != nil {
		return err
	}
	f := playerForm{
		Number: p.NumberOrEmpty(), Name: p.Name, Reading: p.Reading, Kind: string(p.Kind), Rank: p.Rank,
		Class: string(p.Class), Affiliation: p.Affiliation, BirthDate: p.BirthDate.String(),
		Titles: seat.Titles, RankSince: seat.RankSince, ProSince: seat.ProSince,
	}
	return s.renderPlayerForm(c, http.StatusOK, playerFormView{Action: site.PlayerURL(id), Cancel: site.PlayerURL(id), Form: f})
}

func (s *Room) playersUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f playerForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, err = s.Office.UpdatePlayer(ctx, site.Actor(c), id, f.input())
	if errs, ok := playerErrsOf(ctx, err); ok {
		return s.renderPlayerForm(c, http.StatusUnprocessableEntity, playerFormView{Action: site.PlayerURL(id), Cancel: site.PlayerURL(id), Form: f, Errs: errs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.PlayerURL(id))
}
