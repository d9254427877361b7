package web

import "github.com/labstack/echo/v4"

// playerRoutes: the player registry, lineage and CSV.
func (s *Server) playerRoutes(e *echo.Echo) {}
