package web

import (
	"context"

	"github.com/labstack/echo/v4"
)

// accountRoutes: setup, login, logout, password, users and roles.
func (s *Server) accountRoutes(e *echo.Echo) {}

// SetupLink returns the one-time link to create the first administrator,
// or "" when an administrator exists.
func (s *Server) SetupLink(ctx context.Context, base string) (string, error) { return "", nil }
