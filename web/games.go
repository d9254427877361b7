package web

import "github.com/labstack/echo/v4"

// gameRoutes: game pages for arbiters and recorders (issue 4).
func (s *Server) gameRoutes(e *echo.Echo) {}
