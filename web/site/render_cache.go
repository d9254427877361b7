package site

import (
	"bytes"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// The render cache (issue 15, "Performance and limits"; docs/live.md).
// The public pages of an event that answer conditional GETs (cache.go) are
// the same bytes for every visitor at one revision, except for the
// visitor's CSRF token. So the first anonymous visitor's page is kept,
// the token cut out, under a key made of everything else the page depends
// on: the event's and the registry's revision as read from the database
// for this request, the build, the URL with its query, the language and
// the htmx headers. The next visitor at that revision gets those bytes
// with their own token put in, without the page being computed.
//
// The key carries the revision read per request, so a change made through
// any process gives every process a new key at once: the cache can never
// answer an older page than the database (the same change notifications
// that drive the live pages move the revision). Signed-in people are never
// served from it (their pages show forms, roles and their name).

// renderCacheBudget bounds the bytes kept per process; renderCacheEntryMax
// keeps one page (a 1,024-entrant bracket is about 1 MB) from taking it.
const (
	renderCacheBudget   = 64 << 20
	renderCacheEntryMax = 8 << 20
)

// renderWaitMax bounds how long a visitor waits for another visitor's
// rendering of the same page before rendering it too.
const renderWaitMax = 5 * time.Second

const (
	renderKeyCtx  = "kisen.render_key"
	renderLeadCtx = "kisen.render_lead"
)

// Visitors who miss the same key at the same time wait for the first one's
// rendering (flights) and are then served its bytes: after a write, the
// fifty readers of a busy bracket cost one rendering, not fifty. When the
// first one's page is not kept (an error, too large), each renders its own.
type renderCache struct {
	mu      sync.Mutex
	entries map[string]*renderEntry
	size    int
	tick    uint64
	Flights map[string]chan struct{}
}

type renderEntry struct {
	// parts is the page cut where the CSRF token stood (slices of body,
	// the page as kept, whose length counts against the budget).
	parts       [][]byte
	body        []byte
	contentType string
	disposition string
	used        uint64
}

func NewRenderCache() *renderCache {
	return &renderCache{entries: map[string]*renderEntry{}, Flights: map[string]chan struct{}{}}
}

// lead makes the caller the one who renders key, unless another visitor
// already is: then it answers the channel closed when that one is done.
func (rc *renderCache) lead(key string) (wait <-chan struct{}, leader bool) {
	if rc == nil {
		return nil, true
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if ch, ok := rc.Flights[key]; ok {
		return ch, false
	}
	rc.Flights[key] = make(chan struct{})
	return nil, true
}

// land ends the caller's rendering of key and wakes those waiting for it.
func (rc *renderCache) land(key string) {
	if rc == nil {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if ch, ok := rc.Flights[key]; ok {
		close(ch)
		delete(rc.Flights, key)
	}
}

func (rc *renderCache) get(key string) (*renderEntry, bool) {
	if rc == nil {
		return nil, false
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	e, ok := rc.entries[key]
	if ok {
		rc.tick++
		e.used = rc.tick
	}
	return e, ok
}

func (rc *renderCache) put(key string, e *renderEntry) {
	if rc == nil || len(e.body) > renderCacheEntryMax {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if old, ok := rc.entries[key]; ok {
		rc.size -= len(old.body)
	}
	for rc.size+len(e.body) > renderCacheBudget && len(rc.entries) > 0 {
		var oldest string
		var at uint64
		for k, x := range rc.entries {
			if oldest == "" || x.used < at {
				oldest, at = k, x.used
			}
		}
		rc.size -= len(rc.entries[oldest].body)
		delete(rc.entries, oldest)
	}
	rc.tick++
	e.used = rc.tick
	rc.entries[key] = e
	rc.size += len(e.body)
}

// serveRendered answers from the cache; false when key is not kept.
func (s *Server) serveRendered(c echo.Context, key string) (bool, error) {
	e, ok := s.Pages.get(key)
	if !ok {
		return false, nil
	}
	h := c.Response().Header()
	if e.disposition != "" {
		h.Set("Content-Disposition", e.disposition)
	}
	h.Set(echo.HeaderContentType, e.contentType)
	w := c.Response()
	w.WriteHeader(http.StatusOK)
	// The parts and the visitor's token straight to the client: no copy
	// of the page per request.
	tok := []byte(csrfToken(c))
	for i, part := range e.parts {
		if i > 0 {
			if _, err := w.Write(tok); err != nil {
				return true, nil
			}
		}
		if _, err := w.Write(part); err != nil {
			return true, nil // the client went away
		}
	}
	return true, nil
}

// captureRender is the last middleware: when notModified has named a key
// for this request (an anonymous public page not kept yet), it keeps a
// copy of what the handler writes and stores it if the answer was a
// complete 200.
func (s *Server) CaptureRender(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		defer func() { // after the page is kept below, even on a panic
			if key, _ := c.Get(renderLeadCtx).(string); key != "" {
				s.Pages.land(key)
			}
		}()
		if s.Pages == nil || c.Request().Method != http.MethodGet {
			return next(c)
		}
		w := &captureWriter{ResponseWriter: c.Response().Writer, c: c}
		c.Response().Writer = w
		err := next(c)
		c.Response().Writer = w.ResponseWriter
		key, _ := c.Get(renderKeyCtx).(string)
		if err != nil || key == "" || !w.on || w.over || c.Response().Status != http.StatusOK {
			return err
		}
		body := bytes.Clone(w.buf.Bytes())
		parts := [][]byte{body}
		if t := csrfToken(c); t != "" {
			parts = bytes.Split(body, []byte(t))
		}
		h := c.Response().Header()
		s.Pages.put(key, &renderEntry{parts: parts, body: body, contentType: h.Get(echo.HeaderContentType), disposition: h.Get("Content-Disposition")})
		return nil
	}
}

// captureWriter copies the body once the status is known to be 200 and a
// key is named; it stays a plain pass-through otherwise.
type captureWriter struct {
	http.ResponseWriter
	c       echo.Context
	decided bool
	on      bool
	over    bool
	buf     bytes.Buffer
}

func (w *captureWriter) decide(status int) {
	if w.decided {
		return
	}
	w.decided = true
	key, _ := w.c.Get(renderKeyCtx).(string)
	w.on = key != "" && status == http.StatusOK
}

func (w *captureWriter) WriteHeader(status int) {
	w.decide(status)
	w.ResponseWriter.WriteHeader(status)
}

func (w *captureWriter) Write(b []byte) (int, error) {
	w.decide(http.StatusOK)
	if w.on && !w.over {
		if w.buf.Len()+len(b) > renderCacheEntryMax {
			w.over = true
			w.buf = bytes.Buffer{}
		} else {
			w.buf.Write(b)
		}
	}
	return w.ResponseWriter.Write(b)
}

func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
