package api

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// apiLimiter limits API requests per client address (settings --api-rate
// and --api-burst): a token bucket of burst requests refilled at rate per
// second.
//
// On PostgreSQL the bucket is a row of api_rate_limits (00145) that one
// upsert per request reads and moves (office.RateSpend), so every `kisen
// serve` sharing the database spends from the same bucket and a client
// behind a balancer over n processes meets the configured rate, not n
// times it. On SQLite, which one process serves, the buckets are in
// memory (golang.org/x/time/rate) and a read costs no write.
type apiLimiter struct {
	every rate.Limit
	burst int
	Db    rateBuckets // nil: in memory
	log   *slog.Logger

	mu      sync.Mutex
	clients map[string]*apiClient
	swept   time.Time
}

type apiClient struct {
	lim  *rate.Limiter
	seen time.Time
}

// apiIdle is how long an address's bucket is kept after its last request
// (long enough for any bucket to refill), and how often the shared rows of
// full buckets are pruned.
const apiIdle = 10 * time.Minute

func NewAPILimiter(perSecond float64, burst int) *apiLimiter {
	return &apiLimiter{every: rate.Limit(perSecond), burst: burst, clients: map[string]*apiClient{}}
}

// rateBuckets are the shared buckets: the office's (office.RateSpend,
// PruneRateLimits), over the database every process shares.
type rateBuckets interface {
	RateSpend(ctx context.Context, client string, now time.Time, every time.Duration, burst int) (bool, time.Duration, error)
	PruneRateLimits(ctx context.Context, now time.Time) error
}

// newSharedAPILimiter keeps the buckets in db, shared by every process on it.
func NewSharedAPILimiter(perSecond float64, burst int, db rateBuckets, log *slog.Logger) *apiLimiter {
	l := NewAPILimiter(perSecond, burst)
	l.Db, l.log = db, log
	return l
}

// allow takes one request from addr's bucket at now; when the bucket is
// empty it returns how long until one is there.
func (l *apiLimiter) Allow(ctx context.Context, addr string, now time.Time) (bool, time.Duration) {
	if l.every <= 0 {
		return true, 0
	}
	if l.Db != nil {
		return l.allowShared(ctx, addr, now)
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

// allowShared spends from the database's bucket: one statement. Once per
// apiIdle a process also deletes the rows of buckets that are full again
// (one more statement for that request). When the database cannot answer,
// the request goes through: the limit protects the server, and the
// request itself will meet the same database.
func (l *apiLimiter) allowShared(ctx context.Context, addr string, now time.Time) (bool, time.Duration) {
	every := time.Duration(float64(time.Second) / float64(l.every))
	ok, wait, err := l.Db.RateSpend(ctx, addr, now, every, max(l.burst, 1))
	if err != nil {
		l.log.WarnContext(ctx, "api rate limit not checked", "err", err)
		return true, 0
	}
	l.mu.Lock()
	prune := now.Sub(l.swept) > apiIdle
	if prune {
		l.swept = now
	}
	l.mu.Unlock()
	if prune {
		if err := l.Db.PruneRateLimits(ctx, now); err != nil {
			l.log.WarnContext(ctx, "api rate limit prune", "err", err)
		}
	}
	if ok {
		return true, 0
	}
	if wait <= 0 {
		wait = time.Second
	}
	return false, wait
}

// retrySeconds rounds a wait up to whole seconds (at least 1).
func retrySeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}
