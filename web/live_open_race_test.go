package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/web/site"
)

// Issue 21 item 11: a stream that opens while a write commits never misses
// it. The opening has two steps — join the hub, read the revision to start
// from — and a write can commit between any two; the test commits one at
// each step (Server.liveStepHook) and lets the hub handle its notification
// completely (the real watcher: PostgreSQL's LISTEN/NOTIFY, SQLite's
// revision rows after the commit's poke) before the stream goes on. The
// stream's first event must be "changed" at the revision the write made.
// With the revision read before the join (the order before issue 21) the
// write at that step was lost: the hub had no stream of the event to tell,
// and the stream started from the revision before it. No sleeps: each
// wait is for a channel, with a bound only against a hang.
func TestLive_StreamOpeningWhileAWriteCommitsNeverMissesIt(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		o := a.srv.Office
		g := newGameSetup(t, a, "")
		// One event per step, so the notification a step waits for is its own.
		ev2, err := o.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: g.event.OrganiserID, Name: "第2期テスト戦", Kind: office.EventKnockout,
			StartDate: "2026-11-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		if err := o.SetEventStatus(ctx, g.admin, ev2.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		if err := o.GrantEventRole(ctx, g.admin, office.RoleGrant{EventID: ev2.ID, UserID: g.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
			t.Fatal(err)
		}
		game2, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: ev2.ID, Label: "1回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		type target struct{ event, game int64 }
		steps := []string{site.LiveStepJoined, site.LiveStepRevisionRead}
		targets := map[string]target{site.LiveStepJoined: {g.event.ID, g.game.ID}, site.LiveStepRevisionRead: {ev2.ID, game2.ID}}

		// The watcher and the hub's worker, as RunLive runs them, with the
		// rounds of the worker reported.
		rounds := make(chan map[int64]bool, 256)
		a.srv.Live.AfterRound = func(_ bool, dirty map[int64]bool) { rounds <- maps.Clone(dirty) }
		wctx, cancel := context.WithCancel(ctx)
		listening := make(chan struct{}, 8)
		var wg sync.WaitGroup
		wg.Go(func() { a.srv.Live.Run(wctx, func(err error) { t.Log(err) }) })
		wg.Go(func() {
			a.srv.Office.Store().WatchChanges(wctx, store.WatchOptions{OnListen: func() { listening <- struct{}{} }}, a.srv.Live.Changed)
		})
		t.Cleanup(func() {
			a.srv.Live.Close()
			cancel()
			wg.Wait()
		})
		select {
		case <-listening:
		case <-time.After(10 * time.Second):
			t.Fatal("the watcher did not start")
		}

		var mu sync.Mutex
		writeAt := ""                 // the step at which the hook writes
		wrote := make(chan string, 1) // the revision the write made
		a.srv.LiveStepHook = func(step string) {
			mu.Lock()
			at := writeAt
			mu.Unlock()
			if step != at {
				return
			}
			tg := targets[at]
			if _, err := o.EndGame(ctx, g.arbiter, tg.game, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
				t.Error(err)
				return
			}
			rev, err := a.srv.EventRevisionString(ctx, tg.event)
			if err != nil {
				t.Error(err)
				return
			}
			wrote <- rev
			// The hub hears of it and finishes its round before the stream
			// goes on.
			for {
				select {
				case dirty := <-rounds:
					if dirty[tg.event] {
						return
					}
				case <-time.After(10 * time.Second):
					t.Errorf("step %q: the hub never handled the write's notification", at)
					return
				}
			}
		}
		for _, step := range steps {
			tg := targets[step]
			before, err := a.srv.EventRevisionString(ctx, tg.event)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			writeAt = step
			mu.Unlock()
			s, resp := openStream(t, http.DefaultClient, fmt.Sprintf("%s/events/%d/stream?rev=%s", a.ts.URL, tg.event, before), "")
			if s == nil {
				t.Fatalf("step %q: stream %d", step, resp.StatusCode)
			}
			var want string
			select {
			case want = <-wrote:
			case <-time.After(10 * time.Second):
				t.Fatalf("step %q: the hook did not write", step)
			}
			if want == before {
				t.Fatalf("step %q: the write did not move the revision (%s)", step, before)
			}
			ev, ok := s.next(10 * time.Second)
			if !ok || ev.Name != "changed" || ev.ID != want {
				t.Errorf("write committed at step %q: the stream's first event is %+v (ok %v); want changed at %s (the page was at %s)",
					step, ev, ok, want, before)
			}
			s.close()
		}
	})
}
