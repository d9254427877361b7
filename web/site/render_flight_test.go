package site

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestRenderCache_ConcurrentMissesShareOneRendering: visitors who miss the
// same page at the same revision together wait for the first visitor's
// rendering and are served its bytes; when the first one's answer is not
// kept (here a 500), one of the waiting visitors renders for the others. Issue 12: after
// a write, a busy public page is rendered once, not once per reader.
func TestRenderCache_ConcurrentMissesShareOneRendering(t *testing.T) {
	t.Parallel()
	for _, firstFails := range []bool{false, true} {
		s := &Server{Pages: NewRenderCache()}
		e := echo.New()
		var renders atomic.Int32
		release := make(chan struct{})
		started := make(chan struct{})
		var once sync.Once
		e.GET("/page", func(c echo.Context) error {
			if done, err := s.AnswerConditional(c, `W/"1-tag"`, "key-at-1", time.Time{}, true); done || err != nil {
				return err
			}
			n := renders.Add(1)
			if n == 1 {
				once.Do(func() { close(started) })
				<-release
				if firstFails {
					return c.String(http.StatusInternalServerError, "failed")
				}
			}
			return c.String(http.StatusOK, "the page")
		}, s.CaptureRender)
		get := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/page", nil))
			return rec
		}
		const readers = 12
		recs := make([]*httptest.ResponseRecorder, readers)
		var wg sync.WaitGroup
		wg.Go(func() { recs[0] = get() })
		<-started
		for i := 1; i < readers; i++ {
			wg.Go(func() { recs[i] = get() })
		}
		// Give the others time to miss and wait. One slower than this
		// finds the page kept; either way none may render it again.
		time.Sleep(100 * time.Millisecond)
		close(release)
		wg.Wait()
		want := int32(1)
		if firstFails {
			want = 2 // the first one's 500 is not kept: the next one renders for the rest
		}
		if n := renders.Load(); n != want {
			t.Fatalf("first fails %v: %d renderings for %d concurrent readers, want %d", firstFails, n, readers, want)
		}
		for i, rec := range recs[1:] {
			if rec.Code != http.StatusOK || rec.Body.String() != "the page" {
				t.Fatalf("first fails %v: reader %d got %d %q", firstFails, i+1, rec.Code, rec.Body.String())
			}
		}
		if len(s.Pages.Flights) != 0 {
			t.Fatalf("first fails %v: %d renderings still marked in flight", firstFails, len(s.Pages.Flights))
		}
	}
}
