package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/store"
	"kisen/web/api"
	"kisen/web/site"
)

// Issue 25 item 5, the API on both databases: four teams of three boards
// (one reserve each) play round 1 (table 1: チーム00 wins boards 1 and 2
// and board 3 by forfeit, チーム01 having left it empty; table 2: チーム02
// wins board 1, チーム03 boards 2 and 3); round 2 has one order in, so it
// is hidden. The teams with their rosters and rounds, round 1's orders
// (the empty board null), its matches with boards and results, the
// standings with match points, board wins and each tie-break's value;
// round 2's orders empty and its matches 404; every answer valid against
// the document and 304 to its own ETag; every endpoint 404 once the event
// is a draft.
func TestAPITeams_Issue25_Item5_TeamsOrdersMatchesStandings(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f, rid, ids := seedTeamRound(t, a, "API団体", 4)
		playTeamRound(t, a, f, rid, ids, func(table, board int) bool { return table == 1 || board == 1 })
		r2, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "2", Deadline: a.now.Add(2 * time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
		if err != nil {
			t.Fatal(err)
		}
		ro, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		hidden := ro.Teams[3].Members[3] // the reserve, on board 1 of a hidden order
		if _, err := f.tm.SubmitOrder(ctx, f.admin, teams.OrderInput{RoundID: r2.ID, TeamID: ids[3],
			Players: []int64{hidden.PlayerID, ro.Teams[3].Members[0].PlayerID, ro.Teams[3].Members[1].PlayerID}}); err != nil {
			t.Fatal(err)
		}
		ac := newAPIContract(t, a)
		get := func(tmpl, path string, into any) {
			t.Helper()
			resp, body := apiGet(t, a, api.APIPrefix+path, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d\n%.400s", path, resp.StatusCode, body)
			}
			ac.check("get", tmpl, resp, body)
			if err := json.Unmarshal([]byte(body), into); err != nil {
				t.Fatal(err)
			}
			etag := resp.Header.Get("ETag")
			if r, _ := apiGet(t, a, api.APIPrefix+path, map[string]string{"If-None-Match": etag}); etag == "" || r.StatusCode != http.StatusNotModified {
				t.Errorf("GET %s with its ETag %q: %d, want 304", path, etag, r.StatusCode)
			}
		}
		ev := fmt.Sprint(f.event.ID)

		var te api.APITeamEvent
		get("/events/{id}/teams", "/events/"+ev+"/teams", &te)
		if te.Boards != 3 || te.Reserves != 1 || te.OrderRule != "free" || len(te.Teams) != 4 || len(te.Rounds) != 2 {
			t.Fatalf("teams: %+v", te)
		}
		t0 := te.Teams[0]
		if t0.ID != ids[0] || t0.Name != "API団体チーム00" || t0.AffiliationKind != "club" || len(t0.Members) != 4 {
			t.Fatalf("team 0: %+v", t0)
		}
		for i, m := range t0.Members {
			wantBoard := i < 3
			if m.Name != fmt.Sprintf("API団体選手00-%d", i) || m.Position != i+1 || m.Reserve == wantBoard || (m.Board != nil) != wantBoard ||
				(wantBoard && *m.Board != i+1) || m.Rank != "初段" {
				t.Errorf("team 0 member %d: %+v", i, m)
			}
		}
		if te.Rounds[0].ID != rid || te.Rounds[0].Number != 1 || te.Rounds[1].ID != r2.ID {
			t.Errorf("rounds: %+v", te.Rounds)
		}

		var o1 api.APITeamRoundOrders
		get("/team-rounds/{id}/orders", fmt.Sprintf("/team-rounds/%d/orders", rid), &o1)
		if !o1.Published || o1.PublishedAt == nil || len(o1.Orders) != 4 {
			t.Fatalf("round 1 orders: %+v", o1)
		}
		if b := o1.Orders[1].Boards; len(b) != 3 || b[2].PlayerID != nil || b[0].PlayerID == nil || b[0].Name != "API団体選手01-0" ||
			fmt.Sprint(o1.Orders[1].ForfeitBoards) != "[3]" || o1.Orders[1].Missing || o1.Orders[1].SubmittedAt == nil {
			t.Errorf("team 1's order: %+v", o1.Orders[1])
		}

		// Round 2 is hidden: no order, not even who handed one in, and no
		// matches.
		resp, body := apiGet(t, a, api.APIPrefix+fmt.Sprintf("/team-rounds/%d/orders", r2.ID), nil)
		var o2 api.APITeamRoundOrders
		if err := json.Unmarshal([]byte(body), &o2); err != nil || resp.StatusCode != 200 {
			t.Fatalf("round 2 orders: %d %s", resp.StatusCode, body)
		}
		ac.check("get", "/team-rounds/{id}/orders", resp, body)
		if o2.Published || o2.PublishedAt != nil || len(o2.Orders) != 0 || strings.Contains(body, hidden.Name) || strings.Contains(body, "submitted") {
			t.Errorf("round 2's hidden order shows: %s", body)
		}
		if resp, _ := apiGet(t, a, api.APIPrefix+fmt.Sprintf("/team-rounds/%d/matches", r2.ID), nil); resp.StatusCode != 404 {
			t.Errorf("round 2's matches before publication: %d, want 404", resp.StatusCode)
		}

		var ms api.APITeamRoundMatches
		get("/team-rounds/{id}/matches", fmt.Sprintf("/team-rounds/%d/matches", rid), &ms)
		if ms.Number != 1 || len(ms.Matches) != 2 || ms.ByeTeamID != nil {
			t.Fatalf("round 1 matches: %+v", ms)
		}
		m1, m2 := ms.Matches[0], ms.Matches[1]
		if m1.Table != 1 || m1.TeamAID != ids[0] || m1.TeamBID != ids[1] || !m1.Started || !m1.Final || m1.Result == nil || *m1.Result != "a" ||
			m1.WinsA != 3 || m1.WinsB != 0 || len(m1.Boards) != 3 {
			t.Fatalf("table 1: %+v", m1)
		}
		if b := m1.Boards[2]; b.Outcome != "a_forfeit" || b.B != nil || b.GameID != nil || b.A == nil || b.A.Name != "API団体選手00-2" {
			t.Errorf("table 1 board 3: %+v", b)
		}
		if b := m1.Boards[0]; b.Outcome != "a" || b.GameID == nil || b.A == nil || b.B == nil || b.B.Name != "API団体選手01-0" {
			t.Errorf("table 1 board 1: %+v", b)
		}
		if m1.Boards[0].ASente == m1.Boards[1].ASente {
			t.Errorf("table 1's colours do not alternate: %+v", m1.Boards)
		}
		if m2.Result == nil || *m2.Result != "b" || m2.WinsA != 1 || m2.WinsB != 2 {
			t.Errorf("table 2: %+v", m2)
		}

		var st api.APITeamStandings
		get("/events/{id}/teams/standings", "/events/"+ev+"/teams/standings", &st)
		if st.Rounds != 1 || len(st.Lines) != 4 || st.Points.Win != 2 || st.Points.Draw != 1 || st.Points.Bye != 2 ||
			strings.Join(st.Tiebreaks, ",") != "direct,weighted,captain,buchholz,sb,lot" {
			t.Fatalf("standings: %+v", st)
		}
		top := st.Lines[0]
		if top.TeamID != ids[0] || top.Rank != 1 || top.MatchPoints != 2 || top.BoardWins != 3 || top.Won != 1 || top.Played != 1 || len(top.Tiebreaks) != 6 {
			t.Errorf("top line: %+v", top)
		}
		for _, l := range st.Lines {
			for _, tb := range l.Tiebreaks {
				if tb.Tiebreak != "direct" && tb.Value == nil {
					t.Errorf("%s: %s without a value", l.Name, tb.Tiebreak)
				}
			}
			if l.TeamID == ids[0] && l.Tiebreaks[4].Tiebreak == "sb" && *l.Tiebreaks[3].Value != 0 {
				t.Errorf("チーム00's Buchholz: %v, want 0 (its opponent lost)", *l.Tiebreaks[3].Value)
			}
		}
		last := st.Lines[3]
		if last.TeamID != ids[1] || last.MatchPoints != 0 || last.BoardWins != 0 || last.Lost != 1 {
			t.Errorf("last line: %+v", last)
		}

		// A draft is 404 like a missing event, on every endpoint.
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", f.event.ID).Update("status", office.StatusDraft).Error; err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/events/" + ev + "/teams", fmt.Sprintf("/team-rounds/%d/orders", rid), fmt.Sprintf("/team-rounds/%d/matches", rid),
			"/events/" + ev + "/teams/standings", "/events/999999/teams", "/team-rounds/999999/orders"} {
			resp, body := apiGet(t, a, api.APIPrefix+p, map[string]string{"If-None-Match": "*"})
			if resp.StatusCode != 404 {
				t.Errorf("GET %s of a draft: %d, want 404", p, resp.StatusCode)
				continue
			}
			if resp.Header.Get("ETag") != "" {
				t.Errorf("GET %s of a draft has an ETag", p)
			}
			ac.check("get", apiTemplate(p), resp, body)
		}
	})
}

