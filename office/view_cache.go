package office

import (
	"strconv"
	"sync"

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
type viewCache struct {
	mu      sync.Mutex
	entries map[string]*viewEntry
	tick    uint64
}

type viewEntry struct {
	rev  string
	view any
	used uint64
}

// eventRev is the cache revision of an event's views.
func eventRev(r store.EventRevision) string {
	return strconv.FormatInt(r.Event, 10) + "/" + strconv.FormatInt(r.Registry, 10)
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
