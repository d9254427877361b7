package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/store"
	"kisen/web/site"
)

// playTeamRound pairs the round's teams two by two (0–1 at table 1, 2–3 at
// table 2, …), starts every match and, when decide is set, records each
// board: team A wins board b when wins(table, b) says so, else team B.
func playTeamRound(t *testing.T, a *testApp, f teamsFixture, rid int64, ids []int64, aWins func(table, board int) bool) []int64 {
	t.Helper()
	ctx := context.Background()
	var out []int64
	for i := 0; i+1 < len(ids); i += 2 {
		m, err := f.tm.CreateMatch(ctx, f.admin, teams.MatchInput{RoundID: rid, Table: i/2 + 1, TeamA: ids[i], TeamB: ids[i+1]})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.StartMatch(ctx, f.admin, m.ID, m.Version); err != nil {
			t.Fatal(err)
		}
		out = append(out, m.ID)
	}
	if aWins == nil {
		return out
	}
	rv, err := f.tm.RoundMatches(ctx, f.admin, rid)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rv.Matches {
		for _, b := range m.Boards {
			if b.GameID == 0 {
				continue
			}
			res := office.ResultSenteWin
			if b.ASente != aWins(m.Match.TableNo, b.Board) {
				res = office.ResultGoteWin
			}
			if _, err := a.srv.Office.RecordResult(ctx, f.admin, b.GameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

func mustContain(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

// Issue 25 items 5 and 6 through the pages, on both databases: four teams
// of three boards play round 1 (table 1: チーム00 wins boards 1 and 2 and
// board 3 by forfeit, チーム01 having left it empty; table 2: チーム02 wins
// board 1, チーム03 boards 2 and 3). The crosstable shows ○3-0 / ●0-3 and
// ●1-2 / ○2-1; each team page shows its players' boards, results and
// opponents with the 全勝 marks; the prize page the 全勝賞 and each board's
// prize shared by the two players level on it, with the rule in words;
// the order sheet filled for round 1, blank for round 2 to the public while
// the staff see the order handed in; the result slips of the round and of
// one match. Japanese and English; everything 404 once the event is
// unpublished.
func TestTeamRecordsWeb_Issue25_Items5And6_CrosstableRecordsPrizesPaper(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid, ids := seedTeamRound(t, a, "星取", 4)
		mids := playTeamRound(t, a, f, rid, ids, func(table, board int) bool { return table == 1 || board == 1 })
		public := a.newClient()
		get := func(c *http.Client, path string) string {
			t.Helper()
			resp, body := a.do(c, http.MethodGet, path, nil, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, body)
			}
			return body
		}
		base := fmt.Sprintf("/events/%d/teams", f.event.ID)
		body := get(public, base+"/crosstable")
		mustContain(t, "crosstable", body, "星取チーム00", "星取チーム03", "○3-0", "●0-3", "●1-2", "○2-1", "1勝0敗0分", "3−0")
		if n := strings.Count(body, `data-testid="crosstable-row"`); n != 4 {
			t.Errorf("crosstable rows: %d", n)
		}

		body = get(public, fmt.Sprintf("/teams/%d", ids[0]))
		mustContain(t, "team page", body, "星取チーム00", "星取選手00-0", "星取選手00-2", "1将", "3将", "勝ち", "不戦勝", "対 星取選手01-0",
			"1勝0敗", "第1卓", "星取チーム01", "3−0", "星取チーム00の勝ち")
		if n := strings.Count(body, `data-testid="sweep-mark"`); n != 3 {
			t.Errorf("team 00's 全勝 marks: %d, want 3", n)
		}
		body = get(public, fmt.Sprintf("/teams/%d", ids[1]))
		mustContain(t, "losing team page", body, "星取選手01-0", "負け", "0勝1敗", "0−3")
		if strings.Contains(body, `data-testid="sweep-mark"`) {
			t.Errorf("a team that lost every board shows a 全勝 mark")
		}

		body = get(public, base+"/prizes")
		mustContain(t, "prizes", body, "全勝賞", "個人賞（将ごと）", "いちばん多く座った将", "不戦勝は勝ち", "同率で並べます",
			"星取選手00-0", "星取選手02-0", "星取選手03-1", "星取選手03-2", "（2人同率）", "1勝0敗")
		if n := strings.Count(body, `data-testid="sweep"`); n != 6 {
			t.Errorf("全勝賞: %d players, want 6", n)
		}
		if n := strings.Count(body, `data-testid="prize-shared"`); n != 3 {
			t.Errorf("shared board prizes: %d, want 3", n)
		}
		if strings.Contains(body[strings.Index(body, `data-testid="sweeps"`):strings.Index(body, `data-testid="board-prizes"`)], "星取選手01-") {
			t.Errorf("a losing player among the 全勝賞")
		}

		body = get(public, fmt.Sprintf("/team-rounds/%d/teams/%d/print", rid, ids[0]))
		mustContain(t, "filled order sheet", body, "第1回戦 オーダー用紙", "星取チーム00", "提出済みのオーダーです", "星取選手00-0", "星取選手00-3", "主将・監督署名", "day-paper.css")
		body = get(public, fmt.Sprintf("/team-rounds/%d/slips", rid))
		if n := strings.Count(body, `data-testid="team-slip"`); n != 2 {
			t.Errorf("round slips: %d, want 2", n)
		}
		mustContain(t, "round slips", body, "第1回戦 対戦結果票", "第1卓", "第2卓", "星取選手00-0", "星取選手03-2", "先手", "後手", "星取チーム00 主将署名", "審判確認")
		body = get(public, fmt.Sprintf("/team-matches/%d/slip", mids[1]))
		if n := strings.Count(body, `data-testid="team-slip-board"`); n != 3 || !strings.Contains(body, "星取チーム02") || strings.Contains(body, "星取チーム00") {
			t.Errorf("one match's slip: %d boards\n%s", n, body)
		}

		// Round 2: a blank sheet to the public, the order handed in to the
		// staff only; its slips are hidden until the orders are published.
		r2, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "2", Deadline: a.now.Add(2 * time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
		if err != nil {
			t.Fatal(err)
		}
		roster, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		m0 := roster.Teams[0].Members
		if _, err := f.tm.SubmitOrder(ctx, f.admin, teams.OrderInput{RoundID: r2.ID, TeamID: ids[0], Players: []int64{m0[3].PlayerID, m0[0].PlayerID, m0[1].PlayerID}}); err != nil {
			t.Fatal(err)
		}
		sheet2 := fmt.Sprintf("/team-rounds/%d/teams/%d/print", r2.ID, ids[0])
		body = get(public, sheet2)
		if !strings.Contains(body, `data-testid="order-form-blank"`) || strings.Contains(body, `data-testid="order-form-filled"`) || strings.Count(body, "team-form-box") < 3 {
			t.Errorf("the public sees round 2's order before publication\n%s", body)
		}
		mustContain(t, "blank order sheet", body, "第2回戦 オーダー用紙", "星取選手00-3", "空欄の将は不戦敗")
		staff := a.newClient()
		a.signIn(staff, f.admin.UserID)
		mustContain(t, "staff order sheet", get(staff, sheet2), "提出済みのオーダーです")
		if resp, _ := a.do(public, http.MethodGet, fmt.Sprintf("/team-rounds/%d/slips", r2.ID), nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("round 2's slips before publication: %d", resp.StatusCode)
		}
		if resp, _ := a.do(public, http.MethodGet, fmt.Sprintf("/team-rounds/%d/teams/%d/print", rid, ids[0]+100000), nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("a missing team's sheet: %d", resp.StatusCode)
		}

		a.setLang(public, "en")
		mustContain(t, "English crosstable", get(public, base+"/crosstable"), "W 3–0", "L 0–3", "crosstable")
		body = get(public, base+"/prizes")
		mustContain(t, "English prizes", body, "All-won prize", "Board prizes", "(shared by 2)", "won 1, lost 0", "played most often")
		body = get(public, fmt.Sprintf("/teams/%d", ids[0]))
		mustContain(t, "English team page", body, "Board 1", "won by forfeit", "against 星取選手01-0", "All won")
		body = get(public, fmt.Sprintf("/team-matches/%d/slip", mids[0]))
		mustContain(t, "English slip", body, "Round 1 result slip", "Captain of 星取チーム00", "Arbiter", "sente")
		for _, ja := range []string{"全勝", "先手", "将", "署名"} {
			if strings.Contains(body, ja) {
				t.Errorf("Japanese %q on the English slip", ja)
			}
		}

		// Unpublished: every page is not found to the public.
		// (published → draft is no transition the office offers: the row is
		// set back as a draft event would be.)
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", f.event.ID).Update("status", office.StatusDraft).Error; err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{base + "/crosstable", base + "/prizes", fmt.Sprintf("/teams/%d", ids[0]),
			fmt.Sprintf("/team-rounds/%d/teams/%d/print", rid, ids[0]), fmt.Sprintf("/team-rounds/%d/slips", rid),
			fmt.Sprintf("/team-matches/%d/slip", mids[0])} {
			if resp, _ := a.do(public, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Errorf("unpublished %s: %d, want 404", p, resp.StatusCode)
			}
			if resp, _ := a.do(staff, http.MethodGet, p, nil, ""); resp.StatusCode != http.StatusOK {
				t.Errorf("unpublished %s to the director: %d", p, resp.StatusCode)
			}
		}
	})
}

// The crosstable, prizes, team page, order sheet and slips cost the same
// statements for 4 teams and for 16 (every match started and decided).
func TestTeamRecordsWeb_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		paths := func(n int) []string {
			f, rid, ids := seedTeamRound(t, a, fmt.Sprintf("星取数%d", n), n)
			mids := playTeamRound(t, a, f, rid, ids, func(table, board int) bool { return board != 2 })
			base := fmt.Sprintf("/events/%d/teams", f.event.ID)
			return []string{base + "/crosstable", base + "/prizes", fmt.Sprintf("/teams/%d", ids[0]),
				fmt.Sprintf("/team-rounds/%d/teams/%d/print", rid, ids[0]), fmt.Sprintf("/team-rounds/%d/slips", rid),
				fmt.Sprintf("/team-matches/%d/slip", mids[0])}
		}
		small, large := paths(4), paths(16)
		u := a.addUser("team-records-reader", true)
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, u.ID)
			}
			for i := range small {
				s, l := statementsOf(t, a, a.store, small[i]), statementsOf(t, a, a.store, large[i])
				if s != l {
					t.Errorf("%s: %d statements for 4 teams, %d for 16 (signed in %v)", large[i], s, l, signedIn)
				}
			}
		}
	})
}

