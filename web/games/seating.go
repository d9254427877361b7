package games

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// seatView is the game page's 上座 line (D-Z1/D-Z2, docs/seating.md): who
// sits at the 上座 and so tosses the 振り駒 (000 第7条1), why, and the
// organiser's form to set it aside with a reason.
type seatView struct {
	Joza        string // "上座: name (reason)" in words; "" without both players
	CanOverride bool
	Players     [2]seatChoice
	Reason      string // the form's reason as typed
}

type seatChoice struct {
	ID   int64
	Name string
}

// seatOf fills the 上座 line of a game the page has read.
func (s *Room) seatOf(ctx context.Context, a office.Actor, g office.Game, sente, gote string) (seatView, error) {
	j, ok, err := s.Office.JozaOfGame(ctx, g)
	if err != nil || !ok {
		return seatView{}, err
	}
	name := sente
	if j.PlayerID == *g.GotePlayerID {
		name = gote
	}
	reason := site.T(ctx, "seating.reason."+string(j.Reason), "Note", j.Note)
	v := seatView{Joza: site.T(ctx, "seating.page.joza", "Name", name, "Reason", reason)}
	v.CanOverride = g.StartedAt == nil && s.Office.RequireEventRole(ctx, a, g.EventID, office.RoleDirector) == nil
	v.Players = [2]seatChoice{{*g.SentePlayerID, sente}, {*g.GotePlayerID, gote}}
	return v, nil
}

type seatForm struct {
	Joza   int64  `form:"joza"`
	Reason string `form:"reason"`
}

// seatSave records the organiser's choice of the 上座 with its reason
// (POST → 303 back to the game).
func (s *Room) seatSave(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var f seatForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	err = s.Office.OverrideJoza(c.Request().Context(), site.Actor(c), office.SeatOverrideInput{GameID: id, JozaID: f.Joza, Reason: f.Reason})
	if err != nil {
		return s.formError(c, id, gameForms{Seat: f, Open: "seat"}, err)
	}
	return site.SeeOther(c, "/games/"+strconv.FormatInt(id, 10)+"#seat")
}
