package site

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// Live pages (issue 15 part 1, docs/live.md). A page of an event opens
// GET /events/:id/stream (Server-Sent Events, htmx's sse extension); when
// the event's revision moves (office.WatchChanges: PostgreSQL NOTIFY from
// any process, or SQLite's revision rows) the stream sends
//
//	id: <event revision>.<registry revision>
//	event: changed
//
// and the page's live regions fetch themselves again (hx-trigger=
// "sse:changed"). The id is the revision, so a browser that reconnects
// sends it back as Last-Event-ID and hears "changed" at once if it missed
// anything; a page also names the revision it was rendered at (?rev=), so
// a change between the render and the stream's opening is not lost.
//
// The hub keeps only who listens in this process; the revisions are read
// from the database, so every process answers alike.

// eventStream is GET /events/:id/stream.
func (s *Server) EventStream(c echo.Context) error {
	id, err := PathParam(c, "id")
	if err != nil {
		return err
	}
	req := c.Request()
	// The visibility rule first: a draft's stream is 404 like its pages.
	pr, err := s.Office.PageRevision(req.Context(), Actor(c), id)
	if err != nil {
		return err
	}
	return s.streamEvent(c, id, pr)
}

// GameStream is GET /games/:id/stream: the stream of a game's event for
// its public live board (issue 26 item 5, docs/recorder.md), asked with
// the game's own rule as the public sees it, so a game of a draft event or
// of an unpublished stage or class is 404 here as on its live board. A
// move stored by the recorder raises the event's revision (game_moves'
// trigger, migration 00280), which the stream announces as "changed".
func (s *Server) GameStream(c echo.Context) error {
	id, err := PathParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	eventID, err := s.Office.GameEventOf(ctx, office.Actor{}, id)
	if err != nil {
		return err
	}
	pr, err := s.Office.PageRevision(ctx, office.Actor{}, eventID)
	if err != nil {
		return err
	}
	return s.streamEvent(c, eventID, pr)
}

// streamEvent opens the stream of event id for a client that may see it
// (pr is the event's revision as it was checked).
func (s *Server) streamEvent(c echo.Context, id int64, pr office.PageRevision) error {
	req := c.Request()
	addr := c.RealIP()
	if err := s.Live.Admit(addr); err != nil {
		return s.liveRefused(c, err)
	}
	// What the client last saw: the browser's Last-Event-ID on a
	// reconnect, else the revision the page was rendered at.
	last := req.Header.Get("Last-Event-ID")
	if last == "" {
		last = c.QueryParam("rev")
	}
	w := c.Response()
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.Live.release(addr)
		return fmt.Errorf("live stream: %w", err)
	}
	w.Committed, w.Status = true, http.StatusOK // for the request log
	// The headers the middleware set (security, request id), then ours; the
	// body ends when the connection does.
	h := w.Header().Clone()
	h.Del("Vary")
	h.Set(echo.HeaderContentType, "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	h.Set("Connection", "close")
	var head strings.Builder
	head.WriteString("HTTP/1.1 200 OK\r\n")
	_ = h.Write(&head)
	head.WriteString("\r\nretry: 2000\n\n")
	sub := &liveSub{hub: s.Live, event: id, addr: addr, conn: conn}
	_ = conn.SetReadDeadline(time.Time{})
	// Join first, then read the revision to start from (join's comment):
	// a write that commits while the stream opens is in the read, or its
	// notification finds the stream in the hub (kept in sub.missed until
	// the first answer is written).
	published, err := s.Live.join(sub)
	if err != nil {
		sub.drop()
		return nil
	}
	s.liveStep(LiveStepJoined)
	r, _, err := s.Office.EventRevision(req.Context(), id)
	if err != nil {
		s.Log.WarnContext(req.Context(), "live stream: revision", "event_id", id, "err", err)
		sub.drop() // the browser reconnects
		return nil
	}
	s.liveStep(LiveStepRevisionRead)
	sub.mu.Lock()
	cur := newestRev(liveRevision(r), liveRevision(pr.Revision), published, sub.missed)
	first := "id: " + cur + "\n\n"
	if last != "" && last != cur {
		first = changedEvent(cur)
	}
	if sub.write(head.String() + first) {
		sub.sent = cur
	}
	sub.started = true
	sub.mu.Unlock()
	// No goroutine waits on the stream: the hub writes to it, and a client
	// that has gone is noticed when a write fails (the next change or
	// heartbeat; a closed TCP connection fails by the second write).
	return nil
}
