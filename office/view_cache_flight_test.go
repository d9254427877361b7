package office

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestKept_ConcurrentMissesShareOneComputation: readers who miss the same
// view at the same revision together wait for one computation and all get
// its view; a reader at another revision computes its own; the next reader
// at the first revision is served the kept view (issue 12: after a write,
// a busy page is computed once, not once per reader).
func TestKept_ConcurrentMissesShareOneComputation(t *testing.T) {
	t.Parallel()
	c := &viewCache{}
	var computed atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	compute := func(v string) func() (string, error) {
		return func() (string, error) {
			computed.Add(1)
			select {
			case started <- struct{}{}:
			default:
			}
			<-release
			return v, nil
		}
	}
	const readers = 20
	got := make([]string, readers)
	var wg sync.WaitGroup
	wg.Go(func() { got[0], _ = kept(c, "k", "1", compute("view at 1")) })
	<-started // the first computation is under way; the others arrive now
	for i := 1; i < readers; i++ {
		wg.Go(func() { got[i], _ = kept(c, "k", "1", compute("another computation")) })
	}
	// Give the readers time to miss and join the flight. A reader slower
	// than this finds the view kept when it comes; either way none of them
	// may compute it again.
	time.Sleep(100 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := computed.Load(); n != 1 {
		t.Fatalf("%d computations for %d concurrent readers at one revision, want 1", n, readers)
	}
	for i, v := range got {
		if v != "view at 1" {
			t.Fatalf("reader %d got %q, want the shared computation's view", i, v)
		}
	}
	if v, _ := kept(c, "k", "1", func() (string, error) { return "recomputed", nil }); v != "view at 1" {
		t.Fatalf("after the flight, the kept view is %q", v)
	}
	if v, _ := kept(c, "k", "2", func() (string, error) { return "view at 2", nil }); v != "view at 2" {
		t.Fatalf("another revision got %q, want its own computation", v)
	}
}

// TestKept_FailedSharedComputationLetsEachReaderCompute: when the shared
// computation fails (its reader went away, say), each waiting reader
// computes on its own instead of taking another reader's error; a lone
// reader's error is its own and nothing is kept.
func TestKept_FailedSharedComputationLetsEachReaderCompute(t *testing.T) {
	t.Parallel()
	c := &viewCache{}
	release := make(chan struct{})
	started := make(chan struct{})
	var wg sync.WaitGroup
	var leaderErr error
	var once sync.Once
	wg.Go(func() {
		_, leaderErr = kept(c, "k", "1", func() (string, error) {
			once.Do(func() { close(started) }) // the leader computes again after the shared failure
			<-release
			return "", errors.New("reader went away")
		})
	})
	<-started
	var follower string
	var followerErr error
	wg.Go(func() {
		follower, followerErr = kept(c, "k", "1", func() (string, error) { return "own view", nil })
	})
	time.Sleep(100 * time.Millisecond) // the follower joins the failing flight
	close(release)
	wg.Wait()
	if followerErr != nil || follower != "own view" {
		t.Fatalf("follower got %q, %v; want its own computation", follower, followerErr)
	}
	if leaderErr == nil {
		t.Fatal("the leader's failed computation answered no error")
	}
	c2 := &viewCache{}
	if _, err := kept(c2, "k", "1", func() (string, error) { return "", errors.New("boom") }); err == nil {
		t.Fatal("a lone reader's failed computation answered no error")
	}
	if _, ok := c2.get("k", "1"); ok {
		t.Fatal("a failed computation was kept")
	}
}
