package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/web/site"
)

// seedTeamRound registers n teams of three (plus a reserve) in a published
// team event and round 1 with every order in (so published); it returns the
// fixture, the round and the teams' ids in entry order.
func seedTeamRound(t *testing.T, a *testApp, name string, n int) (teamsFixture, int64, []int64) {
	t.Helper()
	ctx := context.Background()
	f := seedTeamEvent(t, a, name)
	var ids []int64
	for i := range n {
		in := teams.TeamInput{EventID: f.event.ID, Name: fmt.Sprintf("%sチーム%02d", name, i), AffiliationKind: "club"}
		for k := range 4 {
			in.Members = append(in.Members, teams.MemberInput{Name: fmt.Sprintf("%s選手%02d-%d", name, i, k), Reading: "せんしゅ", Rank: "初段"})
		}
		tm, err := f.tm.SaveTeam(ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tm.ID)
	}
	r, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "1", Deadline: a.now.Add(time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.tm.Roster(ctx, f.admin, f.event.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, tm := range v.Teams {
		players := []int64{tm.Members[0].PlayerID, tm.Members[1].PlayerID, tm.Members[2].PlayerID}
		if i == 1 {
			players = players[:2] // the second team leaves board 3 empty
		}
		if _, err := f.tm.SubmitOrder(ctx, f.admin, teams.OrderInput{RoundID: r.ID, TeamID: tm.ID, Players: players}); err != nil {
			t.Fatal(err)
		}
	}
	return f, r.ID, ids
}

// Issue 25 item 3 through the pages: the director pairs two teams by the
// form (a team against itself refused in words), starts the match (a
// stale form is 409), and the round's matches page shows each board's
// players with sente and gote, the empty board's forfeit, each result and
// the match score and result in words, in Japanese and English; once the
// boards are decided the standings page shows match points, board wins and
// each tie-break's value.
func TestTeamMatchesWeb_Issue25_Item3_PairStartResultsStandings(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid, ids := seedTeamRound(t, a, "団体対抗", 2)
		a.signIn(a.client, f.admin.UserID)
		mpath := fmt.Sprintf("/team-rounds/%d/matches", rid)
		resp, body := a.postForm(mpath, url.Values{"table": {"1"}, "team_a": {fmt.Sprint(ids[0])}, "team_b": {fmt.Sprint(ids[0])}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "同じチームどうしは対戦できません") {
			t.Fatalf("a team against itself: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.postForm(mpath, url.Values{"table": {"1"}, "team_a": {fmt.Sprint(ids[0])}, "team_b": {fmt.Sprint(ids[1])}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pair: %d\n%s", resp.StatusCode, body)
		}
		rv, err := f.tm.RoundMatches(ctx, f.admin, rid)
		if err != nil || len(rv.Matches) != 1 {
			t.Fatalf("matches: %v", err)
		}
		m := rv.Matches[0].Match
		start := fmt.Sprintf("/team-matches/%d/start", m.ID)
		if resp, _ = a.postForm(start, url.Values{"version": {fmt.Sprint(m.Version + 1)}}); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale start: %d", resp.StatusCode)
		}
		if resp, body = a.postForm(start, url.Values{"version": {fmt.Sprint(m.Version)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("start: %d\n%s", resp.StatusCode, body)
		}
		rv, _ = f.tm.RoundMatches(ctx, f.admin, rid)
		boards := rv.Matches[0].Boards
		for _, b := range boards[:2] { // team A wins boards 1 and 2
			res := office.ResultSenteWin
			if !b.ASente {
				res = office.ResultGoteWin
			}
			if _, err := a.srv.Office.RecordResult(ctx, f.admin, b.GameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
				t.Fatal(err)
			}
		}

		public := a.newClient()
		resp, body = a.do(public, http.MethodGet, mpath, nil, "")
		a0, a1 := "団体対抗チーム00", "団体対抗チーム01"
		for _, want := range []string{"第1卓", "1将", "3将", "先手", "後手", "団体対抗選手00-0", "団体対抗選手01-1", "（空席）",
			a0 + " 3 − 0 " + a1, a0 + "の勝ち", a0 + "の不戦勝", "の1将が先手"} {
			if !strings.Contains(body, want) {
				t.Errorf("matches page lacks %q", want)
			}
		}
		if resp.StatusCode != http.StatusOK || strings.Contains(body, "match-form") {
			t.Fatalf("public matches page: %d", resp.StatusCode)
		}
		a.setLang(public, "en")
		_, body = a.do(public, http.MethodGet, mpath, nil, "")
		for _, want := range []string{"Table 1", "sente", "gote", a0 + " 3 – 0 " + a1, a0 + " wins by forfeit", a0 + " wins"} {
			if !strings.Contains(body, want) {
				t.Errorf("English matches page lacks %q", want)
			}
		}
		if strings.Contains(body, "先手") || strings.Contains(body, "空席") {
			t.Errorf("Japanese on the English matches page")
		}

		_, body = a.do(public, http.MethodGet, fmt.Sprintf("/events/%d/teams/standings", f.event.ID), nil, "")
		for _, want := range []string{"Match points", "Board wins", "Direct encounter", "Board-weighted wins", "Buchholz", "1–0–0"} {
			if !strings.Contains(body, want) {
				t.Errorf("English standings lack %q", want)
			}
		}
		_, body = a.get(fmt.Sprintf("/events/%d/teams/standings", f.event.ID))
		// Team A: 2 match points, 3 board wins; board-weighted wins over
		// three boards: 3 + 2 + 1 = 6.
		line := regexp.MustCompile(`(?s)<tr data-testid="standings-line">.*?</tr>`).FindString(body)
		cells := regexp.MustCompile(`<td class="num">([^<]*)`).FindAllStringSubmatch(line, -1)
		var got []string
		for _, c := range cells {
			got = append(got, strings.TrimSpace(c[1]))
		}
		if !strings.Contains(line, a0) || len(got) < 6 || got[0] != "1" || got[2] != "2" || got[3] != "3" || got[5] != "6" {
			t.Fatalf("standings first line: %v\n%s", got, line)
		}
		for _, want := range []string{"勝ち点", "勝数", "直接対決", "ソルコフ", "1勝0敗0分"} {
			if !strings.Contains(body, want) {
				t.Errorf("standings lack %q", want)
			}
		}
	})
}

// A page costs a fixed number of statements: the round's matches (every
// match started) and the standings, for 2 teams and for 20.
func TestTeamMatchesWeb_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		paths := func(n int) []string {
			f, rid, ids := seedTeamRound(t, a, fmt.Sprintf("対抗%d", n), n)
			for i := 0; i+1 < len(ids); i += 2 {
				m, err := f.tm.CreateMatch(ctx, f.admin, teams.MatchInput{RoundID: rid, Table: i/2 + 1, TeamA: ids[i], TeamB: ids[i+1]})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.tm.StartMatch(ctx, f.admin, m.ID, m.Version); err != nil {
					t.Fatal(err)
				}
			}
			return []string{fmt.Sprintf("/team-rounds/%d/matches", rid), fmt.Sprintf("/events/%d/teams/standings", f.event.ID)}
		}
		small, large := paths(2), paths(20)
		u := a.addUser("team-matches-reader", true)
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				a.signIn(a.client, u.ID)
			}
			for i := range small {
				s, l := statementsOf(t, a, a.store, small[i]), statementsOf(t, a, a.store, large[i])
				if s != l {
					t.Errorf("%s: %d statements for 2 teams, %d for 20 (signed in %v)", large[i], s, l, signedIn)
				}
			}
		}
	})
}
