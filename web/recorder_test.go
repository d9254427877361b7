package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/rules"
	"kisen/store"
)

// Issue 26: the recorder's page (web/recorder) on both databases.

// recorderUser grants a new user the event's recorder role.
func recorderUser(t *testing.T, a *testApp, g gameSetup, login string) store.User {
	t.Helper()
	u := a.addUser(login, false)
	if err := a.srv.Office.GrantEventRole(context.Background(), g.admin, office.RoleGrant{EventID: g.event.ID, UserID: u.ID, Role: office.RoleRecorder}); err != nil {
		t.Fatal(err)
	}
	return u
}

// postAs posts a form with the client's own CSRF token.
func (a *testApp) postFormAs(c *http.Client, path string, form url.Values) (*http.Response, string) {
	a.t.Helper()
	form.Set("_csrf", a.csrfToken(c))
	return a.do(c, http.MethodPost, path, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

// issueRecorderLink issues a game's recorder link through the game
// page's control as the signed-in client and returns the link's path.
func issueRecorderLink(t *testing.T, a *testApp, c *http.Client, gameID int64) string {
	t.Helper()
	resp, body := a.postFormAs(c, fmt.Sprintf("/games/%d/recorder-link", gameID), url.Values{})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("issue link: %d\n%s", resp.StatusCode, body)
	}
	doc := docOf(t, body)
	href, _ := doc.Find(`[data-testid="rec-link-url"]`).Attr("href")
	u, err := url.Parse(href)
	if err != nil || !strings.HasPrefix(u.Path, "/rec/") {
		t.Fatalf("issued link %q", href)
	}
	if doc.Find(`[data-testid="rec-link-qr"] path`).Length() != 1 {
		t.Error("the issued link has no QR code")
	}
	return u.Path
}

func recMove(ply int, move string, version int) url.Values {
	return url.Values{"ply": {fmt.Sprint(ply)}, "move": {move}, "version": {fmt.Sprint(version)}, "elapsed": {"65"}}
}

func TestRecorderWeb_RoleAccess(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		path := fmt.Sprintf("/games/%d/recorder", g.game.ID)
		if resp, _ := a.get(path); resp.StatusCode != http.StatusSeeOther && resp.StatusCode != http.StatusFound {
			t.Errorf("signed out: %d, want a redirect to sign in", resp.StatusCode)
		}
		for _, who := range []struct {
			name string
			id   int64
			want int
		}{
			{"recorder", recorderUser(t, a, g, "kirokugakari").ID, http.StatusOK},
			{"arbiter", g.arbiter.UserID, http.StatusOK},
			{"admin", g.admin.UserID, http.StatusOK},
			{"outsider", a.addUser("soto", false).ID, http.StatusNotFound},
		} {
			c := a.newClient()
			a.signIn(c, who.id)
			resp, body := a.do(c, http.MethodGet, path, nil, "")
			if resp.StatusCode != who.want {
				t.Errorf("%s: GET %d, want %d", who.name, resp.StatusCode, who.want)
				continue
			}
			if who.want == http.StatusOK {
				doc := docOf(t, body)
				if doc.Find(`[data-testid="rec-board"] svg`).Length() != 1 || doc.Find(`[data-testid="rec-move-form"]`).Length() != 1 {
					t.Errorf("%s: the page has no board or move form", who.name)
				}
				if !strings.Contains(doc.Find(`[data-testid="rec-turn"]`).Text(), "手目") {
					t.Errorf("%s: turn %q", who.name, doc.Find(`[data-testid="rec-turn"]`).Text())
				}
			}
			// The outsider may not write either: 404 like the page.
			resp, _ = a.postFormAs(c, path+"/moves", recMove(1, "7g7f", 0))
			if resp.StatusCode != who.want {
				t.Errorf("%s: POST move %d, want %d", who.name, resp.StatusCode, who.want)
			}
		}
		// The recorder's move from the first loop is in: the arbiter sees it.
		c := a.newClient()
		a.signIn(c, g.arbiter.UserID)
		_, body := a.do(c, http.MethodGet, path, nil, "")
		if n := docOf(t, body).Find(`[data-testid="rec-move-row"]`).Length(); n != 1 {
			t.Errorf("%d moves recorded, want 1 (the others were resends of the same move)", n)
		}
		// The game page offers the recorder's page and the link control to
		// the arbiter (立会人, who runs the board on the day) as well as the
		// director.
		_, gp := a.do(c, http.MethodGet, fmt.Sprintf("/games/%d", g.game.ID), nil, "")
		if d := docOf(t, gp); d.Find(`[data-testid="recorder-open"]`).Length() != 1 || d.Find(`[data-testid="recorder-link-issue"]`).Length() != 1 {
			t.Error("the arbiter's game page: want the recorder's page link and the link control")
		}
		if resp, _ := a.postFormAs(c, fmt.Sprintf("/games/%d/recorder-link", g.game.ID), url.Values{}); resp.StatusCode != http.StatusOK {
			t.Errorf("an arbiter issuing a link: %d, want 200", resp.StatusCode)
		}
		admin := a.newClient()
		a.signIn(admin, g.admin.UserID)
		_, gp = a.do(admin, http.MethodGet, fmt.Sprintf("/games/%d", g.game.ID), nil, "")
		if d := docOf(t, gp); d.Find(`[data-testid="recorder-link-issue"]`).Length() != 1 || d.Find(`[data-testid="recorder-link-revoke"]`).Length() != 1 {
			t.Error("the director's game page has no link control")
		}
	})
}