// TestCrawl_TeamRecordPagesHaveNoDeveloperText (issue 13's crawl over the
// pages of issue 25 items 5 and 6): the crosstable, prizes, team pages,
// order sheets and slips, as the public and the director, in Japanese and
// English, with a round played and a second round hidden.
func TestCrawl_TeamRecordPagesHaveNoDeveloperText(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid, ids := seedTeamRound(t, a, "県星取", 4)
		playTeamRound(t, a, f, rid, ids, func(table, board int) bool { return board == 1 })
		if _, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "2", Deadline: a.now.Add(2 * time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)}); err != nil {
			t.Fatal(err)
		}
		data := []string{f.event.Name, f.event.Name + "学生将棋連盟", "せんしゅ", "初段"}
		v, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		var pids []int64
		for _, tm := range v.Teams {
			data = append(data, tm.Name)
			for _, m := range tm.Members {
				data = append(data, m.Name)
				pids = append(pids, m.PlayerID)
			}
		}
		chk := newPageChecker(a.srv.Msgs, data, pids)
		base := fmt.Sprintf("/events/%d/teams", f.event.ID)
		start := []string{base, base + "/crosstable", base + "/prizes", fmt.Sprintf("/team-rounds/%d/slips", rid)}
		for _, id := range ids {
			start = append(start, fmt.Sprintf("/teams/%d", id))
		}
		var all []offence
		total := 0
		for _, id := range []crawlIdentity{{"public", 0}, {"director", f.admin.UserID}} {
			for _, lang := range site.Languages {
				c := a.newClient()
				a.setLang(c, lang)
				if id.userID != 0 {
					a.signIn(c, id.userID)
				}
				offs, n := crawl(t, a, c, lang, chk, start)
				total += n
				for i := range offs {
					offs[i].URL = id.name + "/" + lang + " " + offs[i].URL
				}
				all = append(all, offs...)
			}
		}
		if total < 40 {
			t.Errorf("the crawl reached only %d pages", total)
		}
		report(t, all)
	})
}
