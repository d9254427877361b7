package office

import (
	"context"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"kisen/store"
)

// viewCache keeps the last computed bracket and league views, each under
// the database revision of its event (migration 00097: raised by triggers
// on every write to anything the view shows, whichever process makes it).
// A reader reads the revision first, then either finds the view computed
// at that revision or computes it from the database; so a view is never
// older than the revision it is kept under, and a write anywhere makes the
// next reader compute afresh. The cache holds derived data only; nothing
// decides from it (issue 12: pages fast at real sizes).
//
// Readers who miss the same view at the same revision at the same time
// share one computation (singleflight): after a write, the fifty readers
// of a busy bracket cost one computation, not fifty.
type viewCache struct {
	mu      sync.Mutex
	entries map[string]*viewEntry
	tick    uint64
	flight  singleflight.Group
}

type viewEntry struct {
	rev  string
	view any
	used uint64
}

// eventRevision is the cache revision of an event's views, read from the
// database; "" when the event has none yet (then nothing is kept).
func (o *Office) eventRevision(ctx context.Context, eventID int64) (string, error) {
	r, known, err := o.store.EventRevision(ctx, eventID)
	if err != nil || !known {
		return "", err
	}
	return revisionKey(r), nil
}

// revisionKey is the key views are kept under at revision r.
func revisionKey(r store.EventRevision) string {
	return strconv.FormatInt(r.Event, 10) + "/" + strconv.FormatInt(r.Registry, 10)
}

// KeepNoViews makes o compute every bracket, league table and record from
// the database on every read, keeping none: for the tests and benchmarks
// that count or time the computation itself (issue 12).
func (o *Office) KeepNoViews() { o.views = nil }

// KeepViews makes o keep its views again (a fresh, empty cache), as New
// does: for the benchmark that measures both.
func (o *Office) KeepViews() { o.views = &viewCache{} }

// kept is the view kept under key at revision rev, or else compute's,
// which is kept when rev is known ("" keeps nothing). rev must have been
// read before compute reads anything, so a kept view is never older than
// its revision. Concurrent misses of key at rev wait for the first one's
// computation, which read the database after each of them read rev; when
// that computation fails (its reader may have gone away), each computes
// on its own.
func kept[T any](c *viewCache, key, rev string, compute func() (T, error)) (T, error) {
	if rev == "" || c == nil {
		return compute()
	}
	if v, ok := c.get(key, rev); ok {
		return v.(T), nil
	}
	shared, err, many := c.flight.Do(key+"\x00"+rev, func() (any, error) {
		if v, ok := c.get(key, rev); ok { // kept while this call waited its turn
			return v, nil
		}
		v, err := compute()
		if err != nil {
			return nil, err
		}
		c.put(key, rev, v)
		return v, nil
	})
	if err != nil {
		if many {
			return compute()
		}
		var zero T
		return zero, err
	}
	return shared.(T), nil
}

// viewCacheSize bounds the views kept per process (the busiest events).
const viewCacheSize = 64

func (c *viewCache) get(key, rev string) (any, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.rev != rev {
		return nil, false
	}
	c.tick++
	e.used = c.tick
	return e.view, true
}

func (c *viewCache) put(key, rev string, view any) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*viewEntry{}
	}
	if _, ok := c.entries[key]; !ok && len(c.entries) >= viewCacheSize {
		var oldest string
		var at uint64
		for k, e := range c.entries {
			if oldest == "" || e.used < at {
				oldest, at = k, e.used
			}
		}
		delete(c.entries, oldest)
	}
	c.tick++
	c.entries[key] = &viewEntry{rev: rev, view: view, used: c.tick}
}
