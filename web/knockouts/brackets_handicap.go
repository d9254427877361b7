package knockouts

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// handicapView is the 手合割 settings page of an event (D-H, 004).
type handicapView struct {
	EventID   int64
	EventName string
	ByRank    bool
	Table     string
	Default   bool
	Amateur   bool
	CanEdit   bool
}

type handicapForm struct {
	ByRank string `form:"handicap_by_rank"`
	Table  string `form:"table"`
}

// handicapPage shows an event's 手合割 switch and table; its directors get
// the form.
func (s *Room) handicapPage(c echo.Context) error {
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	if done, err := s.Conditional(c, func(context.Context) (int64, error) { return id, nil }, site.CondOpts{NotLive: true}); done || err != nil {
		return err
	}
	return s.renderHandicap(c, http.StatusOK, id, nil, nil)
}

func (s *Room) renderHandicap(c echo.Context, status int, id int64, in *handicapForm, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	a := site.Actor(c)
	e, err := s.Office.Event(ctx, a, id)
	if err != nil {
		return err
	}
	h, err := s.Office.EventHandicap(ctx, a, id)
	if err != nil {
		return err
	}
	v := handicapView{EventID: id, EventName: site.LocalName(ctx, e.Name, e.NameEn), ByRank: h.On, Table: office.FormatHandicapTable(h.Table),
		Default: h.Default, Amateur: h.Amateur, CanEdit: s.Office.RequireEventRole(ctx, a, id, office.RoleDirector) == nil}
	if in != nil {
		v.ByRank, v.Table = in.ByRank != "", in.Table
	}
	site.MarkDraft(c, office.IsDraft(e))
	return s.Render(c, status, HandicapPage(s.Page(c, v.EventName+" — "+site.L(ctx).T("knockout.handicap.title")), v, errs))
}

func (s *Room) handicapSave(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var in handicapForm
	if err := c.Bind(&in); err != nil {
		return err
	}
	err = s.Office.SetEventHandicap(ctx, site.Actor(c), office.HandicapInput{EventID: id, ByRank: in.ByRank != "", Table: in.Table})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderHandicap(c, http.StatusUnprocessableEntity, id, &in, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/events/"+c.Param("id")+"/handicap")
}
