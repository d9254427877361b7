package site

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Defaults that hold everywhere (issue 21 item 12, docs/security.md).

// headAsGet answers HEAD wherever GET is answered: echo routes HEAD only
// to routes registered for HEAD, so before routing a HEAD request is
// routed, and handled, as a GET, with the same status and headers; its
// body is thrown away (headWriter), whatever server runs the handler. The
// request's method is HEAD again before the first header reaches net/http,
// which then also knows to send no body. A live stream ends after its
// headers: its first flush cancels the request's context.
func HeadAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodHead {
			return next(c)
		}
		// echo routes by the method of this very request (ServeHTTP keeps
		// it), so it is changed in place, and changed back after.
		r.Method = http.MethodGet
		defer func() { r.Method = http.MethodHead }()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		c.SetRequest(r.WithContext(ctx))
		res := c.Response()
		res.Writer = &headWriter{ResponseWriter: res.Writer, req: r, cancel: cancel}
		return next(c)
	}
}

// headWriter keeps the headers and drops the body of a HEAD answer.
type headWriter struct {
	http.ResponseWriter
	req    *http.Request // the server's own request: HEAD again on the way out
	cancel context.CancelFunc
}

func (w *headWriter) WriteHeader(code int) {
	w.req.Method = http.MethodHead
	w.ResponseWriter.WriteHeader(code)
}

func (w *headWriter) Write(b []byte) (int, error) { return len(b), nil }

// Flush sends the headers; on an event stream it also ends the handler, as
// a HEAD has no body to wait for.
func (w *headWriter) Flush() {
	w.req.Method = http.MethodHead
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	if strings.HasPrefix(w.Header().Get(echo.HeaderContentType), "text/event-stream") {
		w.cancel()
	}
}

func (w *headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// rotateCSRF gives the browser a new CSRF token at sign-in and sign-out, so
// a token planted in the browser before (a cookie set by a neighbouring
// site, a token read from a shared computer) is worthless after: the
// cookie the CSRF middleware set earlier in this answer is replaced.
func (s *Server) RotateCSRF(c echo.Context) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	token := base64.RawURLEncoding.EncodeToString(b)
	h := c.Response().Header()
	kept := h.Values(echo.HeaderSetCookie)
	h.Del(echo.HeaderSetCookie)
	for _, v := range kept {
		if !strings.HasPrefix(v, CSRFCookie+"=") {
			h.Add(echo.HeaderSetCookie, v)
		}
	}
	c.SetCookie(&http.Cookie{
		Name: CSRFCookie, Value: token, Path: "/", MaxAge: 86400,
		HttpOnly: true, Secure: s.Config.SecureCookies, SameSite: http.SameSiteStrictMode,
	})
	c.Set("csrf", token)
}
