package site

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
)

// liveHub is this process's listeners, by event. A stream costs no
// goroutine while it waits: its connection is taken from the HTTP server
// (hijacked) once the headers are decided, and the hub writes the events
// and the heartbeats; a client that went away is dropped when a write to
// it fails (issue 15: 2,000 streams in < 20 KB each).
type liveHub struct {
	MaxTotal, MaxPerAddr int
	Heartbeat            time.Duration
	// revision reads an event's current revision (one row).
	revision func(ctx context.Context, eventID int64) (string, error)
	// opened and closed count streams for the metrics (may be nil).
	opened, closed func()
	// afterRound, when set (tests), hears each round of the worker once
	// its streams have been told: the events marked in it.
	AfterRound func(all bool, dirty map[int64]bool)

	mu       sync.Mutex
	topics   map[int64]*liveTopic
	perAddr  map[string]int
	total    int
	shutdown bool
	done     chan struct{} // closed at shutdown

	// dirty is the set of events to look at again, folded so that a burst
	// of notifications costs one revision read per event.
	dirtyMu  sync.Mutex
	dirty    map[int64]bool
	dirtyAll bool
	kick     chan struct{}
}

type liveTopic struct {
	rev  string // the revision last published to this topic's streams
	subs map[*liveSub]struct{}
}

// liveSub is one open stream.
type liveSub struct {
	hub   *liveHub
	event int64
	addr  string
	conn  net.Conn
	once  sync.Once

	mu   sync.Mutex // one writer at a time
	sent string     // the revision the client has been told
	// started: the stream's first answer is written. Until then the hub
	// writes nothing to it and keeps what it would have told in missed,
	// which the first answer includes (eventStream).
	started bool
	missed  string
}

// liveWriteTimeout: a client that cannot take a few bytes in this long
// (its socket buffer is full) is dropped; it reconnects with Last-Event-ID.
const liveWriteTimeout = 2 * time.Second

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
	return &liveHub{MaxTotal: maxTotal, MaxPerAddr: maxPerAddr, Heartbeat: heartbeat, revision: revision,
		topics: map[int64]*liveTopic{}, perAddr: map[string]int{}, done: make(chan struct{}),
		dirty: map[int64]bool{}, kick: make(chan struct{}, 1)}
}

// admit reserves a place for a stream of event from addr, or says which
// limit refuses it. The place is the stream's once it joins.
func (h *liveHub) Admit(addr string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.shutdown:
		return errLiveShutdown
	case h.total >= h.MaxTotal:
		return errLiveFull
	case h.perAddr[addr] >= h.MaxPerAddr:
		return errLiveTooMany
	}
	h.total++
	h.perAddr[addr]++
	return nil
}

// release gives back a place admit reserved.
func (h *liveHub) release(addr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.total--
	if h.perAddr[addr]--; h.perAddr[addr] <= 0 {
		delete(h.perAddr, addr)
	}
}

// join adds an admitted stream, not started yet, to its event's topic and
// returns what the hub last published there ("" if nothing). From here on
// every change of the event reaches the stream: the worker reads the
// revision of each event that has a stream (publish, tell). The stream
// reads the revision it starts from only after joining (eventStream), so a
// change committed meanwhile is in that read or in a later notification —
// never in neither, as when the revision was read before joining (issue
// 21: a change whose notification came between the read and the join was
// lost until the next change).
func (h *liveHub) join(sub *liveSub) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.shutdown {
		return "", errLiveShutdown
	}
	t := h.topics[sub.event]
	if t == nil {
		t = &liveTopic{subs: map[*liveSub]struct{}{}}
		h.topics[sub.event] = t
	}
	t.subs[sub] = struct{}{}
	if h.opened != nil {
		h.opened()
	}
	return t.rev, nil
}

// newestRev is the newest of revisions ("" is none).
func newestRev(revs ...string) string {
	out := ""
	for _, r := range revs {
		if r != "" && (out == "" || revNewer(r, out)) {
			out = r
		}
	}
	return out
}

// revNewer reports whether revision a ("event.registry") is past b.
func revNewer(a, b string) bool {
	ae, ar, _ := strings.Cut(a, ".")
	be, br, _ := strings.Cut(b, ".")
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	return n(ae) > n(be) || n(ae) == n(be) && n(ar) > n(br)
}

// drop ends a stream: its connection closes and its place is freed.
func (sub *liveSub) drop() {
	sub.once.Do(func() {
		_ = sub.conn.Close()
		h := sub.hub
		h.mu.Lock()
		if t := h.topics[sub.event]; t != nil {
			if _, ok := t.subs[sub]; ok {
				delete(t.subs, sub)
				if h.closed != nil {
					h.closed()
				}
			}
			if len(t.subs) == 0 {
				delete(h.topics, sub.event)
			}
		}
		h.mu.Unlock()
		h.release(sub.addr)
	})
}

// write sends msg, or drops the stream when the client does not take it.
func (sub *liveSub) write(msg string) bool {
	_ = sub.conn.SetWriteDeadline(time.Now().Add(liveWriteTimeout))
	if _, err := io.WriteString(sub.conn, msg); err != nil {
		sub.drop()
		return false
	}
	return true
}

// tell sends "changed" at rev unless the client already has it; before
// the stream's first answer it is kept for that answer.
func (sub *liveSub) tell(rev string) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if !sub.started {
		sub.missed = newestRev(sub.missed, rev)
		return
	}
	if sub.sent == rev || sub.sent != "" && !revNewer(rev, sub.sent) {
		return
	}
	if sub.write(changedEvent(rev)) {
		sub.sent = rev
	}
}