func TestRecorderWeb_TokenAccess(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		other, err := a.srv.Office.CreateGame(context.Background(), g.admin, office.GameInput{EventID: g.event.ID, Label: "2回戦",
			SenteID: &g.gote.ID, GoteID: &g.sente.ID, AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		admin := a.newClient()
		a.signIn(admin, g.admin.UserID)
		link := issueRecorderLink(t, a, admin, g.game.ID)
		otherLink := issueRecorderLink(t, a, admin, other.ID)

		tablet := a.newClient() // no account
		if resp, body := a.do(tablet, http.MethodGet, link, nil, ""); resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("GET link: %d (%q)\n%s", resp.StatusCode, resp.Header.Get("Cache-Control"), body)
		}
		if resp, body := a.postFormAs(tablet, link+"/moves", recMove(1, "７六歩", 0)); resp.StatusCode != http.StatusOK ||
			!strings.Contains(docOf(t, body).Find(`[data-testid="rec-moves"]`).Text(), "▲７六歩") {
			t.Fatalf("move through the link: %d", resp.StatusCode)
		}
		// Another game's link opens that game only: its record is empty.
		_, body := a.do(tablet, http.MethodGet, otherLink, nil, "")
		if docOf(t, body).Find(`[data-testid="rec-no-moves"]`).Length() != 1 {
			t.Error("the other game's link shows this game's moves")
		}
		for _, bad := range []string{"/rec/not-a-token", "/rec/" + strings.Repeat("A", 22), "/rec/" + strings.Repeat("x", 100)} {
			if resp, _ := a.do(tablet, http.MethodGet, bad, nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", bad, resp.StatusCode)
			}
		}
		// Revoked: 404 for the page and for a move; the other game's link stays.
		if resp, _ := a.postFormAs(admin, fmt.Sprintf("/games/%d/recorder-link/revoke", g.game.ID), url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("revoke: %d", resp.StatusCode)
		}
		if resp, _ := a.do(tablet, http.MethodGet, link, nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("revoked link: %d, want 404", resp.StatusCode)
		}
		if resp, _ := a.postFormAs(tablet, link+"/moves", recMove(2, "3c3d", 1)); resp.StatusCode != http.StatusNotFound {
			t.Errorf("move through a revoked link: %d, want 404", resp.StatusCode)
		}
		if resp, _ := a.do(tablet, http.MethodGet, otherLink, nil, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("the other game's link after this one's revoke: %d", resp.StatusCode)
		}
		// A new link replaces the old one.
		again := issueRecorderLink(t, a, admin, other.ID)
		if resp, _ := a.do(tablet, http.MethodGet, otherLink, nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("a replaced link: %d, want 404", resp.StatusCode)
		}
		if resp, _ := a.do(tablet, http.MethodGet, again, nil, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("the new link: %d", resp.StatusCode)
		}
	})
}

