package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

func (s *Server) home(c echo.Context) error {
	lz := L(c.Request().Context())
	return s.render(c, http.StatusOK, HomePage(s.page(c, lz.T("home.title"))))
}
