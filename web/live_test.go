package web

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/office/seed"
	"kisen/web/site"
)

// sseEvent is one block of an event stream as a browser would read it.
type sseEvent struct {
	ID, Name, Data string
}

// sseStream reads an open stream on its own goroutine.
type sseStream struct {
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
}

// openStream opens url with the given Last-Event-ID ("" for none).
func openStream(t *testing.T, c *http.Client, rawURL, lastID string) (*sseStream, *http.Response) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	sc := *c
	sc.Timeout = 0
	resp, err := sc.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		resp.Body.Close()
		return nil, resp
	}
	s := &sseStream{resp: resp, events: make(chan sseEvent, 64), cancel: cancel}
	t.Cleanup(s.close)
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var ev sseEvent
		block := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if block {
					s.events <- ev
				}
				ev, block = sseEvent{}, false
			case strings.HasPrefix(line, ":"), strings.HasPrefix(line, "retry:"):
			case strings.HasPrefix(line, "id: "):
				ev.ID, block = strings.TrimPrefix(line, "id: "), true
			case strings.HasPrefix(line, "event: "):
				ev.Name, block = strings.TrimPrefix(line, "event: "), true
			case strings.HasPrefix(line, "data: "):
				ev.Data, block = strings.TrimPrefix(line, "data: "), true
			}
		}
	}()
	return s, resp
}

func (s *sseStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next is the next event within d; ok is false when none came (or the
// stream ended).
func (s *sseStream) next(d time.Duration) (sseEvent, bool) {
	select {
	case ev, ok := <-s.events:
		return ev, ok
	case <-time.After(d):
		return sseEvent{}, false
	}
}

// liveBracket is a published 8-player stage with the change watcher
// running, as `kisen serve` runs it.
type liveBracket struct {
	f    *bracketFixture
	path string // /stages/:id
	sid  int64
}

func newLiveBracket(t *testing.T, a *testApp) *liveBracket {
	t.Helper()
	f := newBracketFixture(t, a)
	path := f.newStage(t, "本戦")
	for _, p := range f.players {
		if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add entrant: %d", resp.StatusCode)
		}
	}
	if resp, _ := a.postForm(path+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("draw: %d", resp.StatusCode)
	}
	if resp, _ := a.postForm(path+"/publish", url.Values{"confirm": {"1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("publish: %d", resp.StatusCode)
	}
	startLive(t, a)
	return &liveBracket{f: f, path: path, sid: stageIDOf(t, path)}
}

// startLive runs the server's change watcher for the test; it is stopped,
// and the streams ended, before the test server closes.
func startLive(t *testing.T, a *testApp) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.srv.RunLive(ctx)
	}()
	t.Cleanup(func() {
		a.srv.Live.Close()
		cancel()
		<-done
	})
}

// enterResult enters the sente player's... the gote player's win of the
// stage's first game through the director's form, as a person would.
func (lb *liveBracket) enterResult(t *testing.T, a *testApp, game int) (gameID int64, winner string) {
	t.Helper()
	ctx := context.Background()
	kgs, err := a.store.KnockoutGamesOfStage(ctx, lb.sid)
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.store.GameByID(ctx, kgs[game].GameID)
	if err != nil {
		t.Fatal(err)
	}
	form := `[data-testid="result-` + kgs[game].BracketGame + `"]`
	resp, _ := a.postForm(lb.path+"/result", a.shown(lb.path, form, url.Values{"confirm": {"1"}, "winner": {strconv.FormatInt(*g.GotePlayerID, 10)}, "reason": {"resignation"}}))
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("quick result: %d", resp.StatusCode)
	}
	for _, p := range lb.f.players {
		if p.ID == *g.GotePlayerID {
			winner = p.Name
		}
	}
	return g.ID, winner
}