// open reports how many streams are open (metrics, tests).
func (h *liveHub) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// close ends every stream (graceful shutdown: hijacked connections are not
// the HTTP server's to close) and refuses new ones.
func (h *liveHub) Close() {
	h.mu.Lock()
	if h.shutdown {
		h.mu.Unlock()
		return
	}
	h.shutdown = true
	close(h.done)
	var all []*liveSub
	for _, t := range h.topics {
		for sub := range t.subs {
			all = append(all, sub)
		}
	}
	h.mu.Unlock()
	for _, sub := range all {
		sub.drop()
	}
}

// changed is what the watcher calls: mark, and let the worker look.
func (h *liveHub) Changed(c office.Changes) {
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
// its revision and tell its streams when it moved; and the heartbeat.
func (h *liveHub) Run(ctx context.Context, onError func(error)) {
	beat := time.NewTicker(h.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.done:
			return
		case <-beat.C:
			h.each(h.subsOf(func(int64) bool { return true }), func(sub *liveSub) {
				sub.mu.Lock()
				defer sub.mu.Unlock()
				if sub.started {
					sub.write(": \n\n")
				}
			})
			continue
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
		if h.AfterRound != nil {
			h.AfterRound(all, dirty)
		}
	}
}

// subsOf lists the streams of the events keep selects.
func (h *liveHub) subsOf(keep func(int64) bool) []*liveSub {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*liveSub
	for id, t := range h.topics {
		if keep(id) {
			for sub := range t.subs {
				out = append(out, sub)
			}
		}
	}
	return out
}

// each runs fn for every stream on a few goroutines, so one slow client
// (up to liveWriteTimeout) does not hold up the rest.
func (h *liveHub) each(subs []*liveSub, fn func(*liveSub)) {
	const workers = 8
	if len(subs) == 0 {
		return
	}
	var wg sync.WaitGroup
	per := (len(subs) + workers - 1) / workers
	for i := 0; i < len(subs); i += per {
		part := subs[i:min(i+per, len(subs))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, sub := range part {
				fn(sub)
			}
		}()
	}
	wg.Wait()
}

// publish tells the streams of event about rev when it is new to them.
func (h *liveHub) publish(event int64, rev string) {
	h.mu.Lock()
	t := h.topics[event]
	if t == nil || !revNewer(rev, t.rev) {
		h.mu.Unlock()
		return
	}
	t.rev = rev
	h.mu.Unlock()
	h.each(h.subsOf(func(id int64) bool { return id == event }), func(sub *liveSub) { sub.tell(rev) })
}

// RunLive feeds the live pages from the database's change notifications
// until ctx ends (Run starts it; handler tests start it themselves).
func (s *Server) RunLive(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	logErr := func(err error) { s.Log.Warn("live pages", "err", err) }
	go s.Live.Run(ctx, logErr)
	s.Office.WatchChanges(ctx, office.WatchOptions{Poll: s.Config.LivePoll, OnError: logErr}, s.Live.Changed)
}

// liveRevision is the revision a stream sends as its event id.
func liveRevision(r office.EventRevision) string {
	return strconv.FormatInt(r.Event, 10) + "." + strconv.FormatInt(r.Registry, 10)
}

// eventRevisionString reads an event's revision for the hub.
func (s *Server) EventRevisionString(ctx context.Context, eventID int64) (string, error) {
	r, _, err := s.Office.EventRevision(ctx, eventID)
	if err != nil {
		return "", err
	}
	return liveRevision(r), nil
}

// liveURL is the stream of an event's pages, naming the revision the page
// was rendered from; stream, when not "", is another path to the event's
// stream (GameStreamPath).
func liveURL(eventID int64, rev, stream string) string {
	u := stream
	if u == "" {
		u = "/events/" + strconv.FormatInt(eventID, 10) + "/stream"
	}
	if rev != "" {
		u += "?rev=" + rev
	}
	return u
}

// GameStreamPath is the stream of a game's live board (GameStream).
func GameStreamPath(gameID int64) string {
	return "/games/" + strconv.FormatInt(gameID, 10) + "/stream"
}

// markLive makes the page being rendered open event's stream; the
// revision is read before the page's data, so a change made while the page
// is computed is announced when the stream opens.
func (s *Server) MarkLive(c echo.Context, eventID int64) {
	s.MarkLiveAt(c, eventID, "")
}

// MarkLiveAt is MarkLive with the stream at another path ("" for the
// event's own).
func (s *Server) MarkLiveAt(c echo.Context, eventID int64, stream string) {
	r, ok, err := s.Office.EventRevision(c.Request().Context(), eventID)
	rev := ""
	if err == nil && ok {
		rev = liveRevision(r)
	}
	c.Set(liveKey, liveURL(eventID, rev, stream))
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

var (
	errLiveFull     = errors.New("too many live streams")
	errLiveTooMany  = errors.New("too many live streams from this address")
	errLiveShutdown = errors.New("shutting down")
)

// The steps of a stream's opening where a test may commit a write
// (Server.liveStepHook): after it joined the hub, after it read the
// revision it starts from.
const (
	LiveStepJoined       = "joined"
	LiveStepRevisionRead = "revision read"
)

func (s *Server) liveStep(step string) {
	if s.LiveStepHook != nil {
		s.LiveStepHook(step)
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
