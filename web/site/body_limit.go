package site

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// bodyLimitBytes is bodyLimit in bytes; drainLimit is how much of an
// over-limit body the server still reads (and throws away) before it
// answers 413, and drainTime how long it waits for it.
//
// Why read a body only to refuse it: when a handler answers before the
// body is read, net/http closes the connection after the answer, while
// the browser is still sending. Chromium then reports a reset connection
// and never shows the answer, so a 9 MB record pasted into the game page
// showed nothing (issue 13). Reading the rest first lets the localised
// 413 reach the page. Bodies above drainLimit, or slower than drainTime,
// are cut off as before.
const (
	BodyLimitBytes = 8 << 20
	drainLimit     = 64 << 20
	drainTime      = 20 * time.Second
)

// limitBody is echo's BodyLimit, except that a declared Content-Length over
// the limit (up to drainLimit) is read to its end before the 413.
func LimitBody() echo.MiddlewareFunc {
	inner := middleware.BodyLimit(bodyLimit)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		limited := inner(next)
		return func(c echo.Context) error {
			r := c.Request()
			if r.ContentLength > BodyLimitBytes && r.ContentLength <= drainLimit {
				rc := http.NewResponseController(c.Response().Writer)
				_ = rc.SetReadDeadline(time.Now().Add(drainTime))
				_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, r.ContentLength))
				_ = rc.SetReadDeadline(time.Time{})
				c.Response().Header().Set(echo.HeaderConnection, "close")
				return echo.ErrStatusRequestEntityTooLarge
			}
			if r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody {
				return limitChunked(c, next)
			}
			return limited(c)
		}
	}
}

// limitChunked limits a body of unknown length (chunked): it may be read up
// to bodyLimitBytes; one byte more and the read fails with
// *http.MaxBytesError (the form parsers then answer 413, formParseError)
// and, whatever the handler made of that error, the answer is 413 unless
// the handler already sent its own (issue 21 item 12: such a body was 400).
func limitChunked(c echo.Context, next echo.HandlerFunc) error {
	r := c.Request()
	lb := &overLimitBody{ReadCloser: http.MaxBytesReader(c.Response().Writer, r.Body, BodyLimitBytes)}
	r.Body = lb
	err := next(c)
	if lb.over && !c.Response().Committed {
		return echo.ErrStatusRequestEntityTooLarge
	}
	return err
}

// overLimitBody notes that a read went past the limit.
type overLimitBody struct {
	io.ReadCloser
	over bool
}

func (b *overLimitBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		b.over = true
	}
	return n, err
}
