package events

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// organiserHandicapView is the organiser's 手合割 table page (D-H, 004).
type organiserHandicapView struct {
	OrganiserID int64
	Name        string
	Table       string // as the form reads it
	Own         bool   // false: pairing's default table is in force
}

// organiserHandicapPage shows the organiser's table in the form
// (administrators, like the rest of the organiser's settings).
func (s *Room) organiserHandicapPage(c echo.Context) error {
	return s.renderOrganiserHandicap(c, http.StatusOK, nil, nil)
}

func (s *Room) renderOrganiserHandicap(c echo.Context, status int, typed *string, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	h, err := s.Office.OrganiserHandicapTable(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	v := organiserHandicapView{OrganiserID: id, Name: site.LocalName(ctx, h.Organiser.Name, h.Organiser.NameEn),
		Table: office.FormatHandicapTable(h.Table), Own: h.Own}
	if typed != nil {
		v.Table = *typed
	}
	return s.Render(c, status, OrganiserHandicapPage(s.Page(c, v.Name+" — "+site.L(ctx).T("knockout.organiser_handicap.title")), v, errs))
}

// organiserHandicapSave saves the table (POST → 303 back to the page); a
// table pairing refuses comes back with the reason next to it (422).
func (s *Room) organiserHandicapSave(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	table := c.FormValue("table")
	err = s.Office.SetOrganiserHandicapTable(ctx, site.Actor(c), id, table)
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderOrganiserHandicap(c, http.StatusUnprocessableEntity, &table, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, c.Request().URL.Path)
}
