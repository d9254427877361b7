package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/web/api"
)

var (
	reNameRow   = regexp.MustCompile(`(?s)<tr data-testid="day-name-row"[^>]*data-outcome="([a-z]+)">(.*?)</tr>`)
	reNameCell  = regexp.MustCompile(`<span data-testid="day-name">([^<]*)</span>`)
	reBoardCell = regexp.MustCompile(`data-testid="day-name-board">(\d+)<`)
	reBoardRow  = regexp.MustCompile(`(?s)<tr data-testid="day-board-row" id="board-(\d+)">(.*?)</tr>`)
	reStanding  = regexp.MustCompile(`(?s)<tr data-testid="day-standing" data-shown="([a-z_]*)">(.*?)</tr>`)
	reCell      = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
)

// nameRow is one line of the round page by name.
type nameRow struct {
	Name, Outcome string
	Board         int
}

func nameRows(t *testing.T, body string) []nameRow {
	t.Helper()
	var out []nameRow
	for _, m := range reNameRow.FindAllStringSubmatch(body, -1) {
		r := nameRow{Outcome: m[1]}
		if n := reNameCell.FindStringSubmatch(m[2]); n != nil {
			r.Name = html.UnescapeString(n[1])
		}
		if b := reBoardCell.FindStringSubmatch(m[2]); b != nil {
			r.Board, _ = strconv.Atoi(b[1])
		}
		out = append(out, r)
	}
	return out
}

// The public round page (issue 23 §4): a draft day's is 404 like its
// other pages; published, every player of the round is listed once by
// name in reading order with the board the board list puts them on, the
// bye is said, a result shows on both views, and the page is live.
func TestDayPublic_RoundPageByBoardAndByName(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 9, 2)
		ctx := context.Background()
		page := fmt.Sprintf("/day/classes/%d/rounds/2", f.class.ID)
		for _, p := range []string{page, fmt.Sprintf("/day/classes/%d/standings", f.class.ID), fmt.Sprintf("/events/%d/day", f.event.ID)} {
			if resp, _ := a.get(p); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("draft day: public GET %s = %d, want 404", p, resp.StatusCode)
			}
		}
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		// The day page leads the public to the round being played and the
		// standings, the final knockouts and the projector.
		_, dayPage := a.get(fmt.Sprintf("/events/%d/day", f.event.ID))
		for _, href := range []string{page, fmt.Sprintf("/day/classes/%d/standings", f.class.ID), fmt.Sprintf("/events/%d/brackets", f.event.ID), fmt.Sprintf("/events/%d/projector", f.event.ID)} {
			if !strings.Contains(dayPage, `href="`+href+`"`) {
				t.Errorf("the day page does not link %s", href)
			}
		}
		if resp, _ := a.get(fmt.Sprintf("/day/classes/%d/rounds/3", f.class.ID)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("an undrawn round: %d, want 404", resp.StatusCode)
		}
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		boardOf := map[string]int{}
		for _, b := range v.Rounds[1].Boards {
			boardOf[v.Names[b.Sente]], boardOf[v.Names[b.Gote]] = b.Board, b.Board
		}
		resp, body := a.get(page)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("round page: %d", resp.StatusCode)
		}
		if !strings.Contains(body, `sse-connect="/events/`) {
			t.Error("the round page opens no live stream")
		}
		rows := nameRows(t, body)
		if len(rows) != 9 {
			t.Fatalf("%d lines by name, want 9", len(rows))
		}
		// The fixture's readings run in the order of its names.
		if !slices.IsSortedFunc(rows, func(x, y nameRow) int { return strings.Compare(x.Name, y.Name) }) {
			t.Errorf("not in reading order: %v", rows)
		}
		byes := 0
		for _, r := range rows {
			want, ok := boardOf[r.Name]
			switch {
			case !ok:
				byes++
				if r.Outcome != day.OutcomeBye || r.Board != 0 {
					t.Errorf("%s has no board but the line says %q board %d", r.Name, r.Outcome, r.Board)
				}
			case r.Board != want || r.Outcome != day.OutcomePlaying:
				t.Errorf("%s: board %d %q, the round puts them on board %d", r.Name, r.Board, r.Outcome, want)
			}
		}
		if byes != 1 || len(reBoardRow.FindAllString(body, -1)) != 4 {
			t.Errorf("%d byes and %d boards, want 1 and 4", byes, len(reBoardRow.FindAllString(body, -1)))
		}
		// A result comes in: the winner's line says so, and the board's.
		b := v.Rounds[1].Boards[0]
		if err := f.d.EnterBoardResult(ctx, f.admin, day.BoardResultInput{ClassID: f.class.ID, Round: 2, Board: b.Board, GameID: b.Last.ID, Version: b.Version, Result: office.ResultGoteWin}); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(page)
		for _, r := range nameRows(t, body) {
			switch r.Name {
			case v.Names[b.Gote]:
				if r.Outcome != day.OutcomeWin {
					t.Errorf("the winner's line: %q", r.Outcome)
				}
			case v.Names[b.Sente]:
				if r.Outcome != day.OutcomeLoss {
					t.Errorf("the loser's line: %q", r.Outcome)
				}
			}
		}
		for _, m := range reBoardRow.FindAllStringSubmatch(body, -1) {
			if m[1] == strconv.Itoa(b.Board) && !strings.Contains(m[2], v.Names[b.Gote]+" の勝ち") {
				t.Errorf("board %d does not show the result:\n%s", b.Board, m[2])
			}
		}
	})
}

