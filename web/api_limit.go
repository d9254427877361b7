package web

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// apiLimiter holds one token bucket per client address for the API
// (settings --api-rate and --api-burst). It lives in the process: each
// `kisen serve` process limits what reaches it, which is what protects
// it; the limit a client meets behind a balancer of n processes is at
// most n times the setting (docs/api.md).
type apiLimiter struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	clients map[string]*apiClient
	swept   time.Time
}

type apiClient struct {
	lim  *rate.Limiter
	seen time.Time
}

// apiIdle is how long an address's bucket is kept after its last request
// (long enough for any bucket to refill).
const apiIdle = 10 * time.Minute

func newAPILimiter(perSecond float64, burst int) *apiLimiter {
	return &apiLimiter{every: rate.Limit(perSecond), burst: burst, clients: map[string]*apiClient{}}
}

// allow takes one request from addr's bucket at now; when the bucket is
// empty it returns how long until one is there.
func (l *apiLimiter) allow(addr string, now time.Time) (bool, time.Duration) {
	if l.every <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > apiIdle {
		for k, c := range l.clients {
			if now.Sub(c.seen) > apiIdle {
				delete(l.clients, k)
			}
		}
		l.swept = now
	}
	c := l.clients[addr]
	if c == nil {
		c = &apiClient{lim: rate.NewLimiter(l.every, l.burst)}
		l.clients[addr] = c
	}
	c.seen = now
	if c.lim.AllowN(now, 1) {
		return true, 0
	}
	r := c.lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	if !r.OK() || wait <= 0 {
		wait = time.Second
	}
	return false, wait
}

// retrySeconds rounds a wait up to whole seconds (at least 1).
func retrySeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}
