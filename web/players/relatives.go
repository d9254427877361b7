package players

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// relativeRoutes: a player's 肉親 (relatives), listed publicly like the
// rest of the registry; administrators add and remove pairs. The player
// page loads the section with htmx (RelativesHook) and links here.
func (s *Room) RelativeRoutes(e *echo.Echo) {
	e.GET("/players/:id/relatives", s.relativesPage)
	e.POST("/players/:id/relatives", s.relativesAdd, site.RequireAdmin)
	e.POST("/players/:id/relatives/:rid/delete", s.relativesRemove, site.RequireAdmin)
}

// relativeForm is the add form.
type relativeForm struct {
	Other    string `form:"other"`
	Relation string `form:"relation"`
}

// relativesView is the section's view model.
type relativesView struct {
	PlayerID   int64
	PlayerName string
	URL        string // the player's page
	CanEdit    bool
	Relatives  []relativeItem
	Form       relativeForm
	Errs       site.FieldMsgs
}

type relativeItem struct {
	ID       int64
	Name     string
	URL      string
	Relation string
}

func (s *Room) relativesPage(c echo.Context) error {
	return s.renderRelatives(c, http.StatusOK, relativesView{})
}

func (s *Room) renderRelatives(c echo.Context, status int, v relativesView) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	p, err := s.Office.Player(ctx, id)
	if err != nil {
		return err
	}
	rs, err := s.Office.Relatives(ctx, id)
	if err != nil {
		return err
	}
	v.PlayerID, v.PlayerName, v.URL, v.CanEdit = id, p.Name, site.PlayerURL(id), site.Actor(c).Admin
	for _, r := range rs {
		v.Relatives = append(v.Relatives, relativeItem{ID: r.ID, Name: r.Other.Name, URL: site.PlayerURL(r.Other.ID), Relation: r.Relation})
	}
	pg := s.Page(c, p.Name)
	if site.IsHTMX(c) && status == http.StatusOK {
		return s.Render(c, status, RelativesSection(pg, v))
	}
	return s.Render(c, status, RelativesPage(pg, v))
}

func (s *Room) relativesAdd(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	var f relativeForm
	if err := c.Bind(&f); err != nil {
		return err
	}
	_, err = s.Office.AddRelative(ctx, site.Actor(c), office.RelativeInput{PlayerID: id, Other: f.Other, Relation: f.Relation})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		return s.renderRelatives(c, http.StatusUnprocessableEntity, relativesView{Form: f, Errs: msgs})
	}
	if err != nil {
		return err
	}
	return site.SeeOther(c, site.PlayerURL(id)+"#relatives")
}

func (s *Room) relativesRemove(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := site.PathParam(c, "id")
	if err != nil {
		return err
	}
	rid, err := site.PathParam(c, "rid")
	if err != nil {
		return err
	}
	rs, err := s.Office.Relatives(ctx, id)
	if err != nil {
		return err
	}
	found := false
	for _, r := range rs {
		found = found || r.ID == rid
	}
	if !found {
		// Only a pair of this player may be removed from this player's page.
		return echo.NewHTTPError(http.StatusNotFound)
	}
	if err := s.Office.RemoveRelative(ctx, site.Actor(c), rid); err != nil {
		return err
	}
	return site.SeeOther(c, site.PlayerURL(id)+"#relatives")
}

func relativeDeleteURL(v relativesView, rid int64) string {
	return v.URL + "/relatives/" + strconv.FormatInt(rid, 10) + "/delete"
}