// streamRev is the revision a page's body names in its sse-connect.
func streamRev(t *testing.T, body string) string {
	t.Helper()
	u, ok := doc(t, body).Find("body").Attr("sse-connect")
	if !ok {
		t.Fatal("the page does not open its event's stream")
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query().Get("rev")
}

// TestLive_ResultReachesStreamAndPage: a public visitor's stream hears
// "changed" with the new revision when a director enters a result, and
// the page read afterwards shows the result and names that revision.
func TestLive_ResultReachesStreamAndPage(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		lb := newLiveBracket(t, a)
		public := a.newClient()
		page := lb.f.eventPath() + "/brackets"
		resp, body := a.do(public, http.MethodGet, page, nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("brackets: %d", resp.StatusCode)
		}
		before := streamRev(t, body)
		if doc(t, body).Find("#live-brackets.live[hx-trigger='sse:changed']").Length() != 1 {
			t.Fatal("the bracket is not a live region")
		}
		s, resp := openStream(t, public, a.ts.URL+lb.f.eventPath()+"/stream?rev="+before, "")
		if s == nil {
			t.Fatalf("stream: %d", resp.StatusCode)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("content type %q", ct)
		}
		first, ok := s.next(2 * time.Second)
		if !ok || first.ID != before || first.Name != "" {
			t.Fatalf("first block %+v (page at %s): want the page's revision, no change", first, before)
		}
		start := time.Now()
		gameID, winner := lb.enterResult(t, a, 0)
		ev, ok := s.next(time.Second)
		if !ok || ev.Name != "changed" || ev.ID == before {
			t.Fatalf("no change heard within 1 s of the result: %+v", ev)
		}
		t.Logf("result → stream: %v", time.Since(start))
		resp, body = a.do(public, http.MethodGet, page, nil, "")
		if resp.StatusCode != http.StatusOK || streamRev(t, body) != ev.ID {
			t.Fatalf("page after the change: %d at %s, stream said %s", resp.StatusCode, streamRev(t, body), ev.ID)
		}
		if !strings.Contains(doc(t, body).Find("#live-brackets").Text(), winner) {
			t.Fatal("the page does not show the winner")
		}
		if eff, ok, _ := a.store.EffectiveResult(context.Background(), gameID); !ok || eff.Result != office.ResultGoteWin {
			t.Fatalf("stored %+v", eff)
		}
	})
}

// TestLive_LastEventIDResumes: a reconnect naming an old revision hears
// "changed" at once; one naming the current revision hears nothing.
func TestLive_LastEventIDResumes(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		lb := newLiveBracket(t, a)
		public := a.newClient()
		stream := a.ts.URL + lb.f.eventPath() + "/stream"
		s, _ := openStream(t, public, stream, "")
		first, _ := s.next(2 * time.Second)
		s.close()
		lb.enterResult(t, a, 1)

		s, _ = openStream(t, public, stream, first.ID)
		ev, ok := s.next(2 * time.Second)
		if !ok || ev.Name != "changed" || ev.ID == first.ID {
			t.Fatalf("missed revision not announced: %+v (had %s)", ev, first.ID)
		}
		s.close()
		s, _ = openStream(t, public, stream, ev.ID)
		if cur, ok := s.next(2 * time.Second); !ok || cur.Name != "" || cur.ID != ev.ID {
			t.Fatalf("up-to-date reconnect: %+v", cur)
		}
		if more, ok := s.next(300 * time.Millisecond); ok {
			t.Fatalf("an up-to-date client heard %+v", more)
		}
	})
}

// TestLive_DraftStreamIsNotFound: the stream of a draft event is 404 for
// the public, like its pages (the visibility rule of office).
func TestLive_DraftStreamIsNotFound(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	f := newBracketFixture(t, a)
	if resp, _ := a.do(a.newClient(), http.MethodGet, f.eventPath()+"/stream", nil, ""); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("public stream of a draft: %d", resp.StatusCode)
	}
	s, resp := openStream(t, a.client, a.ts.URL+f.eventPath()+"/stream", "")
	if s == nil {
		t.Fatalf("the administrator's stream of the draft: %d", resp.StatusCode)
	}
	a.srv.Live.Close()
}

