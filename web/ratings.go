package web

import "github.com/labstack/echo/v4"

// ratingRoutes: ratings and player records (issue 7).
func (s *Server) ratingRoutes(e *echo.Echo) {}
