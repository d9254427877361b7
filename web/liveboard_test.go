package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/rules"
	"kisen/store"
	"kisen/web/site"
)

// The public live board (issue 26 item 5, docs/recorder.md "The live
// board"): /games/:id/live, the event's list /events/:id/live, the embed
// /embed/games/:id and the game's stream /games/:id/stream.

// liveBoardSettings: the federation's stopwatch, 10 minutes, byoyomi.
const liveBoardSettings = `{"time":{"allowance":"10m","timing":"stopwatch","byoyomi":"60s"}}`

// playLive enters n legal moves into game as the arbiter would from the
// recorder's page (the first legal move in the engine's order, so the
// game is the same every run), each taking 65 s, with a comment on move 2.
func playLive(t *testing.T, a *testApp, who office.Actor, gameID int64, n int) office.LiveRecord {
	t.Helper()
	ctx := context.Background()
	r, err := a.srv.Office.LiveRecord(ctx, who, gameID)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.ParseSFEN(r.SFEN)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(r.Moves); i < n; i++ {
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			t.Fatalf("no legal move at ply %d", i+1)
		}
		m := legal[(i*7)%len(legal)]
		in := office.LiveMoveInput{Ply: i + 1, Move: m.USI(), Elapsed: 65, VersionSeen: r.Version}
		if i == 1 {
			in.Comment = "長考の末"
		}
		if r, err = a.srv.Office.RecordMove(ctx, who, gameID, in); err != nil {
			t.Fatalf("move %d %s: %v", i+1, m.USI(), err)
		}
		pos.Do(m)
	}
	return r
}

