package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/store"
)

// Live pages (issue 15 part 1, docs/live.md). A page of an event opens
// GET /events/:id/stream (Server-Sent Events, htmx's sse extension); when
// the event's revision moves (store.WatchChanges: PostgreSQL NOTIFY from
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

// liveHub is this process's listeners, by event.
type liveHub struct {
	maxTotal, maxPerAddr int
	heartbeat            time.Duration
	// revision reads an event's current revision (one row).
	revision func(ctx context.Context, eventID int64) (string, error)

	mu      sync.Mutex
	topics  map[int64]*liveTopic
	perAddr map[string]int
	total   int
	closed  bool
	done    chan struct{} // closed at shutdown: every stream ends

	// dirty is the set of events to look at again, folded so that a burst
	// of notifications costs one revision read per event.
	dirtyMu  sync.Mutex
	dirty    map[int64]bool
	dirtyAll bool
	kick     chan struct{}
}

type liveTopic struct {
	rev  string // the revision last sent to this topic's streams
	subs map[*liveSub]struct{}
}

// liveSub is one open stream; wake has room for one signal, so a stream
// that is still writing is told once however many changes came.
type liveSub struct {
	event int64
	addr  string
	wake  chan struct{}
}

var (
	errLiveFull     = errors.New("too many live streams")
	errLiveTooMany  = errors.New("too many live streams from this address")
	errLiveShutdown = errors.New("shutting down")
)

func newLiveHub(maxTotal, maxPerAddr int, heartbeat time.Duration, revision func(context.Context, int64) (string, error)) *liveHub {
	if maxTotal <= 0 {
		maxTotal = 5000
	}
	if maxPerAddr <= 0 {
		maxPerAddr = 200
	}
	if heartbeat <= 0 {
		heartbeat = 25 * time.Second
	}
	return &liveHub{maxTotal: maxTotal, maxPerAddr: maxPerAddr, heartbeat: heartbeat, revision: revision,
		topics: map[int64]*liveTopic{}, perAddr: map[string]int{}, done: make(chan struct{}),
		dirty: map[int64]bool{}, kick: make(chan struct{}, 1)}
}

// join opens a stream of event from addr, at revision rev as the stream
// has just read it.
func (h *liveHub) join(event int64, addr, rev string) (*liveSub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return nil, errLiveShutdown
	case h.total >= h.maxTotal:
		return nil, errLiveFull
	case h.perAddr[addr] >= h.maxPerAddr:
		return nil, errLiveTooMany
	}
	t := h.topics[event]
	if t == nil {
		t = &liveTopic{rev: rev, subs: map[*liveSub]struct{}{}}
		h.topics[event] = t
	}
	sub := &liveSub{event: event, addr: addr, wake: make(chan struct{}, 1)}
	t.subs[sub] = struct{}{}
	h.total++
	h.perAddr[addr]++
	if t.rev != rev {
		// The topic and this stream read different revisions: let the
		// stream compare again (a change may be on its way to the topic).
		sub.wake <- struct{}{}
	}
	return sub, nil
}

func (h *liveHub) leave(sub *liveSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.topics[sub.event]
	if t == nil {
		return
	}
	if _, ok := t.subs[sub]; !ok {
		return
	}
	delete(t.subs, sub)
	if len(t.subs) == 0 {
		delete(h.topics, sub.event)
	}
	h.total--
	if h.perAddr[sub.addr]--; h.perAddr[sub.addr] <= 0 {
		delete(h.perAddr, sub.addr)
	}
}

// current is the revision last seen for the stream's event.
func (h *liveHub) current(sub *liveSub) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.topics[sub.event]; t != nil {
		return t.rev
	}
	return ""
}

// open reports how many streams are open (metrics, tests).
func (h *liveHub) open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// close ends every stream (graceful shutdown: the server would otherwise
// wait for them until its grace period is over) and refuses new ones.
func (h *liveHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}

// changed is what the watcher calls: mark, and let the worker look.
func (h *liveHub) changed(c store.Changes) {
	h.dirtyMu.Lock()
	h.dirtyAll = h.dirtyAll || c.All
	for _, id := range c.Events {
		h.dirty[id] = true
	}
	h.dirtyMu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// run is the worker: for each marked event that has streams here, read
// its revision and wake its streams when it moved.
func (h *liveHub) run(ctx context.Context, onError func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.kick:
		}
		h.dirtyMu.Lock()
		all, dirty := h.dirtyAll, h.dirty
		h.dirtyAll, h.dirty = false, map[int64]bool{}
		h.dirtyMu.Unlock()
		h.mu.Lock()
		var events []int64
		for id := range h.topics {
			if all || dirty[id] {
				events = append(events, id)
			}
		}
		h.mu.Unlock()
		for _, id := range events {
			rev, err := h.revision(ctx, id)
			if err != nil {
				if ctx.Err() == nil && onError != nil {
					onError(err)
				}
				continue
			}
			h.publish(id, rev)
		}
	}
}

