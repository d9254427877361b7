package ratings_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/ratings"
	"kisen/store"
	"kisen/store/storetest"
)

// TestRatingRefresh_IdleCostsOneStatement: once the ratings are current,
// the worker's check reads one row and recomputes nothing.
func TestRatingRefresh_IdleCostsOneStatement(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		f.play(f.Event, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		if sum, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil || !sum.Recomputed {
			t.Fatalf("first refresh: %+v %v, want a recompute", sum, err)
		}
		before := s.Statements()
		sum, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx)
		if err != nil || sum.Recomputed || sum.GamesUsed != 1 {
			t.Fatalf("idle refresh: %+v %v, want the stored summary", sum, err)
		}
		if n := s.Statements() - before; n != 1 {
			t.Errorf("idle refresh ran %d statements, want 1", n)
		}
	})
}

// TestRatingRefresh_ConcurrentRefreshesComputeOnce: several workers (as in
// several `kisen serve` processes sharing a PostgreSQL) finding the same
// change recompute once between them, and the state ends current.
func TestRatingRefresh_ConcurrentRefreshesComputeOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		f.play(f.Event, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		const workers = 4
		var wg sync.WaitGroup
		results := make(chan ratings.RatingSummary, workers)
		errs := make(chan error, workers)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each worker its own Office, as each process has its own.
				sum, err := ratings.New(office.New(s, time.Now)).RefreshRatingsIfStale(context.Background())
				results <- sum
				errs <- err
			}()
		}
		wg.Wait()
		close(results)
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		for sum := range results {
			if sum.Recomputed {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d of %d concurrent refreshes recomputed, want exactly 1", n, workers)
		}
		st, _, err := s.RatingStateRow(f.Ctx)
		if err != nil || st.Stale() || st.ComputedRevision != st.InputRevision {
			t.Fatalf("state after the refreshes %+v %v, want current", st, err)
		}
	})
}

// TestRatingRefresh_RevisionWithoutRatingChangeMarksCurrent: a change that
// bumps the revision but nothing a rating depends on (a game in a draft
// event) is settled by the fingerprint, without rating everything again;
// the computed revision never goes backwards.
func TestRatingRefresh_RevisionWithoutRatingChangeMarksCurrent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		f.play(f.Event, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		if _, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx); err != nil {
			t.Fatal(err)
		}
		draft := event2Named(f.GameFixture, "{}", "下書き棋戦")
		if _, err := f.O.CreateGame(f.Ctx, f.Admin, office.GameInput{EventID: draft.ID, SenteID: &f.players[2].ID, GoteID: &f.players[3].ID}); err != nil {
			t.Fatal(err)
		}
		st, _, _ := s.RatingStateRow(f.Ctx)
		if !st.Stale() {
			t.Fatalf("a new game did not mark the ratings stale: %+v", st)
		}
		sum, err := ratings.New(f.O).RefreshRatingsIfStale(f.Ctx)
		if err != nil || sum.Recomputed || sum.GamesUsed != 1 {
			t.Fatalf("refresh after a draft game: %+v %v, want no recompute and the stored summary", sum, err)
		}
		after, _, _ := s.RatingStateRow(f.Ctx)
		if after.Stale() || after.ComputedRevision != st.InputRevision || after.Fingerprint != st.Fingerprint {
			t.Fatalf("state %+v, want current at revision %d with the same fingerprint", after, st.InputRevision)
		}
		err = s.Tx(f.Ctx, func(tx *store.Store) error {
			old := after
			old.ComputedRevision = 1
			return tx.MarkRatingsCurrent(f.Ctx, old)
		})
		if again, _, _ := s.RatingStateRow(f.Ctx); err != nil || again.ComputedRevision != after.ComputedRevision {
			t.Fatalf("an older revision moved the computed revision %d → %d (%v)", after.ComputedRevision, again.ComputedRevision, err)
		}
	})
}

// TestRatingRefresh_WorkerCatchesUpAndStops: RunRatingRefresher rates a
// result within a few ticks and returns when its context ends.
func TestRatingRefresh_WorkerCatchesUpAndStops(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newRatingFixture(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			ratings.New(office.New(s, time.Now)).RunRatingRefresher(ctx, 20*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
		}()
		f.play(f.Event, f.players[0], f.players[1], "", office.ResultSenteWin, "resignation")
		deadline := time.Now().Add(20 * time.Second)
		for {
			st, ok, err := s.RatingStateRow(f.Ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r, _, _ := s.PlayerRatingOf(f.Ctx, f.players[0].ID); ok && !st.Stale() && r.Rating == 1516 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the worker did not rate the result: %+v", st)
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the worker did not stop when its context ended")
		}
	})
}