// TestLiveBoard_ShowsTheRecordInOrderAndStepsByPly: the public live board
// shows every move in order with its time and the mover's time left, the
// last move marked, the clock and the comment; ?ply=N shows the position
// after N moves (and stays there); the embed and the event's list show the
// same game.
func TestLiveBoard_ShowsTheRecordInOrderAndStepsByPly(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, liveBoardSettings)
		rec := playLive(t, a, g.arbiter, g.game.ID, 6)
		public := a.newClient()
		path := fmt.Sprintf("/games/%d/live", g.game.ID)
		resp, body := a.do(public, http.MethodGet, path, nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("live board: %d\n%s", resp.StatusCode, body)
		}
		d := doc(t, body)
		rows := d.Find(`[data-testid="liveboard-move"]`)
		if rows.Length() != 6 {
			t.Fatalf("%d moves listed, want 6", rows.Length())
		}
		for i := range 6 {
			row := rows.Eq(i)
			if p, _ := row.Attr("data-ply"); p != strconv.Itoa(i+1) {
				t.Fatalf("row %d is move %s", i, p)
			}
			if txt := row.Find(`[data-testid="liveboard-move-text"]`).Text(); txt != rec.Moves[i].Text {
				t.Fatalf("move %d reads %q, the record %q", i+1, txt, rec.Moves[i].Text)
			}
			// 65 s taken; the stopwatch charges the whole minute.
			if tm := row.Find(`[data-testid="liveboard-move-time"]`).Text(); !strings.Contains(tm, "1分05秒") || !strings.Contains(tm, "1分00秒") {
				t.Fatalf("move %d time %q", i+1, tm)
			}
		}
		if c := rows.Eq(1).Find(`[data-testid="liveboard-move-comment"]`).Text(); c != "長考の末" {
			t.Fatalf("move 2's comment %q", c)
		}
		if p, _ := d.Find(`#liveboard`).Attr("data-ply"); p != "6" {
			t.Fatalf("the board shows ply %s, want the newest (6)", p)
		}
		if lm := d.Find(`[data-testid="last-move"]`).Text(); lm != rec.Moves[5].Text {
			t.Fatalf("last move %q, want %q", lm, rec.Moves[5].Text)
		}
		if d.Find(`[data-testid="last-square"]`).Length() != 1 || d.Find(`[data-testid="liveboard-following"]`).Length() != 1 {
			t.Fatal("the newest move is not marked, or the board does not say it follows")
		}
		// Each side was charged 3 minutes of the game's 180.
		if c := d.Find(`[data-testid="board-clock"]`).Text(); !strings.Contains(c, "☗ 177分00秒") || !strings.Contains(c, "☖ 177分00秒") || !strings.Contains(c, "先手の手番") {
			t.Fatalf("clock %q", c)
		}
		if u, _ := d.Find("body").Attr("sse-connect"); !strings.HasPrefix(u, fmt.Sprintf("/games/%d/stream?rev=", g.game.ID)) {
			t.Fatalf("the page listens to %q", u)
		}
		if d.Find(`#liveboard[hx-trigger="sse:changed"]`).Length() != 1 {
			t.Fatal("the board is not a live region")
		}

		// ?ply=2: the position after two moves, held there.
		resp, body = a.do(public, http.MethodGet, path+"?ply=2", nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("?ply=2: %d", resp.StatusCode)
		}
		d = doc(t, body)
		if p, _ := d.Find(`#liveboard`).Attr("data-ply"); p != "2" {
			t.Fatalf("?ply=2 shows ply %s", p)
		}
		if lm := d.Find(`[data-testid="last-move"]`).Text(); lm != rec.Moves[1].Text {
			t.Fatalf("?ply=2 last move %q, want %q", lm, rec.Moves[1].Text)
		}
		if d.Find(`[data-testid="liveboard-held"]`).Length() != 1 || d.Find(`[data-testid="liveboard-comment"]`).Text() == "" {
			t.Fatal("?ply=2 does not say it is held, or misses move 2's comment")
		}
		if cur, _ := d.Find(`tr[aria-current="step"]`).Attr("data-ply"); cur != "2" {
			t.Fatalf("the record marks move %s as shown", cur)
		}
		if c := d.Find(`[data-testid="board-clock"]`).Text(); !strings.Contains(c, "☗ 179分00秒") || !strings.Contains(c, "☖ 179分00秒") {
			t.Fatalf("clock at ply 2 %q", c)
		}
		// The position is the replay of the first two moves.
		p2 := rules.NewPosition(rules.Even)
		for _, m := range rec.Moves[:2] {
			mv, _ := rules.ParseUSIMove(m.USI)
			p2.Do(mv)
		}
		mv2, err := rules.ParseUSIMove(rec.Moves[1].USI)
		if err != nil {
			t.Fatal(err)
		}
		to := mv2.To()
		sq := d.Find(fmt.Sprintf(`[data-square="%d%d"]`, to.File(), to.Rank()))
		if sq.Length() != 1 || sq.Text() != p2.At(to).Type().Kanji() {
			t.Fatalf("square of move 2: %q", sq.Text())
		}
		links := map[string]string{"board-prev": path + "?ply=1", "board-next": path + "?ply=3", "board-first": path + "?ply=0", "board-last": path}
		for id, want := range links {
			if href, _ := d.Find(`a[data-testid="` + id + `"]`).Attr("href"); href != want {
				t.Fatalf("%s links to %q, want %q", id, href, want)
			}
		}

		// The embed: framed, the same record.
		resp, body = a.do(public, http.MethodGet, fmt.Sprintf("/embed/games/%d?ply=3", g.game.ID), nil, "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Frame-Options") != "" {
			t.Fatalf("embed: %d, X-Frame-Options %q", resp.StatusCode, resp.Header.Get("X-Frame-Options"))
		}
		d = doc(t, body)
		if d.Find(`[data-testid="liveboard-move"]`).Length() != 6 {
			t.Fatal("the embed does not list the record")
		}
		if p, _ := d.Find(`#liveboard`).Attr("data-ply"); p != "3" {
			t.Fatalf("embed ?ply=3 shows %s", p)
		}
		if tg, _ := d.Find(`a[data-testid="board-next"]`).Attr("target"); tg != "_self" {
			t.Fatalf("the embed's step link opens %q", tg)
		}

		// The event's list links to the board.
		resp, body = a.do(public, http.MethodGet, fmt.Sprintf("/events/%d/live", g.event.ID), nil, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("list: %d", resp.StatusCode)
		}
		d = doc(t, body)
		row := d.Find(`[data-testid="livegames-row"]`)
		if row.Length() != 1 || !strings.Contains(row.Text(), "羽生 善治") || !strings.Contains(row.Text(), "6手") {
			t.Fatalf("list rows: %d %q", row.Length(), row.Text())
		}
		if href, _ := row.Find(`a[data-testid="livegames-link"]`).Attr("href"); href != path {
			t.Fatalf("list links to %q", href)
		}
	})
}

