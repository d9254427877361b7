package web

import "github.com/labstack/echo/v4"

// leagueRoutes: leagues and 順位戦 terms (issue 6).
func (s *Server) leagueRoutes(e *echo.Echo) {}
