package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/teams"
	"kisen/pairing"
)

// startedTeamRound seeds n teams (seedTeamRound: the second team leaves
// board 3 empty) and pairs and starts table 1, 2, … in entry order.
func startedTeamRound(t *testing.T, a *testApp, name string, n int) (teamsFixture, int64) {
	t.Helper()
	ctx := context.Background()
	f, rid, ids := seedTeamRound(t, a, name, n)
	for i := 0; i+1 < len(ids); i += 2 {
		m, err := f.tm.CreateMatch(ctx, f.admin, teams.MatchInput{RoundID: rid, Table: i/2 + 1, TeamA: ids[i], TeamB: ids[i+1]})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.StartMatch(ctx, f.admin, m.ID, m.Version); err != nil {
			t.Fatal(err)
		}
	}
	return f, rid
}

// deskBoard reads board b of table 1 as the desk sees it.
func deskBoard(t *testing.T, f teamsFixture, rid int64, b int) teams.DeskBoard {
	t.Helper()
	v, err := f.tm.DeskRound(context.Background(), f.admin, rid)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.Match(1)
	if !ok {
		t.Fatal("no table 1")
	}
	for _, db := range m.Boards {
		if db.Board == b {
			return db
		}
	}
	t.Fatalf("no board %d", b)
	return teams.DeskBoard{}
}