// TestLive_Limits: streams beyond the per-address limit get 429, beyond
// the total 503, both with Retry-After and a message in the reader's
// language; closing a stream frees its place.
func TestLive_Limits(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	// A closed stream is noticed at the next write: heartbeats often here.
	a.srv.Live.Heartbeat = 50 * time.Millisecond
	lb := newLiveBracket(t, a)
	a.srv.Live.MaxPerAddr, a.srv.Live.MaxTotal = 2, 3
	public := a.newClient()
	stream := a.ts.URL + lb.f.eventPath() + "/stream"
	s1, _ := openStream(t, public, stream, "")
	s2, _ := openStream(t, public, stream, "")
	if s1 == nil || s2 == nil {
		t.Fatal("streams within the limit refused")
	}
	s3, resp := openStream(t, public, stream, "")
	if s3 != nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third stream from one address: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// The total: a third address would exceed 3 once a's 2 and one more
	// are open; the hub counts, whatever the address.
	if err := a.srv.Live.Admit("192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	a.srv.Live.MaxPerAddr = 10
	s4, resp := openStream(t, public, stream, "")
	if s4 != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("stream over the total: %d", resp.StatusCode)
	}
	s1.close()
	deadline := time.Now().Add(2 * time.Second)
	for a.srv.Live.Open() > 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	s5, resp := openStream(t, public, stream, "")
	if s5 == nil {
		t.Fatalf("a closed stream's place not freed: %d", resp.StatusCode)
	}
}

// TestLive_ShutdownEndsStreams: Run's graceful shutdown ends open streams
// at once instead of waiting out its grace period for them.
func TestLive_ShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	s := storetestSQLite(t)
	a := newTestApp(t, s)
	lb := newLiveBracket(t, a)
	cfg := a.srv.Config
	cfg.Listen, cfg.ShutdownTimeout = "127.0.0.1:0", 20*time.Second
	srv, err := New(Deps{Config: cfg, Office: office.New(s, time.Now)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, func(a string) { addr <- a }) }()
	base := "http://" + <-addr
	st, resp := openStream(t, a.newClient(), base+lb.f.eventPath()+"/stream", "")
	if st == nil {
		t.Fatalf("stream: %d", resp.StatusCode)
	}
	if _, ok := st.next(2 * time.Second); !ok {
		t.Fatal("no first block")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("shutdown waits for the open stream")
	}
	if _, ok := st.next(2 * time.Second); ok {
		t.Fatal("stream still open after shutdown")
	}
	t.Logf("shutdown with an open stream took %v", time.Since(start))
}

// TestProjector_RoundBoardsAndPaging: the projector shows the round being
// played, board by board, with the result once entered; a bad ?every= is
// 422 naming the field in the reader's language.
func TestProjector_RoundBoardsAndPaging(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		lb := newLiveBracket(t, a)
		public := a.newClient()
		p := lb.f.eventPath() + "/projector"
		_, winner := lb.enterResult(t, a, 0)
		resp, body := a.do(public, http.MethodGet, p+"?every=20", nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("projector: %d", resp.StatusCode)
		}
		d := doc(t, body)
		if d.Find("header.site, nav").Length() != 0 {
			t.Fatal("the projector shows navigation")
		}
		if every, _ := d.Find("[data-projector]").Attr("data-every"); every != "20" {
			t.Fatalf("paging every %q", every)
		}
		boards := d.Find(`[data-testid="projector-board"]`)
		if boards.Length() != 4 {
			t.Fatalf("%d boards, want round 1's 4", boards.Length())
		}
		if w := boards.First().Find("td.winner").Text(); !strings.Contains(w, winner) {
			t.Fatalf("first board's winner %q, want %q", w, winner)
		}
		if r := boards.First().Find(`[data-testid="projector-result"]`).Text(); strings.TrimSpace(r) == "" {
			t.Fatal("the played board shows no result")
		}
		if _, ok := d.Find("body").Attr("sse-connect"); !ok {
			t.Fatal("the projector is not live")
		}
		for _, bad := range []string{"3", "ten", "601"} {
			resp, body := a.do(public, http.MethodGet, p+"?every="+bad, nil, "")
			msg := testid(t, body, "projector-error")
			if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg, "every") || !hasJapanese(msg) {
				t.Fatalf("every=%s: %d %q", bad, resp.StatusCode, msg)
			}
		}
		resp, body = a.do(public, http.MethodGet, p+"?every=1&lang=en", nil, "")
		if msg := testid(t, body, "projector-error"); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg, "page interval") {
			t.Fatalf("English message: %d %q", resp.StatusCode, msg)
		}
	})
}

