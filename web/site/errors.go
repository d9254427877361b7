package site

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"kisen/office"
)

// handleError maps errors to a status and a safe localised page; the real
// error goes to the log with the request id.
func (s *Server) HandleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if IsAPIPath(c) && s.APIErrors != nil { // JSON in the API's shape (the API room sets it)
		s.APIErrors(err, c)
		return
	}
	// Checked first and by the classifier too, so a driver error that
	// reached here unwrapped is still a 503, never a 500.
	if office.IsUnavailable(err) {
		s.unavailable(err, c)
		return
	}
	// Text that cannot be stored (issue 11): 422 naming the field.
	var unstorable *UnstorableError
	if errors.As(err, &unstorable) && c.Request().Method != http.MethodHead {
		if rerr := s.renderUnstorable(c, unstorable); rerr == nil {
			return
		}
	}
	// Someone else entered a result first (issue 11): 409 with the result
	// now in force, in the user's language.
	var stale *office.StaleError
	if errors.As(err, &stale) && c.Request().Method != http.MethodHead && !wantsJSON(c) {
		if rerr := s.renderStale(c, stale); rerr == nil {
			return
		} else if errors.Is(rerr, office.ErrNotFound) {
			// A game the actor may not see: the answer a missing one
			// gets (issue 21), nothing of the conflict.
			err = rerr
		} else {
			s.Log.ErrorContext(c.Request().Context(), "stale page failed",
				"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", rerr)
		}
	}
	// A result for a game scheduled in the future (issue 13): ask once.
	if fe, ok := asFuture(err); ok && c.Request().Method != http.MethodHead && !wantsJSON(c) {
		if rerr := s.renderFutureResult(c, fe); rerr == nil {
			return
		}
	}
	status := http.StatusInternalServerError
	msg := "error.internal"
	var he *echo.HTTPError
	switch {
	case errors.Is(err, office.ErrNotFound):
		status, msg = http.StatusNotFound, "error.not_found"
	case errors.Is(err, office.ErrForbidden):
		status, msg = http.StatusForbidden, "error.forbidden"
	case errors.Is(err, office.ErrConflict):
		status, msg = http.StatusConflict, "error.conflict"
	case errors.Is(err, office.ErrInvalid):
		status, msg = http.StatusUnprocessableEntity, "error.invalid"
	case errors.Is(err, middleware.ErrCSRFInvalid):
		status, msg = http.StatusForbidden, "error.csrf"
	case errors.As(err, &he):
		status = he.Code
		switch {
		case he.Message == "csrf":
			msg = "error.csrf"
		case status == http.StatusNotFound:
			msg = "error.not_found"
		case status == http.StatusMethodNotAllowed:
			msg = "error.method"
		case status == http.StatusForbidden:
			msg = "error.forbidden"
		case status == http.StatusTooManyRequests:
			msg = "error.too_many"
		case status == http.StatusRequestEntityTooLarge:
			msg = "error.too_large"
		case status == http.StatusBadRequest:
			msg = "error.bad_request"
		case status < 500:
			msg = "error.invalid"
		}
	}
	if status >= 500 {
		s.Log.ErrorContext(c.Request().Context(), "request failed",
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	lz := L(c.Request().Context())
	if wantsJSON(c) {
		_ = c.JSON(status, map[string]any{"error": lz.T(msg), "code": msg, "status": status})
		return
	}
	if IsHTMX(c) {
		_ = s.Render(c, status, ErrorFragment(status, msg))
		return
	}
	_ = s.Render(c, status, ErrorPage(s.Page(c, lz.T(msg)), status, msg))
}

func wantsJSON(c echo.Context) bool {
	accept := c.Request().Header.Get(echo.HeaderAccept)
	return accept == echo.MIMEApplicationJSON
}

// retryAfterSeconds is the Retry-After setting in whole seconds (at least 1).
func (s *Server) RetryAfterSeconds() int {
	secs := int(math.Ceil(s.Config.RetryAfter.Seconds()))
	if secs < 1 {
		secs = 5
	}
	return secs
}

// unavailable answers 503 with Retry-After while the database cannot be
// reached: a localised page, a fragment for htmx, or JSON. Writes were not
// acknowledged, so the client may simply try again.
func (s *Server) unavailable(err error, c echo.Context) {
	const msg = "error.unavailable"
	status := http.StatusServiceUnavailable
	secs := s.RetryAfterSeconds()
	s.Log.WarnContext(c.Request().Context(), "database unavailable",
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	lz := L(c.Request().Context())
	switch {
	case wantsJSON(c):
		_ = c.JSON(status, map[string]any{"error": lz.T(msg), "code": msg, "status": status, "retry_after": secs})
	case IsHTMX(c):
		_ = s.Render(c, status, UnavailableFragment(secs))
	default:
		_ = s.Render(c, status, UnavailablePage(s.Page(c, lz.T(msg)), secs))
	}
}

func IsAPIPath(c echo.Context) bool {
	p := c.Request().URL.Path
	return p == "/api" || strings.HasPrefix(p, "/api/")
}
