package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// TestServe_RatingWorkerRecomputesInTheBackground: `kisen serve` starts the
// rating worker; results entered before it ran are rated within a few of
// its ticks (no page was read), and the worker stops with the server.
func TestServe_RatingWorkerRecomputesInTheBackground(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, opts store.Options) {
		seedRatingGames(t, opts)
		args := []string{"serve", "--listen", freePort(t), "--log-level", "warn", "--rating-refresh", "100ms"}
		if opts.URL != "" {
			args = append(args, "--database-url", opts.URL)
		} else {
			args = append(args, "--data-dir", filepath.Dir(opts.SQLitePath))
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan int, 1)
		var errb bytes.Buffer
		go func() {
			done <- run(ctx, env{args: args, stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: &errb, getenv: noEnv})
		}()
		st, err := store.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		deadline := time.Now().Add(30 * time.Second)
		for {
			rs, ok, err := st.RatingStateRow(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if ok && rs.Computed() && !rs.Stale() {
				if rs.InputRevision == 0 {
					t.Fatalf("state %+v: the seeded writes did not bump the input revision", rs)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("ratings not recomputed by the worker: state %+v (ok %v); stderr %s", rs, ok, errb.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		rows, err := st.AllPlayerRatings(context.Background())
		if err != nil || len(rows) != 3 {
			t.Fatalf("stored ratings %+v %v, want the three players", rows, err)
		}
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Fatalf("exit %d after shutdown; stderr %s", code, errb.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatal("server (and its rating worker) did not stop after its context ended")
		}
	})
}
