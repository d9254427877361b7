package events

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// organiserInput is the organiser form.
type organiserInput struct {
	Name   string `form:"name"`
	NameEn string `form:"name_en"`
	Kind   string `form:"kind"`
	Note   string `form:"note"`
}

func (in organiserInput) office() office.OrganiserInput {
	return office.OrganiserInput{Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, Note: in.Note}
}

// organiserRoutes are registered from eventRoutes (organisers own events).
func (s *Room) OrganiserRoutes(e *echo.Echo) {
	e.GET("/organisers", s.organisersPage, site.RequireAdmin)
	e.POST("/organisers", s.organiserCreate, site.RequireAdmin)
	e.GET("/organisers/:id/edit", s.organiserEdit, site.RequireAdmin)
	e.POST("/organisers/:id", s.organiserUpdate, site.RequireAdmin)
	e.GET("/organisers/:id/handicap", s.organiserHandicapPage, site.RequireAdmin) // organiser_handicap.go
	e.POST("/organisers/:id/handicap", s.organiserHandicapSave, site.RequireAdmin)
}

func (s *Room) organisersPage(c echo.Context) error {
	return s.renderOrganisers(c, http.StatusOK, organiserInput{Kind: office.OrganiserFederation}, nil)
}

func (s *Room) renderOrganisers(c echo.Context, status int, in organiserInput, errs site.FieldMsgs) error {
	ctx := c.Request().Context()
	orgs, err := s.Office.Organisers(ctx, site.Actor(c))
	if err != nil {
		return err
	}
	return s.Render(c, status, OrganisersPage(s.Page(c, site.L(ctx).T("events.organisers.title")), orgs, in, errs))
}

func (s *Room) organiserCreate(c echo.Context) error {
	ctx := c.Request().Context()
	var in organiserInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	_, err := s.Office.CreateOrganiser(ctx, site.Actor(c), in.office())
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderOrganisers(c, http.StatusUnprocessableEntity, in, msgs)
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/organisers")
}

func (s *Room) organiserEdit(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	org, err := s.Office.Organiser(ctx, site.Actor(c), id)
	if err != nil {
		return err
	}
	in := organiserInput{Name: org.Name, NameEn: org.NameEn, Kind: org.Kind, Note: org.Note}
	return s.Render(c, http.StatusOK, OrganiserEditPage(s.Page(c, site.L(ctx).T("events.organisers.edit")), org, in, nil))
}

func (s *Room) organiserUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	var in organiserInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	err = s.Office.UpdateOrganiser(ctx, site.Actor(c), id, in.office())
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.Render(c, http.StatusUnprocessableEntity,
			OrganiserEditPage(s.Page(c, site.L(ctx).T("events.organisers.edit")), office.Organiser{ID: id}, in, msgs))
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, "/organisers")
}