// TestLiveBoard_DraftEventIsNotFound: a game of an unpublished (draft)
// event is 404 on its live board, its embed and its stream, and its
// event's list is 404 — for the public and for the event's own staff (the
// board is the public's).
func TestLiveBoard_DraftEventIsNotFound(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, liveBoardSettings)
		ctx := context.Background()
		o := a.srv.Office
		draft, err := o.CreateEvent(ctx, g.admin, office.EventInput{OrganiserID: g.event.OrganiserID, Name: "下書きの棋戦", Kind: office.EventKnockout,
			StartDate: "2026-11-01", EndDate: "2026-12-31"})
		if err != nil {
			t.Fatal(err)
		}
		if draft.Status != office.StatusDraft {
			t.Fatalf("new event is %s", draft.Status)
		}
		dg, err := o.CreateGame(ctx, g.admin, office.GameInput{EventID: draft.ID, Label: "1回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 10})
		if err != nil {
			t.Fatal(err)
		}
		playLive(t, a, g.admin, dg.ID, 2)
		admin := a.newClient()
		a.signIn(admin, g.admin.UserID)
		for _, c := range []*http.Client{a.newClient(), admin} {
			for _, p := range []string{fmt.Sprintf("/games/%d/live", dg.ID), fmt.Sprintf("/games/%d/live?ply=1", dg.ID),
				fmt.Sprintf("/embed/games/%d", dg.ID), fmt.Sprintf("/events/%d/live", draft.ID)} {
				if resp, _ := a.do(c, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s: %d, want 404", p, resp.StatusCode)
				}
			}
			s, resp := openStream(t, c, a.ts.URL+fmt.Sprintf("/games/%d/stream", dg.ID), "")
			if s != nil || resp.StatusCode != http.StatusNotFound {
				t.Errorf("the draft game's stream: %d, want 404", resp.StatusCode)
			}
		}
		// A missing game likewise; the published game's board is there.
		for _, p := range []string{"/games/999999/live", "/embed/games/999999"} {
			if resp, _ := a.get(p); resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d", p, resp.StatusCode)
			}
		}
		if resp, _ := a.do(a.newClient(), http.MethodGet, fmt.Sprintf("/games/%d/live", g.game.ID), nil, ""); resp.StatusCode != http.StatusOK {
			t.Fatalf("published game's board: %d", resp.StatusCode)
		}
	})
}

// TestLiveBoard_StoredMoveReachesTheStream: a move stored by the recorder
// is heard on the game's stream as "changed" (the game_moves trigger
// raises the event's revision), and the board read after it shows the
// move and names that revision.
func TestLiveBoard_StoredMoveReachesTheStream(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, liveBoardSettings)
		playLive(t, a, g.arbiter, g.game.ID, 2)
		startLive(t, a)
		public := a.newClient()
		path := fmt.Sprintf("/games/%d/live", g.game.ID)
		_, body := a.do(public, http.MethodGet, path, nil, "")
		before := streamRev(t, body)
		s, resp := openStream(t, public, a.ts.URL+fmt.Sprintf("/games/%d/stream?rev=%s", g.game.ID, before), "")
		if s == nil {
			t.Fatalf("stream: %d", resp.StatusCode)
		}
		if first, ok := s.next(2 * time.Second); !ok || first.ID != before || first.Name != "" {
			t.Fatalf("first block %+v, want the page's revision %s", first, before)
		}
		rec := playLive(t, a, g.arbiter, g.game.ID, 3)
		ev, ok := s.next(2 * time.Second)
		if !ok || ev.Name != "changed" || ev.ID == before {
			t.Fatalf("the stored move was not heard: %+v", ev)
		}
		_, body = a.do(public, http.MethodGet, path, nil, "")
		d := doc(t, body)
		if streamRev(t, body) != ev.ID || d.Find(`[data-testid="liveboard-move"]`).Length() != 3 ||
			d.Find(`[data-testid="last-move"]`).Text() != rec.Moves[2].Text {
			t.Fatalf("the board after the move: rev %s (stream %s), %d moves", streamRev(t, body), ev.ID, d.Find(`[data-testid="liveboard-move"]`).Length())
		}
	})
}