// TestProjector_LeagueTable: a league event's projector shows each class's
// table, one row per player in the class page's order, and is live.
func TestProjector_LeagueTable(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f, err := seed.New(context.Background(), a.srv.Office, a.store, a.now)
		if err != nil {
			t.Fatal(err)
		}
		ev, _, err := f.League(context.Background(), 11, 10)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := a.do(a.newClient(), http.MethodGet, "/events/"+strconv.FormatInt(ev.ID, 10)+"/projector", nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("projector: %d", resp.StatusCode)
		}
		d := doc(t, body)
		rows := d.Find(`[data-testid="projector-table"] [data-testid="projector-row"]`)
		if rows.Length() != 11 {
			t.Fatalf("%d rows, want 11", rows.Length())
		}
		prev := 0
		rows.Each(func(_ int, r *goquery.Selection) {
			n, _ := strconv.Atoi(strings.TrimSpace(r.Find("td").First().Text()))
			if n < prev {
				t.Errorf("順位 %d after %d", n, prev)
			}
			prev = n
		})
		if _, ok := d.Find("body").Attr("sse-connect"); !ok {
			t.Fatal("the projector is not live")
		}
	})
}

// TestRenderCache_SameBytesOwnTokenNeverStale: a second anonymous visitor
// gets the first one's page from the render cache with their own CSRF
// token (and for fewer statements); after a result the next page shows
// it; a signed-in director is never served the public bytes.
func TestRenderCache_SameBytesOwnTokenNeverStale(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		lb := newLiveBracket(t, a)
		page := lb.f.eventPath() + "/brackets"
		first, second := a.newClient(), a.newClient()
		_, body1 := a.do(first, http.MethodGet, page, nil, "")
		before := a.store.Statements()
		_, body2 := a.do(second, http.MethodGet, page, nil, "")
		hit := a.store.Statements() - before
		before = a.store.Statements()
		a.srv.Pages = site.NewRenderCache() // empty: the same request computed
		_, body3 := a.do(second, http.MethodGet, page, nil, "")
		miss := a.store.Statements() - before
		if hit >= miss {
			t.Fatalf("a kept page cost %d statements, a computed one %d", hit, miss)
		}
		tok := func(body string) string {
			v, _ := doc(t, body).Find(`meta[name="csrf-token"]`).Attr("content")
			return v
		}
		if tok(body1) == "" || tok(body1) == tok(body2) {
			t.Fatalf("second visitor's token %q, first's %q", tok(body2), tok(body1))
		}
		if tok(body2) != a.csrfToken(second) {
			t.Fatal("the kept page does not carry the visitor's own token")
		}
		if strings.ReplaceAll(body1, tok(body1), "T") != strings.ReplaceAll(body2, tok(body2), "T") || body2 != body3 {
			t.Fatal("the kept page differs from the computed one")
		}
		_, winner := lb.enterResult(t, a, 0)
		_, after := a.do(second, http.MethodGet, page, nil, "")
		if !strings.Contains(doc(t, after).Find("#live-brackets .winner").Text(), winner) {
			t.Fatal("a stale page after the result")
		}
		_, staff := a.get(page)
		if doc(t, staff).Find(`[data-testid="nav-user"]`).Length() != 1 {
			t.Fatal("the director was served the public page")
		}
	})
}