func TestRecorderWeb_MovesConflictsRefusalsAndUndo(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		c := a.newClient()
		a.signIn(c, recorderUser(t, a, g, "kiroku").ID)
		path := fmt.Sprintf("/games/%d/recorder", g.game.ID)
		moves := func(body string) []string {
			var out []string
			docOf(t, body).Find(`[data-testid="rec-move-row"] td:nth-child(2)`).Each(func(_ int, s *goquery.Selection) { out = append(out, s.Text()) })
			return out
		}
		errText := func(body string) string { return docOf(t, body).Find(`[data-testid="rec-error"]`).Text() }
		version := func(body string) string {
			v, _ := docOf(t, body).Find(`#rec-panel`).Attr("data-version")
			return v
		}

		resp, body := a.postFormAs(c, path+"/moves", recMove(1, "7g7f", 0))
		if resp.StatusCode != http.StatusOK || strings.Join(moves(body), " ") != "▲７六歩" || version(body) != "1" {
			t.Fatalf("first move: %d %v version %s", resp.StatusCode, moves(body), version(body))
		}
		// JSA notation for the second move.
		if resp, body = a.postFormAs(c, path+"/moves", recMove(2, "３四歩", 1)); resp.StatusCode != http.StatusOK || len(moves(body)) != 2 {
			t.Fatalf("second move: %d %v %s", resp.StatusCode, moves(body), errText(body))
		}
		// The same move resent (a reconnecting device): 200, nothing added.
		if resp, body = a.postFormAs(c, path+"/moves", recMove(2, "3c3d", 1)); resp.StatusCode != http.StatusOK || len(moves(body)) != 2 {
			t.Errorf("resend: %d %v", resp.StatusCode, moves(body))
		}
		// Another move for a stored ply: 409 with the record in words.
		resp, body = a.postFormAs(c, path+"/moves", recMove(2, "8c8d", 1))
		if resp.StatusCode != http.StatusConflict || !strings.Contains(errText(body), "2手目には別の指し手") || len(moves(body)) != 2 {
			t.Errorf("taken ply: %d %q %v", resp.StatusCode, errText(body), moves(body))
		}
		// The next ply at a version the record has moved past: 409.
		resp, body = a.postFormAs(c, path+"/moves", recMove(3, "2g2f", 1))
		if resp.StatusCode != http.StatusConflict || !strings.Contains(errText(body), "ほかの端末で記録が変わりました") || version(body) != "2" {
			t.Errorf("stale version: %d %q version %s", resp.StatusCode, errText(body), version(body))
		}
		// An illegal move: 422 in words, nothing stored.
		resp, body = a.postFormAs(c, path+"/moves", recMove(3, "5i5g", 2))
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(errText(body), "3手目") || len(moves(body)) != 2 {
			t.Errorf("illegal: %d %q %v", resp.StatusCode, errText(body), moves(body))
		}
		resp, body = a.postFormAs(c, path+"/moves", recMove(3, "あいう", 2))
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(errText(body), "あいう") {
			t.Errorf("unreadable: %d %q", resp.StatusCode, errText(body))
		}
		// In English too.
		en := a.newClient()
		a.signIn(en, g.arbiter.UserID)
		a.setLang(en, "en")
		resp, body = a.postFormAs(en, path+"/moves", recMove(3, "5i5g", 2))
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(errText(body), "Move 3") || englishIn(errText(body)) == "" {
			t.Errorf("illegal in English: %d %q", resp.StatusCode, errText(body))
		}
		// Undo: a stale one is 409, the right one takes the last move back.
		undo := func(ply, version int) (*http.Response, string) {
			return a.postFormAs(c, path+"/undo", url.Values{"ply": {fmt.Sprint(ply)}, "version": {fmt.Sprint(version)}, "reason": {"記録の誤り"}})
		}
		if resp, _ = undo(2, 1); resp.StatusCode != http.StatusConflict {
			t.Errorf("stale undo: %d", resp.StatusCode)
		}
		resp, body = undo(2, 2)
		if resp.StatusCode != http.StatusOK || strings.Join(moves(body), " ") != "▲７六歩" || version(body) != "3" {
			t.Errorf("undo: %d %v version %s", resp.StatusCode, moves(body), version(body))
		}
		// The ply is free again for another move.
		if resp, body = a.postFormAs(c, path+"/moves", recMove(2, "8c8d", 3)); resp.StatusCode != http.StatusOK || strings.Join(moves(body), " ") != "▲７六歩 △８四歩" {
			t.Errorf("after undo: %d %v %q", resp.StatusCode, moves(body), errText(body))
		}
		// Numbers that are not numbers: 422 in words.
		resp, body = a.postFormAs(c, path+"/moves", url.Values{"ply": {"x"}, "move": {"2g2f"}, "version": {"4"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || errText(body) == "" {
			t.Errorf("bad form: %d %q", resp.StatusCode, errText(body))
		}
	})
}

// TestQueryCount_RecorderPageCostsTheSameAtPly10AndPly100: the
// recorder's page reads the live record in a fixed number of statements.
func TestQueryCount_RecorderPageCostsTheSameAtPly10AndPly100(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.srv.Pages = nil
		a.srv.Office.KeepNoViews()
		g := newGameSetup(t, a, "{}")
		ctx := context.Background()
		at := map[int]int64{}
		p := rules.NewPosition(rules.Even)
		for ply := 1; ply <= 100; ply++ {
			legal := p.LegalMoves(nil)
			if len(legal) == 0 {
				t.Fatalf("no legal move at ply %d", ply)
			}
			m := legal[(ply*7)%len(legal)]
			if _, err := a.srv.Office.RecordMove(ctx, g.admin, g.game.ID, office.LiveMoveInput{Ply: ply, Move: m.USI(), Elapsed: 30, VersionSeen: ply - 1}); err != nil {
				t.Fatalf("ply %d: %v", ply, err)
			}
			p.Do(m)
			if ply == 10 || ply == 100 {
				a.signIn(a.client, g.arbiter.UserID)
				at[ply] = statementsOf(t, a, a.store, fmt.Sprintf("/games/%d/recorder", g.game.ID))
			}
		}
		t.Logf("recorder page: %d statements at ply 10, %d at ply 100", at[10], at[100])
		if at[10] != at[100] || at[100] > 20 {
			t.Errorf("recorder page: %d statements at ply 10, %d at ply 100", at[10], at[100])
		}
	})
}

