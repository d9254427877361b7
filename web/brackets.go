package web

import "github.com/labstack/echo/v4"

// bracketRoutes: knockout stages, draws and brackets (issue 5).
func (s *Server) bracketRoutes(e *echo.Echo) {}
