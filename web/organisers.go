package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/office"
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
func (s *Server) organiserRoutes(e *echo.Echo) {
	e.GET("/organisers", s.organisersPage, requireAdmin)
	e.POST("/organisers", s.organiserCreate, requireAdmin)
	e.GET("/organisers/:id/edit", s.organiserEdit, requireAdmin)
	e.POST("/organisers/:id", s.organiserUpdate, requireAdmin)
	e.GET("/organisers/:id/handicap", s.organiserHandicapPage, requireAdmin) // organiser_handicap.go
	e.POST("/organisers/:id/handicap", s.organiserHandicapSave, requireAdmin)
}

func (s *Server) organisersPage(c echo.Context) error {
	return s.renderOrganisers(c, http.StatusOK, organiserInput{Kind: office.OrganiserFederation}, nil)
}

func (s *Server) renderOrganisers(c echo.Context, status int, in organiserInput, errs fieldMsgs) error {
	ctx := c.Request().Context()
	orgs, err := s.office.Organisers(ctx, actor(c))
	if err != nil {
		return err
	}
	return s.render(c, status, OrganisersPage(s.page(c, L(ctx).T("events.organisers.title")), orgs, in, errs))
}

func (s *Server) organiserCreate(c echo.Context) error {
	ctx := c.Request().Context()
	var in organiserInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	_, err := s.office.CreateOrganiser(ctx, actor(c), in.office())
	if msgs, ok := fieldMsgsOf(ctx, err); ok {
		return s.renderOrganisers(c, http.StatusUnprocessableEntity, in, msgs)
	}
	if err != nil {
		return err
	}
	return seeOther(c, "/organisers")
}

func (s *Server) organiserEdit(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	org, err := s.office.Organiser(ctx, actor(c), id)
	if err != nil {
		return err
	}
	in := organiserInput{Name: org.Name, NameEn: org.NameEn, Kind: org.Kind, Note: org.Note}
	return s.render(c, http.StatusOK, OrganiserEditPage(s.page(c, L(ctx).T("events.organisers.edit")), org, in, nil))
}

func (s *Server) organiserUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var in organiserInput
	if err := c.Bind(&in); err != nil {
		return err
	}
	err = s.office.UpdateOrganiser(ctx, actor(c), id, in.office())
	if msgs, ok := fieldMsgsOf(ctx, err); ok {
		return s.render(c, http.StatusUnprocessableEntity,
			OrganiserEditPage(s.page(c, L(ctx).T("events.organisers.edit")), office.Organiser{ID: id}, in, msgs))
	}
	if err != nil {
		return err
	}
	return seeOther(c, "/organisers")
}