// D-S1/D-S2 and D-J1/D-J3 on the recorder's page: the third occurrence of
// a position is warned in words at the move it happens and not before,
// and 「持将棋・入玉宣言の点数」 counts both sides on demand.
func TestRecorderWeb_D_S2_ThirdOccurrenceAndPointsOnDemand(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		c := a.newClient()
		a.signIn(c, recorderUser(t, a, g, "kiroku").ID)
		path := fmt.Sprintf("/games/%d/recorder", g.game.ID)
		facts := func(body string) string { return docOf(t, body).Find(`[data-testid="rec-fact"]`).Text() }
		// The rooks go out and back: the start position again at 4 and 8.
		walk := []string{"2h1h", "8b9b", "1h2h", "9b8b"}
		for ply := 1; ply <= 8; ply++ {
			resp, body := a.postFormAs(c, path+"/moves", recMove(ply, walk[(ply-1)%4], ply-1))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("move %d: %d", ply, resp.StatusCode)
			}
			third := strings.Contains(facts(body), "3回目")
			if third != (ply == 8) {
				t.Fatalf("move %d: third occurrence warned %v: %q", ply, third, facts(body))
			}
			if ply == 8 && !strings.Contains(facts(body), "この局面（8手目）は3回目です") {
				t.Fatalf("move 8: %q", facts(body))
			}
		}
		_, body := a.do(c, http.MethodGet, path, nil, "")
		doc := docOf(t, body)
		if doc.Find(`[data-testid="rec-points-button"]`).Text() != "持将棋・入玉宣言の点数" {
			t.Fatalf("no points button: %q", doc.Find(`[data-testid="rec-points"]`).Text())
		}
		if j := doc.Find(`[data-testid="rec-points-jishogi"]`).Text(); !strings.Contains(j, "先手27点、後手27点") {
			t.Errorf("jishogi points: %q", j)
		}
		if strings.Contains(facts(body), "持将棋の点数") {
			t.Errorf("the points are shown on demand only: %q", facts(body))
		}
		var sides []string
		doc.Find(`[data-testid="rec-points-side"]`).Each(func(_ int, s *goquery.Selection) { sides = append(sides, s.Text()) })
		if len(sides) != 2 || !strings.HasPrefix(sides[0], "先手：玉は敵陣にありません。敵陣の駒（玉を除く）0枚、宣言の点数0点") ||
			!strings.HasPrefix(sides[1], "後手：") {
			t.Errorf("declaration counts: %q", sides)
		}
	})
}

// A comment entered with a move on the recorder's page is stored with it
// and shown in the record there and on the public live board.
func TestRecorderWeb_CommentShownOnTheLiveBoard(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, liveBoardSettings)
		c := a.newClient()
		a.signIn(c, recorderUser(t, a, g, "kiroku").ID)
		path := fmt.Sprintf("/games/%d/recorder", g.game.ID)
		form := recMove(1, "7g7f", 0)
		form.Set("comment", "角道を開ける")
		resp, body := a.postFormAs(c, path+"/moves", form)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("move with comment: %d", resp.StatusCode)
		}
		if got := docOf(t, body).Find(`[data-testid="rec-move-row"] td:nth-child(5)`).Text(); got != "角道を開ける" {
			t.Errorf("recorder's record comment: %q", got)
		}
		rec, err := a.srv.Office.LiveRecord(context.Background(), office.Actor{UserID: g.arbiter.UserID}, g.game.ID)
		if err != nil || len(rec.Moves) != 1 || rec.Moves[0].Comment != "角道を開ける" {
			t.Fatalf("stored: %v %+v", err, rec.Moves)
		}
		_, body = a.do(a.newClient(), http.MethodGet, fmt.Sprintf("/games/%d/live", g.game.ID), nil, "")
		if got := docOf(t, body).Find(`[data-testid="liveboard-move-comment"]`).Text(); got != "角道を開ける" {
			t.Errorf("live board comment: %q", got)
		}
	})
}
