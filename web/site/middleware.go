package site

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"kisen/office"
)

// contentSecurityPolicy allows no inline script and nothing from elsewhere.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

func SecurityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		return next(c)
	}
}

// requestLogger writes one slog line per request with its request id.
func (s *Server) RequestLogger() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true,
		LogRequestID: true, LogRemoteIP: true, LogRoutePath: true, LogError: true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			attrs := []slog.Attr{
				slog.String("request_id", v.RequestID),
				slog.String("method", v.Method),
				slog.String("uri", v.URI),
				slog.String("route", v.RoutePath),
				slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency),
				slog.String("remote_ip", v.RemoteIP),
			}
			if v.Error != nil {
				attrs = append(attrs, slog.String("err", v.Error.Error()))
			}
			s.Log.LogAttrs(c.Request().Context(), level, "request", attrs...)
			return nil
		},
	})
}

// language picks the request's language: ?lang=, then the lang cookie,
// then Japanese.
func (s *Server) Language(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang := "ja"
		if ck, err := c.Cookie("lang"); err == nil && ck.Value == "en" {
			lang = "en"
		}
		if q := c.QueryParam("lang"); q == "en" || q == "ja" {
			lang = q
		}
		lz := s.Msgs.For(lang)
		c.Set("lang", lz.Lang)
		c.SetRequest(c.Request().WithContext(WithLocalizer(c.Request().Context(), lz)))
		return next(c)
	}
}

type ActorKey struct{}

// sessionUserKey is the session entry that holds the signed-in user's id.
const SessionUserKey = "user_id"

// loadActor reads the signed-in user (if any) from the session.
func (s *Server) LoadActor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		var a office.Actor
		if id := s.Sessions.GetInt64(ctx, SessionUserKey); id != 0 {
			u, err := s.Office.SignedInUser(ctx, id)
			switch {
			case err == nil && !u.Disabled:
				a = office.Actor{UserID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Admin: u.IsAdmin}
			case err == nil || errors.Is(err, office.ErrNotFound):
				s.Sessions.Remove(ctx, SessionUserKey)
			default:
				return err
			}
		}
		c.SetRequest(c.Request().WithContext(context.WithValue(ctx, ActorKey{}, a)))
		return next(c)
	}
}

// ActorFrom returns who makes the request (the zero Actor for the public).
func ActorFrom(ctx context.Context) office.Actor {
	a, _ := ctx.Value(ActorKey{}).(office.Actor)
	return a
}

func Actor(c echo.Context) office.Actor { return ActorFrom(c.Request().Context()) }

// requireUser sends the public to the login page. An htmx request (a
// preview clicked after signing out elsewhere) would follow a redirect and
// put the login page inside the slot, so it is told to load the login
// page as a whole instead, coming back to the page it was on (issue 13).
func RequireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if Actor(c).Anonymous() {
			if IsHTMX(c) {
				back := "/"
				if u, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil {
					back = SafeNext(u.RequestURI())
				}
				c.Response().Header().Set("HX-Redirect", "/login?next="+url.QueryEscape(back))
				return c.NoContent(http.StatusUnauthorized)
			}
			return c.Redirect(http.StatusSeeOther, "/login?next="+SafeNext(c.Request().URL.RequestURI()))
		}
		return next(c)
	}
}

// requireAdmin allows administrators only (office checks again).
func RequireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return RequireUser(func(c echo.Context) error {
		if err := Actor(c).RequireAdmin(); err != nil {
			return err
		}
		return next(c)
	})
}

// csrfCookie holds the browser's CSRF token (pages carry it too).
const CSRFCookie = "kisen_csrf"

// csrf protects every state-changing request: Sec-Fetch-Site from modern
// browsers, and a token (form field _csrf or header X-CSRF-Token) otherwise.
func (s *Server) CSRF() echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		// The API never reads the session cookie (its actor is the bearer
		// token or the public, apiActor), so a forged cross-site request
		// carries no authority there; every other route keeps the check.
		Skipper:        IsAPIPath,
		TokenLookup:    "form:_csrf,header:X-CSRF-Token",
		CookieName:     CSRFCookie,
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSecure:   s.Config.SecureCookies,
		CookieSameSite: http.SameSiteStrictMode,
		ContextKey:     "csrf",
		ErrorHandler: func(err error, c echo.Context) error {
			return echo.NewHTTPError(http.StatusForbidden, "csrf").SetInternal(err)
		},
	})
}

func csrfToken(c echo.Context) string {
	t, _ := c.Get("csrf").(string)
	return t
}

// metricsMiddleware counts requests and their latency by route template.
func (s *Server) MetricsMiddleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		status := c.Response().Status
		if err != nil {
			var he *echo.HTTPError
			if errors.As(err, &he) {
				status = he.Code
			}
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		s.metrics.requests.WithLabelValues(c.Request().Method, route, strconv.Itoa(status)).Inc()
		s.metrics.latency.WithLabelValues(c.Request().Method, route).Observe(time.Since(start).Seconds())
		return err
	}
}
