package site

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// BodyLimitBytes caps a request body by default (a player CSV or a game
// record upload is far smaller); larger uploads get the localised 413
// page. drainLimit is how much of an over-limit body the server still reads
// (and throws away) before it answers 413, and drainTime how long it waits
// for it.
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

// LimitBody caps a request body at s.BodyLimit bytes (0: BodyLimitBytes). A
// declared Content-Length over the limit (up to drainLimit) is read to its
// end before the 413; one over drainLimit is refused at once; any other body
// (declared or chunked) is read through a reader that fails one byte past
// the limit. The limit is read at each request, so a test can set a small
// one and show the 413 with a small record instead of an 8 MB one.
func (s *Server) LimitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		limit := s.BodyLimit
		if limit <= 0 {
			limit = BodyLimitBytes
		}
		r := c.Request()
		switch {
		case r.ContentLength > drainLimit:
			return echo.ErrStatusRequestEntityTooLarge
		case r.ContentLength > limit:
			rc := http.NewResponseController(c.Response().Writer)
			_ = rc.SetReadDeadline(time.Now().Add(drainTime))
			_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, r.ContentLength))
			_ = rc.SetReadDeadline(time.Time{})
			c.Response().Header().Set(echo.HeaderConnection, "close")
			return echo.ErrStatusRequestEntityTooLarge
		case r.Body == nil || r.Body == http.NoBody:
			return next(c)
		}
		return limitRead(c, next, limit)
	}
}

// limitRead limits a body (chunked, or declared within the limit): it may
// be read up to limit bytes; one byte more and the read fails with
// *http.MaxBytesError (the form parsers then answer 413, formParseError)
// and, whatever the handler made of that error, the answer is 413 unless
// the handler already sent its own (issue 21 item 12: such a body was 400).
func limitRead(c echo.Context, next echo.HandlerFunc, limit int64) error {
	r := c.Request()
	lb := &overLimitBody{ReadCloser: http.MaxBytesReader(c.Response().Writer, r.Body, limit)}
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
