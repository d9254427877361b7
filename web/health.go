package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// healthz says the process is up; it touches nothing else.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz says the process can serve: the database answers.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.Office.Ping(ctx); err != nil {
		s.Log.Warn("readyz: database ping failed", "err", err)
		c.Response().Header().Set("Retry-After", strconv.Itoa(s.RetryAfterSeconds()))
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "database": string(s.Office.Dialect())})
}
