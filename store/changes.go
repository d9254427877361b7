package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Change notifications (issue 15 part 1, docs/live.md). The revisions of
// migration 00097 say that an event's pages changed; WatchChanges tells a
// process when they move, whichever process (or psql) wrote:
//
//   - PostgreSQL: one dedicated connection per process LISTENs on
//     kisen_changes, which the triggers of migration 00120 NOTIFY at each
//     commit; it reconnects when the connection is lost.
//   - SQLite (one process): the revision rows are read every poll interval
//     and at once after each transaction this process commits (Tx pokes),
//     so a write of this process is seen without waiting for the tick and
//     one of `kisen` on the command line within the interval.
//
// Nothing is remembered that another process would need: a change is
// "look again", and the revision itself is always read from the database.

// Changes is one batch of news. All means every event may have changed:
// the registry (names every page shows) changed, or the listener was
// (re)connected and may have missed notifications.
type Changes struct {
	Events []int64
	All    bool
}

// WatchOptions tunes WatchChanges.
type WatchOptions struct {
	// Poll is the SQLite interval (zero: 250 ms) and the longest wait
	// between PostgreSQL reconnection attempts (zero: 5 s).
	Poll time.Duration
	// OnError hears what went wrong (a lost connection, a failed read);
	// the watcher carries on. May be nil.
	OnError func(error)
	// OnListen is called each time the watcher starts watching: the
	// PostgreSQL listener connected and listening, the SQLite watcher
	// having read the revisions it compares with (tests wait for it).
	// May be nil.
	OnListen func()
}

// ChangeChannel is the PostgreSQL notification channel of migration 00120.
const ChangeChannel = "kisen_changes"

// WatchChanges calls fn with each batch of changes until ctx ends. fn runs
// on the watcher's goroutine, one batch at a time; it should be quick.
func (s *Store) WatchChanges(ctx context.Context, o WatchOptions, fn func(Changes)) {
	if o.OnError == nil {
		o.OnError = func(error) {}
	}
	if s.dialect == Postgres {
		if o.Poll <= 0 {
			o.Poll = 5 * time.Second
		}
		s.listen(ctx, o, fn)
		return
	}
	if o.Poll <= 0 {
		o.Poll = 250 * time.Millisecond
	}
	s.poll(ctx, o, fn)
}

// poke wakes the SQLite watcher after a commit (never blocks).
func (s *Store) poke() {
	if s.wrote == nil {
		return
	}
	select {
	case s.wrote <- struct{}{}:
	default:
	}
}

// listen is the PostgreSQL watcher: LISTEN on its own connection, outside
// the pool (a pooled connection would be handed to other queries).
func (s *Store) listen(ctx context.Context, o WatchOptions, fn func(Changes)) {
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, o, fn, func() { wait = 100 * time.Millisecond })
		if ctx.Err() != nil {
			return
		}
		o.OnError(fmt.Errorf("change listener: %w", err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, o.Poll)
	}
}

func (s *Store) listenOnce(ctx context.Context, o WatchOptions, fn func(Changes), connected func()) error {
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return Classify(err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+ChangeChannel); err != nil {
		return Classify(err)
	}
	connected()
	if o.OnListen != nil {
		o.OnListen()
	}
	// Whatever was committed while no connection listened is unknown.
	fn(Changes{All: true})
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		// One batch per notification: the receiver folds bursts (web/site/live_hub.go).
		batch := Changes{}
		addPayload(&batch, n.Payload)
		fn(batch)
	}
}

// addPayload reads one notification of migration 00120: "e:<event id>" or
// "r" (the registry). Anything else is taken as "look at everything".
func addPayload(c *Changes, payload string) {
	if id, ok := strings.CutPrefix(payload, "e:"); ok {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			c.Events = append(c.Events, n)
			return
		}
	}
	c.All = true
}

// poll is the SQLite watcher: it compares the revision rows with what it
// saw last (one statement per look).
func (s *Store) poll(ctx context.Context, o WatchOptions, fn func(Changes)) {
	seen, reg, err := s.revisions(ctx)
	if err != nil {
		o.OnError(err)
	}
	if o.OnListen != nil {
		o.OnListen()
	}
	t := time.NewTicker(o.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wrote:
		}
		now, nreg, err := s.revisions(ctx)
		if err != nil {
			if ctx.Err() == nil {
				o.OnError(err)
			}
			continue
		}
		batch := Changes{All: nreg != reg}
		for id, r := range now {
			if seen[id] != r {
				batch.Events = append(batch.Events, id)
			}
		}
		seen, reg = now, nreg
		if batch.All || len(batch.Events) > 0 {
			fn(batch)
		}
	}
}

// revisions reads every event's revision and the registry's.
func (s *Store) revisions(ctx context.Context) (map[int64]int64, int64, error) {
	rows, err := s.DB(ctx).Raw(`SELECT event_id, revision FROM event_changes
		UNION ALL SELECT 0, revision FROM registry_changes WHERE id = 1`).Rows()
	if err != nil {
		return nil, 0, fmt.Errorf("read revisions: %w", Classify(err))
	}
	defer rows.Close()
	out := map[int64]int64{}
	var reg int64
	for rows.Next() {
		var id, r int64
		if err := rows.Scan(&id, &r); err != nil {
			return nil, 0, fmt.Errorf("read revisions: %w", Classify(err))
		}
		if id == 0 {
			reg = r
		} else {
			out[id] = r
		}
	}
	return out, reg, Classify(rows.Err())
}

// ChangeNotifyTriggers are the triggers of migration 00120, PostgreSQL
// only (SQLite has no NOTIFY), so the tests comparing both dialects'
// triggers leave them aside.
func ChangeNotifyTriggers() []string {
	return []string{"event_changes_notify", "registry_changes_notify"}
}