// apiTemplate is the document's path of a team endpoint's path.
func apiTemplate(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if s != "" && s[0] >= '0' && s[0] <= '9' {
			parts[i] = "{id}"
		}
	}
	return strings.Join(parts, "/")
}

// The team endpoints cost the same statements for 4 teams and for 16
// (every match started and decided).
func TestAPITeams_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		paths := func(n int) []string {
			f, rid, ids := seedTeamRound(t, a, fmt.Sprintf("API数%d", n), n)
			playTeamRound(t, a, f, rid, ids, func(table, board int) bool { return board != 2 })
			return []string{fmt.Sprintf("%s/events/%d/teams/standings", api.APIPrefix, f.event.ID), fmt.Sprintf("%s/events/%d/teams", api.APIPrefix, f.event.ID),
				fmt.Sprintf("%s/team-rounds/%d/orders", api.APIPrefix, rid), fmt.Sprintf("%s/team-rounds/%d/matches", api.APIPrefix, rid)}
		}
		small, large := paths(4), paths(16)
		for i := range small {
			s, l := statementsOf(t, a, a.store, small[i]), statementsOf(t, a, a.store, large[i])
			if s != l {
				t.Errorf("%s: %d statements for 4 teams, %d for 16", large[i], s, l)
			}
		}
	})
}
