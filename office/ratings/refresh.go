package ratings

import (
	"context"
	"log/slog"
	"time"
)

// RunRatingRefresher keeps the stored ratings current until ctx ends:
// once at start and then every interval it reads the rating state row
// (one statement, so an idle instance costs next to nothing) and, when an
// input changed, recomputes (RefreshRatingsIfStale). `kisen serve` runs
// one per process; processes sharing a PostgreSQL take turns through the
// recompute lock, and the one that waited finds the ratings current.
// Errors are logged and retried on the next tick (a database outage must
// not stop the worker); it returns when ctx ends, abandoning (rolling
// back) a recompute in flight, which the next start redoes.
func (o *Ratings) RunRatingRefresher(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		start := time.Now()
		sum, err := o.RefreshRatingsIfStale(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Warn("refresh ratings", "err", err)
		case sum.Recomputed:
			log.Info("ratings recomputed", "games_used", sum.GamesUsed, "players_rated", sum.PlayersRated,
				"took", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