// The Swiss standings page shows 勝 and 負 and a 状況 for every player on
// an undecided board (issue 23 §4: the 状況 column was empty), counted
// independently from the boards.
func TestDayPublic_SwissStandingsLossesAndStatus(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 9, 2)
		ctx := context.Background()
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		lost, playing := map[string]int{}, map[string]bool{}
		for _, b := range v.Rounds[0].Boards {
			if b.Winner == b.Sente {
				lost[v.Names[b.Gote]]++
			} else {
				lost[v.Names[b.Sente]]++
			}
		}
		for _, b := range v.Rounds[1].Boards {
			playing[v.Names[b.Sente]], playing[v.Names[b.Gote]] = true, true
		}
		resp, body := a.get(fmt.Sprintf("/day/classes/%d/standings", f.class.ID))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("standings: %d", resp.StatusCode)
		}
		for _, h := range []string{"<th>負</th>", "<th>ソルコフ</th>", "<th>SB</th>", "<th>状況</th>"} {
			if !strings.Contains(body, h) {
				t.Errorf("no %s column", h)
			}
		}
		lines := reStanding.FindAllStringSubmatch(body, -1)
		if len(lines) != 9 {
			t.Fatalf("%d lines, want 9", len(lines))
		}
		for _, m := range lines {
			cells := reCell.FindAllStringSubmatch(m[2], -1)
			name := strings.TrimSpace(cells[1][1])
			if got := strings.TrimSpace(cells[3][1]); got != strconv.Itoa(lost[name]) {
				t.Errorf("%s: 負 %s, the boards say %d", name, got, lost[name])
			}
			status := strings.TrimSpace(cells[len(cells)-1][1])
			if playing[name] != (m[1] == day.ShownGame) || playing[name] && status != "対局中" {
				t.Errorf("%s: 状況 %q (%s), on a board now %v", name, status, m[1], playing[name])
			}
		}
	})
}

