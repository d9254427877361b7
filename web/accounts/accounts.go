package accounts

import (
	"context"
	"net/url"

	"github.com/labstack/echo/v4"

	"kisen/web/site"
)

// accountRoutes: setup, login, logout, password, users and roles.
func (s *Room) AccountRoutes(e *echo.Echo) {
	e.GET("/setup", s.setupForm)
	e.POST("/setup", s.setupSubmit)
	e.GET("/login", s.loginForm)
	e.POST("/login", s.loginSubmit)
	e.POST("/logout", s.logout)
	e.GET("/account", s.accountPage, site.RequireUser)
	e.POST("/account/password", s.passwordSubmit, site.RequireUser)
	e.GET("/users", s.usersPage, site.RequireAdmin)
	e.POST("/users", s.userCreate, site.RequireAdmin)
	e.POST("/users/:id/disabled", s.userSetDisabled, site.RequireAdmin)
	e.POST("/users/:id/admin", s.userSetAdmin, site.RequireAdmin)
}

// SetupLink returns the one-time link to create the first administrator,
// or "" when an administrator exists. Each call mints a new token (only
// its hash is stored); earlier links stay valid until they expire.
func (s *Room) SetupLink(ctx context.Context, base string) (string, error) {
	token, err := s.Office.Accounts().NewSetupToken(ctx)
	if err != nil || token == "" {
		return "", err
	}
	return base + "/setup?token=" + url.QueryEscape(token), nil
}

// signInAs starts a signed-in session for userID under a new session
// token, so a token planted before sign-in is worthless (fixation).
func (s *Room) signInAs(c echo.Context, userID int64) error {
	ctx := c.Request().Context()
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.Sessions.Put(ctx, site.SessionUserKey, userID)
	s.RotateCSRF(c)
	return nil
}

// clientIP is the address the login rate limit counts: the TCP peer, or
// the forwarded address when the peer is a trusted proxy (ipExtractor,
// --trusted-proxies).
func (s *Room) clientIP(c echo.Context) string { return c.RealIP() }