// publish wakes the streams of event when rev is new to them.
func (h *liveHub) publish(event int64, rev string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.topics[event]
	if t == nil || t.rev == rev {
		return
	}
	t.rev = rev
	for sub := range t.subs {
		select {
		case sub.wake <- struct{}{}:
		default:
		}
	}
}

// RunLive feeds the live pages from the database's change notifications
// until ctx ends (Run starts it; handler tests start it themselves).
func (s *Server) RunLive(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	logErr := func(err error) { s.log.Warn("live pages", "err", err) }
	go s.live.run(ctx, logErr)
	s.store.WatchChanges(ctx, store.WatchOptions{Poll: s.cfg.LivePoll, OnError: logErr}, s.live.changed)
}

// liveRevision is the revision a stream sends as its event id.
func liveRevision(r store.EventRevision) string {
	return strconv.FormatInt(r.Event, 10) + "." + strconv.FormatInt(r.Registry, 10)
}

// eventRevisionString reads an event's revision for the hub.
func (s *Server) eventRevisionString(ctx context.Context, eventID int64) (string, error) {
	r, _, err := s.store.EventRevision(ctx, eventID)
	if err != nil {
		return "", err
	}
	return liveRevision(r), nil
}

// eventStream is GET /events/:id/stream.
func (s *Server) eventStream(c echo.Context) error {
	id, err := pathParam(c, "id")
	if err != nil {
		return err
	}
	req := c.Request()
	// The visibility rule first: a draft's stream is 404 like its pages.
	pr, err := s.office.PageRevision(req.Context(), actor(c), id)
	if err != nil {
		return err
	}
	rev := liveRevision(pr.Revision)
	sub, err := s.live.join(id, c.RealIP(), rev)
	if err != nil {
		return s.liveRefused(c, err)
	}
	defer s.live.leave(sub)
	s.metrics.liveStreams.Inc()
	defer s.metrics.liveStreams.Dec()

	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	// The server's read and write timeouts are for pages; a stream lives
	// until the client or the shutdown ends it, each write with its own
	// deadline (a client that stops reading is dropped).
	_ = rc.SetReadDeadline(time.Time{})
	send := func(msg string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := w.Write([]byte(msg)); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// What the client last saw: the browser's Last-Event-ID on a
	// reconnect, else the revision the page was rendered at.
	last := req.Header.Get("Last-Event-ID")
	if last == "" {
		last = c.QueryParam("rev")
	}
	first := "retry: 2000\nid: " + rev + "\n\n"
	if last != "" && last != rev {
		first = "retry: 2000\n" + changedEvent(rev)
	}
	if !send(first) {
		return nil
	}
	sent := rev
	beat := time.NewTicker(s.live.heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-req.Context().Done():
			return nil
		case <-s.live.done:
			return nil
		case <-beat.C:
			if !send(": \n\n") {
				return nil
			}
		case <-sub.wake:
			cur := s.live.current(sub)
			if cur == "" || cur == sent {
				continue
			}
			if !send(changedEvent(cur)) {
				return nil
			}
			sent = cur
		}
	}
}

func changedEvent(rev string) string {
	return "id: " + rev + "\nevent: changed\ndata: " + rev + "\n\n"
}

// liveRefused answers a stream over a limit: 503 when the process is
// full or stopping, 429 for one address's excess; both with Retry-After
// (EventSource retries; the sse extension backs off).
func (s *Server) liveRefused(c echo.Context, err error) error {
	status, key := http.StatusServiceUnavailable, "live.err.full"
	switch {
	case errors.Is(err, errLiveTooMany):
		status, key = http.StatusTooManyRequests, "live.err.too_many"
	case errors.Is(err, errLiveShutdown):
		key = "live.err.stopping"
	}
	c.Response().Header().Set("Retry-After", "10")
	return c.String(status, L(c.Request().Context()).T(key))
}

// liveURL is the stream of an event's pages, naming the revision the page
// was rendered from.
func liveURL(eventID int64, rev string) string {
	u := "/events/" + strconv.FormatInt(eventID, 10) + "/stream"
	if rev != "" {
		u += "?rev=" + rev
	}
	return u
}

// markLive makes the page being rendered open event's stream; the
// revision is read before the page's data, so a change made while the page
// is computed is announced when the stream opens.
func (s *Server) markLive(c echo.Context, eventID int64) {
	r, ok, err := s.store.EventRevision(c.Request().Context(), eventID)
	rev := ""
	if err == nil && ok {
		rev = liveRevision(r)
	}
	c.Set(liveKey, liveURL(eventID, rev))
}

const liveKey = "kisen.live"

// liveOf is the stream markLive chose for the page ("" for none).
func liveOf(c echo.Context) string {
	u, _ := c.Get(liveKey).(string)
	return u
}

// liveSelf is the URL a live region fetches itself from: the page's own
// path and query.
func liveSelf(c echo.Context) string {
	u := c.Request().URL.Path
	if q := c.Request().URL.RawQuery; q != "" {
		u += "?" + q
	}
	return strings.TrimSpace(u)
}