// The day in the API and on the projector (issue 23 §4): a draft day's
// endpoints, projector and stream are 404 for the public like its pages;
// published, the event's kind says "day", and the classes, rounds,
// pairings and standings agree with the office's view of the class.
func TestDayPublic_APIAndProjectorFollowTheDay(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedDay(t, a, 9, 2)
		ctx := context.Background()
		apiPath := func(p string, args ...any) string { return api.APIPrefix + fmt.Sprintf(p, args...) }
		hidden := []string{apiPath("/events/%d/day", f.event.ID), apiPath("/day-classes/%d/rounds", f.class.ID), apiPath("/day-classes/%d/rounds/2", f.class.ID),
			apiPath("/day-classes/%d/standings", f.class.ID), apiPath("/events/%d", f.event.ID),
			fmt.Sprintf("/events/%d/projector", f.event.ID), fmt.Sprintf("/events/%d/stream", f.event.ID)}
		for _, p := range hidden {
			if resp, _ := apiGet(t, a, p, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("draft day: GET %s = %d, want 404", p, resp.StatusCode)
			}
		}
		if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
			t.Fatal(err)
		}
		getJSON := func(p string, v any) {
			t.Helper()
			resp, body := apiGet(t, a, p, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d\n%s", p, resp.StatusCode, body)
			}
			if err := json.Unmarshal([]byte(body), v); err != nil {
				t.Fatal(err)
			}
		}
		var ev api.APIEvent
		getJSON(apiPath("/events/%d", f.event.ID), &ev)
		var list api.APIEventList
		getJSON(apiPath("/events"), &list)
		listed := slices.IndexFunc(list.Items, func(e api.APIEvent) bool { return e.ID == f.event.ID })
		if ev.Kind != "day" || listed < 0 || list.Items[listed].Kind != "day" {
			t.Fatalf("the day's kind: %q, in the list %d", ev.Kind, listed)
		}
		var d api.APIDay
		getJSON(apiPath("/events/%d/day", f.event.ID), &d)
		if len(d.Classes) != 1 || d.Classes[0].CurrentRound != 2 || d.Classes[0].Format != "swiss" || d.Classes[0].Entrants != 9 {
			t.Fatalf("the day's classes: %+v", d.Classes)
		}
		var rounds api.APIDayRoundList
		getJSON(apiPath("/day-classes/%d/rounds", f.class.ID), &rounds)
		if len(rounds.Items) != 2 || !rounds.Items[0].Complete || rounds.Items[1].Complete {
			t.Fatalf("rounds: %+v", rounds.Items)
		}
		v, err := f.d.ClassView(ctx, f.admin, f.class.ID)
		if err != nil {
			t.Fatal(err)
		}
		var r api.APIDayRound
		getJSON(apiPath("/day-classes/%d/rounds/2", f.class.ID), &r)
		if len(r.Boards) != len(v.Rounds[1].Boards) || len(r.ByName) != 9 || len(r.Byes) != 1 {
			t.Fatalf("round 2: %d boards, %d by name, %d byes", len(r.Boards), len(r.ByName), len(r.Byes))
		}
		for _, b := range v.Rounds[1].Boards {
			i := slices.IndexFunc(r.Boards, func(ab api.APIDayBoard) bool { return ab.Board == b.Board })
			if i < 0 || r.Boards[i].Sente.ID != b.Sente || r.Boards[i].Gote.ID != b.Gote || r.Boards[i].GameID != b.Last.ID || r.Boards[i].Result != nil {
				t.Errorf("board %d differs from the class view", b.Board)
			}
			for _, pl := range []int64{b.Sente, b.Gote} {
				j := slices.IndexFunc(r.ByName, func(l api.APIDayByName) bool { return l.Player.ID == pl })
				if j < 0 || r.ByName[j].Board == nil || *r.ByName[j].Board != b.Board || r.ByName[j].Outcome != day.OutcomePlaying {
					t.Errorf("player %d's line by name does not name board %d", pl, b.Board)
				}
			}
		}
		var st api.APIDayStandings
		getJSON(apiPath("/day-classes/%d/standings", f.class.ID), &st)
		losses, games := 0, 0
		for _, l := range st.Lines {
			losses += l.Losses
			if l.Status == day.ShownGame {
				games++
			}
		}
		if len(st.Lines) != 9 || losses != len(v.Rounds[0].Boards) || games != 2*len(v.Rounds[1].Boards) {
			t.Errorf("standings: %d lines, %d losses (round 1 had %d boards), %d playing", len(st.Lines), losses, len(v.Rounds[0].Boards), games)
		}
		// The projector: the round being played by board, then the standings.
		resp, body := a.get(fmt.Sprintf("/events/%d/projector", f.event.ID))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("projector: %d", resp.StatusCode)
		}
		for _, want := range []string{"2回戦 組み合わせ", "成績", "対局中", v.Names[v.Rounds[1].Boards[0].Sente], `data-testid="projector-table"`} {
			if !strings.Contains(body, want) {
				t.Errorf("the projector does not show %q", want)
			}
		}
	})
}

// The public day's pages and endpoints cost the same number of statements
// for a class of 8 and one of 80 (issue 23 §4), for the public and for
// the director, on both databases.
func TestQueryCount_DayPublicPagesCostTheSameAtTenTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		small := seedDay(t, a, 8, 2)
		large := seedDay(t, a, 80, 2)
		for _, f := range []dayFixture{small, large} {
			if err := a.srv.Office.SetEventStatus(ctx, f.admin, f.event.ID, office.StatusPublished); err != nil {
				t.Fatal(err)
			}
		}
		pages := []struct {
			name string
			path func(f dayFixture) string
		}{
			{"round", func(f dayFixture) string { return fmt.Sprintf("/day/classes/%d/rounds/2", f.class.ID) }},
			{"standings", func(f dayFixture) string { return fmt.Sprintf("/day/classes/%d/standings", f.class.ID) }},
			{"day", func(f dayFixture) string { return fmt.Sprintf("/events/%d/day", f.event.ID) }},
			{"projector", func(f dayFixture) string { return fmt.Sprintf("/events/%d/projector", f.event.ID) }},
			{"api day", func(f dayFixture) string { return fmt.Sprintf("%s/events/%d/day", api.APIPrefix, f.event.ID) }},
			{"api rounds", func(f dayFixture) string { return fmt.Sprintf("%s/day-classes/%d/rounds", api.APIPrefix, f.class.ID) }},
			{"api round", func(f dayFixture) string { return fmt.Sprintf("%s/day-classes/%d/rounds/2", api.APIPrefix, f.class.ID) }},
			{"api standings", func(f dayFixture) string {
				return fmt.Sprintf("%s/day-classes/%d/standings", api.APIPrefix, f.class.ID)
			}},
		}
		for _, who := range []string{"public", "director"} {
			if who == "director" {
				a.signIn(a.client, small.admin.UserID)
			}
			for _, p := range pages {
				ns := statementsOf(t, a, a.store, p.path(small))
				nl := statementsOf(t, a, a.store, p.path(large))
				t.Logf("%-8s %-13s small %3d large %3d", who, p.name, ns, nl)
				if ns != nl {
					t.Errorf("%s %s: %d statements for 8 players, %d for 80", who, p.name, ns, nl)
				}
				if nl > 30 {
					t.Errorf("%s %s: %d statements, more than 30", who, p.name, nl)
				}
			}
		}
	})
}
