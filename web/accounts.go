package web

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// accountRoutes: setup, login, logout, password, users and roles.
func (s *Server) accountRoutes(e *echo.Echo) {
	e.GET("/setup", s.setupForm)
	e.POST("/setup", s.setupSubmit)
	e.GET("/login", s.loginForm)
	e.POST("/login", s.loginSubmit)
	e.POST("/logout", s.logout)
	e.GET("/account", s.accountPage, requireUser)
	e.POST("/account/password", s.passwordSubmit, requireUser)
	e.GET("/users", s.usersPage, requireAdmin)
	e.POST("/users", s.userCreate, requireAdmin)
	e.POST("/users/:id/disabled", s.userSetDisabled, requireAdmin)
	e.POST("/users/:id/admin", s.userSetAdmin, requireAdmin)
}

// SetupLink returns the one-time link to create the first administrator,
// or "" when an administrator exists. Each call mints a new token (only
// its hash is stored); earlier links stay valid until they expire.
func (s *Server) SetupLink(ctx context.Context, base string) (string, error) {
	token, err := s.office.Accounts().NewSetupToken(ctx)
	if err != nil || token == "" {
		return "", err
	}
	return base + "/setup?token=" + url.QueryEscape(token), nil
}

// signInAs starts a signed-in session for userID under a new session
// token, so a token planted before sign-in is worthless (fixation).
func (s *Server) signInAs(c echo.Context, userID int64) error {
	ctx := c.Request().Context()
	if err := s.sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.sessions.Put(ctx, sessionUserKey, userID)
	s.rotateCSRF(c)
	return nil
}

// clientIP is the address the login rate limit counts: the TCP peer, or
// the forwarded address when the peer is a trusted proxy (ipExtractor,
// --trusted-proxies).
func (s *Server) clientIP(c echo.Context) string { return c.RealIP() }

// fieldMsgs holds one localised message per form field; "" is for the
// form as a whole.
type fieldMsgs map[string]string

// fieldMsgsOf localises a validation error; ok is false for other errors.
func fieldMsgsOf(ctx context.Context, err error) (fieldMsgs, bool) {
	var ve *office.ValidationError
	if !errors.As(err, &ve) {
		return nil, false
	}
	lz := L(ctx)
	out := fieldMsgs{}
	for _, f := range ve.Fields {
		if _, seen := out[f.Field]; !seen {
			out[f.Field] = lz.TData(f.Code, wordArgs(ctx, f.Args))
		}
	}
	return out, true
}

// tokyo is how times are shown (Japan has no daylight saving time).
var tokyo = time.FixedZone("JST", 9*60*60)

// showTime formats a stored UTC time in Japan time.
func showTime(t time.Time) string { return t.In(tokyo).Format("2006-01-02 15:04") }

// localName picks the English name on English pages when there is one.
func localName(ctx context.Context, ja, en string) string {
	if Lang(ctx) == "en" && en != "" {
		return en
	}
	return ja
}
