package web

import "github.com/labstack/echo/v4"

// eventRoutes: organisers and their events.
func (s *Server) eventRoutes(e *echo.Echo) {}
