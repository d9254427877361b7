package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kisen/web/site"
)

// home is the public landing page; signed-in staff are sent to their
// start page instead (issue 13), which links back to the public pages.
func (s *Server) home(c echo.Context) error {
	if !site.Actor(c).Anonymous() {
		return c.Redirect(http.StatusSeeOther, "/start")
	}
	lz := site.L(c.Request().Context())
	return s.Render(c, http.StatusOK, site.HomePage(s.Page(c, lz.T("home.title"))))
}
