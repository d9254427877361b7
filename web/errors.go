package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"kisen/office"
)

// handleError maps errors to a status and a safe localised page; the real
// error goes to the log with the request id.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
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
		case status < 500:
			msg = "error.invalid"
		}
	}
	if status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed",
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
	_ = s.render(c, status, ErrorPage(s.page(c, lz.T(msg)), status, msg))
}

func wantsJSON(c echo.Context) bool {
	accept := c.Request().Header.Get(echo.HeaderAccept)
	return accept == echo.MIMEApplicationJSON
}