// TestQueryCount_LiveBoardSameAtPly10And100: a game's live board, its
// embed and a held position cost the same statements at ply 10 and ply
// 100 (issue 26: one live game page costs constant statements whatever
// the ply), signed out and signed in; the event's list costs the same
// with one live game and with six.
func TestQueryCount_LiveBoardSameAtPly10And100(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.srv.Pages = nil // count the computation, not the render cache
		g := newGameSetup(t, a, liveBoardSettings)
		short := g.game
		long, err := a.srv.Office.CreateGame(context.Background(), g.admin, office.GameInput{EventID: g.event.ID, Label: "2回戦",
			SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		playLive(t, a, g.arbiter, short.ID, 10)
		list := fmt.Sprintf("/events/%d/live", g.event.ID)
		listOne := statementsOf(t, a, a.store, list)
		playLive(t, a, g.arbiter, long.ID, 100)
		// The event's list: the same with one live game as with six.
		for i := range 4 {
			more, err := a.srv.Office.CreateGame(context.Background(), g.admin, office.GameInput{EventID: g.event.ID, Label: fmt.Sprintf("%d回戦", i+3),
				SenteID: &g.sente.ID, GoteID: &g.gote.ID, AllowanceMinutes: 180})
			if err != nil {
				t.Fatal(err)
			}
			playLive(t, a, g.arbiter, more.ID, 2)
		}
		_, body := a.get(list)
		if n := doc(t, body).Find(`[data-testid="livegames-row"]`).Length(); n != 6 {
			t.Fatalf("the list shows %d games, want 6", n)
		}
		if listSix := statementsOf(t, a, a.store, list); listSix != listOne {
			t.Errorf("%s: %d statements with one live game, %d with six", list, listOne, listSix)
		}
		if err := a.srv.Office.SetOrganiserEmbedOrigins(context.Background(), g.admin, g.event.OrganiserID, "https://example.jp"); err != nil {
			t.Fatal(err)
		}
		pages := []func(store.Game) string{
			func(gm store.Game) string { return fmt.Sprintf("/games/%d/live", gm.ID) },
			func(gm store.Game) string { return fmt.Sprintf("/games/%d/live?ply=5", gm.ID) },
			func(gm store.Game) string { return fmt.Sprintf("/embed/games/%d", gm.ID) },
		}
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, g.admin.UserID)
			}
			for _, p := range pages {
				n10, n100 := statementsOf(t, a, a.store, p(short)), statementsOf(t, a, a.store, p(long))
				if n10 != n100 {
					t.Errorf("%s (signed in %v): %d statements at ply 10, %d at ply 100", p(long), signedIn, n10, n100)
				}
				t.Logf("%s (signed in %v): %d statements", p(long), signedIn, n10)
			}
		}
	})
}

// TestCrawl_LiveBoardHasNoDeveloperText: the live board (following and
// held), its embed and the event's list, in both languages, signed out and
// signed in, show words only (issue 13's checker).
func TestCrawl_LiveBoardHasNoDeveloperText(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, liveBoardSettings)
	playLive(t, a, g.arbiter, g.game.ID, 4)
	if err := a.srv.Office.SetOrganiserEmbedOrigins(context.Background(), g.admin, g.event.OrganiserID, "https://example.jp"); err != nil {
		t.Fatal(err)
	}
	data := []string{"羽生 善治", "藤井 聡太", "第1期テスト戦", "1回戦", "長考の末"}
	chk := newPageChecker(a.srv.Msgs, data, []int64{g.sente.ID, g.gote.ID})
	pages := []string{fmt.Sprintf("/games/%d/live", g.game.ID), fmt.Sprintf("/games/%d/live?ply=2", g.game.ID),
		fmt.Sprintf("/embed/games/%d", g.game.ID), fmt.Sprintf("/events/%d/live", g.event.ID)}
	var all []offence
	for _, signedIn := range []bool{false, true} {
		for _, lang := range site.Languages {
			c := a.newClient()
			a.setLang(c, lang)
			if signedIn {
				a.signIn(c, g.admin.UserID)
			}
			for _, p := range pages {
				resp, body := a.do(c, http.MethodGet, p, nil, "")
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: %d", p, resp.StatusCode)
				}
				all = append(all, chk.check(p, lang, body)...)
			}
		}
	}
	report(t, all)
}