// Issue 25 item 5: the desk enters a team match's boards by table number,
// one tap per board. A recorder of the event enters; a signed-in outsider
// is refused. One tap stores one board's result (the match's score
// follows), a stale tap is 409, a tap on a board already final is refused
// in words, a 千日手 creates the replay game whose result then counts; the
// page reads in Japanese and in English.
func TestTeamDesk_Issue25_Item5_EnterBoardsByTable(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid := startedTeamRound(t, a, "卓入力", 2)
		rec := a.addUser("desk-recorder", false)
		if err := a.srv.Office.GrantEventRole(ctx, f.admin, office.RoleGrant{EventID: f.event.ID, UserID: rec.ID, Role: office.RoleRecorder}); err != nil {
			t.Fatal(err)
		}
		desk := fmt.Sprintf("/team-rounds/%d/desk", rid)

		outsider := a.newClient()
		a.signIn(outsider, a.addUser("desk-outsider", false).ID)
		if resp, _ := a.do(outsider, http.MethodGet, desk+"?table=1", nil, ""); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("outsider GET: %d", resp.StatusCode)
		}
		b1 := deskBoard(t, f, rid, 1)
		post := func(c *http.Client, board int, gameID int64, version int, outcome string) (*http.Response, string) {
			return a.postFormAs(c, fmt.Sprintf("%s/1/%d", desk, board), url.Values{"game_id": {fmt.Sprint(gameID)}, "version": {fmt.Sprint(version)}, "outcome": {outcome}})
		}
		if resp, _ := post(outsider, 1, b1.LastGameID, b1.Version, teams.DeskSenteWin); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("outsider tap: %d", resp.StatusCode)
		}
		if b := deskBoard(t, f, rid, 1); b.Version != 0 || b.Decided {
			t.Fatalf("the outsider's tap was stored: %+v", b)
		}

		c := a.newClient()
		a.signIn(c, rec.ID)
		// The round's matches page links the desk for its staff, not for
		// an outsider.
		matches := fmt.Sprintf("/team-rounds/%d/matches", rid)
		if _, body := a.do(c, http.MethodGet, matches, nil, ""); !strings.Contains(body, `href="`+desk+`"`) {
			t.Errorf("the matches page does not link the desk for the recorder")
		}
		if _, body := a.do(outsider, http.MethodGet, matches, nil, ""); strings.Contains(body, `href="`+desk+`"`) {
			t.Errorf("the matches page links the desk for an outsider")
		}
		resp, body := a.do(c, http.MethodGet, desk, nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "第1卓") || !strings.Contains(body, "卓入力チーム00") {
			t.Fatalf("desk: %d\n%s", resp.StatusCode, body)
		}
		if _, body = a.do(c, http.MethodGet, desk+"?table=9", nil, ""); !strings.Contains(body, "第9卓の対戦はこの回戦にありません。") {
			t.Errorf("a missing table is not said in words")
		}
		_, body = a.do(c, http.MethodGet, desk+"?table=1", nil, "")
		for _, want := range []string{"1将", "2将", "3将", "先手", "後手", "先手勝ち", "後手勝ち", "千日手", "持将棋", "不戦（先手の勝ち）", "卓入力チーム00の不戦勝", "卓入力チーム00 1 − 0 卓入力チーム01"} {
			if !strings.Contains(body, want) {
				t.Errorf("desk table 1 lacks %q", want)
			}
		}
		if n := strings.Count(body, `data-testid="desk-sente_win"`); n != 2 {
			t.Errorf("%d boards take a tap, want 2 (board 3 is empty)", n)
		}

		// One tap: board 1's sente wins, and only board 1 is stored.
		resp, _ = post(c, 1, b1.LastGameID, b1.Version, teams.DeskSenteWin)
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "?table=1#board-1") {
			t.Fatalf("tap: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		got := deskBoard(t, f, rid, 1)
		aWins := pairing.BoardA
		if !got.ASente {
			aWins = pairing.BoardB
		}
		if !got.Decided || got.Outcome != aWins {
			t.Fatalf("board 1 after the tap: %+v", got)
		}
		if b2 := deskBoard(t, f, rid, 2); b2.Decided || b2.Version != 0 {
			t.Fatalf("board 2 changed: %+v", b2)
		}
		_, body = a.do(c, http.MethodGet, desk+"?table=1", nil, "")
		if n := strings.Count(body, `data-testid="desk-sente_win"`); n != 1 {
			t.Errorf("%d boards take a tap after board 1, want 1", n)
		}
		if !strings.Contains(body, `data-testid="desk-score"`) || strings.Contains(body, "卓入力チーム00 1 − 0 卓入力チーム01") {
			t.Errorf("the score did not follow board 1")
		}

		// The same tap again, at the version seen before: 409.
		if resp, body = post(c, 1, b1.LastGameID, b1.Version, teams.DeskGoteWin); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale tap: %d\n%s", resp.StatusCode, body)
		}
		// At the current version: the board is final, in words.
		if resp, body = post(c, 1, got.LastGameID, got.Version, teams.DeskGoteWin); resp.StatusCode != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "この将の結果はすでに確定しています。") {
			t.Fatalf("tap on a final board: %d\n%s", resp.StatusCode, body)
		}
		if again := deskBoard(t, f, rid, 1); again.Version != got.Version || again.Outcome != got.Outcome {
			t.Fatalf("the final board changed: %+v", again)
		}
		// An outcome not on a button: in words.
		b2 := deskBoard(t, f, rid, 2)
		if resp, body = post(c, 2, b2.LastGameID, b2.Version, "draw"); resp.StatusCode != http.StatusUnprocessableEntity ||
			!strings.Contains(body, "結果をボタンから選んでください。") {
			t.Fatalf("unknown outcome: %d\n%s", resp.StatusCode, body)
		}

		// Board 2: 千日手, then the replay's sente wins.
		if resp, body = post(c, 2, b2.LastGameID, b2.Version, teams.DeskSennichite); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sennichite: %d\n%s", resp.StatusCode, body)
		}
		r2 := deskBoard(t, f, rid, 2)
		if r2.LastGameID == b2.LastGameID || r2.Decided || r2.Sente.PlayerID != b2.Gote.PlayerID {
			t.Fatalf("after 千日手 the replay (colours swapped) takes the board: before %+v after %+v", b2, r2)
		}
		_, body = a.do(c, http.MethodGet, desk+"?table=1", nil, "")
		if !strings.Contains(body, "指し直し局です。") {
			t.Errorf("the replay is not said")
		}
		if resp, _ = post(c, 2, r2.LastGameID, r2.Version, teams.DeskSenteWin); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("replay tap: %d", resp.StatusCode)
		}
		if r2 = deskBoard(t, f, rid, 2); !r2.Decided {
			t.Fatalf("board 2 not decided by its replay: %+v", r2)
		}
		_, body = a.do(c, http.MethodGet, desk+"?table=1", nil, "")
		if !strings.Contains(body, `data-testid="desk-result"`) || strings.Contains(body, "未了") {
			t.Errorf("the match is not final after every board:\n%s", body)
		}

		a.setLang(c, "en")
		_, body = a.do(c, http.MethodGet, desk+"?table=1", nil, "")
		for _, want := range []string{"Table 1", "Board 1", "Sente", "Gote"} {
			if !strings.Contains(body, want) {
				t.Errorf("English desk lacks %q", want)
			}
		}
		if strings.Contains(body, "先手") || strings.Contains(body, "将") {
			t.Errorf("Japanese on the English desk")
		}
	})
}

// The desk's page costs a fixed number of statements: the list of tables
// and a table's boards, for 4 teams and for 16.
func TestTeamDesk_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		paths := func(n int) []string {
			_, rid := startedTeamRound(t, a, fmt.Sprintf("卓数%d", n), n)
			return []string{fmt.Sprintf("/team-rounds/%d/desk", rid), fmt.Sprintf("/team-rounds/%d/desk?table=2", rid)}
		}
		small, large := paths(4), paths(16)
		u := a.addUser("team-desk-admin", true)
		a.signIn(a.client, u.ID)
		for i := range small {
			s, l := statementsOf(t, a, a.store, small[i]), statementsOf(t, a, a.store, large[i])
			if s != l {
				t.Errorf("%s: %d statements for 4 teams, %d for 16", large[i], s, l)
			}
		}
	})
}