// TestLiveBoard_UnpublishedClassGameIsNotFound: in a published event, a
// game of a league class whose schedule was taken back is 404 on its live
// board, its embed and its stream, for the public and for an
// administrator, and the event's list leaves it out although it has live
// moves; a published class's game in the same event is on the list.
func TestLiveBoard_UnpublishedClassGameIsNotFound(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		x := newPubFixture(t, a)
		playLive(t, a, x.f.Admin, x.gameB, 2)
		playLive(t, a, x.f.Admin, x.gameA, 2)
		admin := a.newClient()
		a.signIn(admin, x.f.Admin.UserID)
		for _, c := range []*http.Client{a.newClient(), admin} {
			for _, p := range []string{fmt.Sprintf("/games/%d/live", x.gameB), fmt.Sprintf("/embed/games/%d", x.gameB)} {
				if resp, _ := a.do(c, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s: %d, want 404", p, resp.StatusCode)
				}
			}
			if s, resp := openStream(t, c, a.ts.URL+fmt.Sprintf("/games/%d/stream", x.gameB), ""); s != nil || resp.StatusCode != http.StatusNotFound {
				t.Errorf("the hidden game's stream: %d, want 404", resp.StatusCode)
			}
			resp, body := a.do(c, http.MethodGet, fmt.Sprintf("/events/%d/live", x.term), nil, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("list: %d", resp.StatusCode)
			}
			rows := doc(t, body).Find(`[data-testid="livegames-row"]`)
			if rows.Length() != 1 || rows.AttrOr("data-game", "") != strconv.FormatInt(x.gameA, 10) {
				t.Errorf("the list shows %d games (%s), want game A only", rows.Length(), rows.AttrOr("data-game", ""))
			}
		}
	})
}

// TestLiveBoard_HandicapGameGoteMovesFirst (003): in a 香落ち game the
// upper hand (gote) moves first: the board says so at the start, and the
// first move's time left is gote's.
func TestLiveBoard_HandicapGameGoteMovesFirst(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, storetestSQLite(t))
	g := newGameSetup(t, a, liveBoardSettings)
	hg, err := a.srv.Office.CreateGame(context.Background(), g.admin, office.GameInput{EventID: g.event.ID, Label: "香落ち戦",
		SenteID: &g.sente.ID, GoteID: &g.gote.ID, Handicap: "香落ち", AllowanceMinutes: 180})
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/games/%d/live", hg.ID)
	_, body := a.get(path)
	if tm := doc(t, body).Find(`[data-testid="liveboard-to-move"]`).Text(); tm != "後手の手番" {
		t.Fatalf("at the start: %q", tm)
	}
	// Two moves of 65 s and 125 s: gote is charged 1 minute, sente 2.
	ctx := context.Background()
	r, err := a.srv.Office.LiveRecord(ctx, g.arbiter, hg.ID)
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := rules.ParseSFEN(r.SFEN)
	for i, secs := range []int{65, 125} {
		m := pos.LegalMoves(nil)[0]
		if r, err = a.srv.Office.RecordMove(ctx, g.arbiter, hg.ID, office.LiveMoveInput{Ply: i + 1, Move: m.USI(), Elapsed: secs, VersionSeen: r.Version}); err != nil {
			t.Fatal(err)
		}
		pos.Do(m)
	}
	_, body = a.get(path)
	d := doc(t, body)
	rows := d.Find(`[data-testid="liveboard-move"] td:last-child`)
	if rows.Eq(0).Text() != "179分00秒" || rows.Eq(1).Text() != "178分00秒" {
		t.Fatalf("time left after each move: %q, %q", rows.Eq(0).Text(), rows.Eq(1).Text())
	}
	if tm := d.Find(`[data-testid="liveboard-to-move"]`).Text(); tm != "後手の手番" {
		t.Fatalf("after two moves: %q", tm)
	}
}
