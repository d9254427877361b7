package web

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
	"kisen/office/teams"
	"kisen/store"
	"kisen/web/site"
)

// teamsFixture is a published team event (three boards, one reserve) and
// its director, signed in on a.client.
type teamsFixture struct {
	event store.Event
	admin office.Actor
	tm    *teams.Teams
}

func seedTeamEvent(t *testing.T, a *testApp, name string) teamsFixture {
	t.Helper()
	ctx := context.Background()
	u := a.addUser("director-"+strconv.FormatInt(a.now.UnixNano()%1000, 10)+name, true)
	admin := office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
	org := store.Organiser{Name: name + "学生将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(ctx, &org); err != nil {
		t.Fatal(err)
	}
	tm := teams.New(a.srv.Office)
	e, err := tm.CreateTeamEvent(ctx, admin, office.EventInput{OrganiserID: org.ID, Name: name, StartDate: "2026-11-22", EndDate: "2026-11-22"},
		teams.SettingsInput{Boards: "3", Reserves: "1", OrderRule: "free"})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.srv.Office.SetEventStatus(ctx, admin, e.ID, office.StatusPublished); err != nil {
		t.Fatal(err)
	}
	return teamsFixture{event: e, admin: admin, tm: tm}
}

var reFingerprint = regexp.MustCompile(`name="fingerprint" value="([0-9a-f]+)"`)

func teamRows(t *testing.T, a *testApp, eventID int64) int64 {
	t.Helper()
	var n int64
	if err := a.store.DB(context.Background()).Model(&store.Team{}).Where("event_id = ?", eventID).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// Issue 25 items 1 and 2 through the pages: a paste refused as a whole
// with each bad line named (ja and en), then registered; a team by the
// form with its preview; a round; orders under the by-rank rule (a breach
// refused naming the boards and players, a stale form 409); the orders
// hidden from the public (404 for an order in and for one missing) until
// both are in; then the round page, each team's page and the printed order
// sheet show them.
func TestTeamsWeb_Issue25_RosterPasteOrdersAndSheet(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedTeamEvent(t, a, "全国学生団体戦")
		a.signIn(a.client, f.admin.UserID)
		base := fmt.Sprintf("/events/%d/teams", f.event.ID)

		bad := "東大学,東大学,大学,山田 一,やまだはじめ,三段\n東大学,,,川田 二,,二段\n"
		resp, body := a.postForm(base+"/import", url.Values{"text": {bad}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "2行目（よみ）：") || teamRows(t, a, f.event.ID) != 0 {
			t.Fatalf("bad paste: %d\n%s", resp.StatusCode, body)
		}
		en := a.newClient()
		a.signIn(en, f.admin.UserID)
		a.setLang(en, "en")
		form := url.Values{"text": {bad}, "_csrf": {a.csrfToken(en)}}
		resp, body = a.do(en, http.MethodPost, base+"/import", strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Line 2 (Reading): ") || strings.Contains(body, "行目") {
			t.Fatalf("bad paste in English: %d\n%s", resp.StatusCode, body)
		}

		good := "チーム,所属,種別,氏名,よみ,段級\n" +
			"東大学,東大学,学校,山田 一,やまだはじめ,三段\n東大学,,,川田 二,かわだじ,四段\n東大学,,,森 三,もりさぶ,初段\n" +
			"西大学,西大学,学校,林 四,はやしし,二段\n西大学,,,岡 五,おかご,二段\n西大学,,,池 六,いけろく,二段\n"
		resp, body = a.postForm(base+"/import", url.Values{"text": {good}})
		m := reFingerprint.FindStringSubmatch(body)
		if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(body, "2チームを登録します") {
			t.Fatalf("good paste preview: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.postForm(base+"/import/confirm", url.Values{"text": {good}, "fingerprint": {m[1]}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d\n%s", resp.StatusCode, body)
		}
		// The form: a third team, previewed then saved.
		team := url.Values{"name": {"南大学"}, "affiliation": {"南大学"}, "affiliation_kind": {"school"}, "rows": {"4"},
			"name_1": {"谷 七"}, "reading_1": {"たになな"}, "rank_1": {"初段"}}
		preview := url.Values{"preview": {"1"}}
		for k, v := range team {
			preview[k] = v
		}
		if resp, body = a.postForm(base, preview); resp.StatusCode != http.StatusOK || !strings.Contains(body, "新しく登録") || teamRows(t, a, f.event.ID) != 2 {
			t.Fatalf("team preview: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.postForm(base, team); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("team save: %d\n%s", resp.StatusCode, body)
		}
		public := a.newClient()
		resp, body = a.do(public, http.MethodGet, base, nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "東大学") || !strings.Contains(body, "谷 七") || strings.Contains(body, `data-testid="teams-edit"`) {
			t.Fatalf("public roster: %d\n%s", resp.StatusCode, body)
		}

		// By rank; round 1 due in an hour.
		_, set, err := f.tm.EventSettings(context.Background(), f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resp, body = a.postForm(base+"/settings", url.Values{"version": {strconv.Itoa(set.Version)}, "boards": {"3"}, "reserves": {"1"}, "order_rule": {"rank"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("settings: %d\n%s", resp.StatusCode, body)
		}
		deadline := a.now.Add(time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)
		if resp, body = a.postForm(base+"/rounds", url.Values{"number": {"1"}, "deadline": {deadline}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("round: %d\n%s", resp.StatusCode, body)
		}
		rounds, err := f.tm.Rounds(context.Background(), f.admin, f.event.ID)
		if err != nil || len(rounds) != 1 {
			t.Fatalf("rounds: %v %v", rounds, err)
		}
		v, err := f.tm.Roster(context.Background(), f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		east, west, south := v.Teams[0], v.Teams[1], v.Teams[2]
		rid := rounds[0].ID
		orderPath := func(tm teams.TeamView) string { return fmt.Sprintf("/team-rounds/%d/teams/%d", rid, tm.ID) }
		post := func(tm teams.TeamView, version string, ids ...int64) (*http.Response, string) {
			form := url.Values{"version": {version}, "boards": {"3"}}
			for i, id := range ids {
				form.Set("board_"+strconv.Itoa(i+1), strconv.FormatInt(id, 10))
			}
			return a.postForm(orderPath(tm)+"/order", form)
		}
		// 森 (初段) on board 1 above 山田 (三段) and 川田 (四段): refused.
		resp, body = post(east, "0", east.Members[2].PlayerID, east.Members[0].PlayerID, east.Members[1].PlayerID)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "1将の 森 三 は2将の 山田 一 より段級位が下です") {
			t.Fatalf("breach: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = post(east, "0", east.Members[1].PlayerID, east.Members[0].PlayerID, east.Members[2].PlayerID); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("east order: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ = post(east, "0", east.Members[1].PlayerID, east.Members[0].PlayerID); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale order: %d", resp.StatusCode)
		}
		if resp, _ = post(west, "0", west.Members[0].PlayerID, west.Members[1].PlayerID, west.Members[2].PlayerID); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("west order: %d", resp.StatusCode)
		}
		// 南大学 has not handed in: hidden. The public gets 404 for the
		// order that is in and for the one that is not, and the round page
		// names no player.
		for _, tm := range []teams.TeamView{east, south} {
			if resp, _ := a.do(public, http.MethodGet, orderPath(tm), nil, ""); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("hidden order of %s: %d", tm.Name, resp.StatusCode)
			}
		}
		roundPath := fmt.Sprintf("/team-rounds/%d", rid)
		resp, body = a.do(public, http.MethodGet, roundPath, nil, "")
		if resp.StatusCode != http.StatusOK || strings.Contains(body, "川田") || !strings.Contains(body, "一斉に公開") {
			t.Fatalf("hidden round: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.get(roundPath); !strings.Contains(body, "川田 二") || !strings.Contains(body, "提出 2／3チーム") {
			t.Fatalf("staff round view: %d\n%s", resp.StatusCode, body)
		}
		// The last order (one player: short of a majority, two forfeits).
		if resp, body = post(south, "0", south.Members[0].PlayerID); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("south order: %d\n%s", resp.StatusCode, body)
		}
		resp, body = a.do(public, http.MethodGet, orderPath(east), nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "川田 二") || strings.Contains(body, `data-testid="order-form"`) {
			t.Fatalf("published order: %d\n%s", resp.StatusCode, body)
		}
		resp, body = a.do(public, http.MethodGet, orderPath(south), nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "不戦敗：2将、3将") {
			t.Fatalf("south's forfeits: %d\n%s", resp.StatusCode, body)
		}
		resp, body = a.do(public, http.MethodGet, roundPath+"/print", nil, "")
		if resp.StatusCode != http.StatusOK || strings.Count(body, `data-testid="order-sheet-team"`) != 3 || !strings.Contains(body, "/static/day-paper.css") || !strings.Contains(body, "第1回戦 オーダー表") {
			t.Fatalf("order sheet: %d\n%s", resp.StatusCode, body)
		}
		// In English: the words are English.
		resp, body = a.do(en, http.MethodGet, roundPath+"/print", nil, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Round 1 order sheet") || !strings.Contains(body, "Board 3") || strings.Contains(body, "将") {
			t.Fatalf("English order sheet: %d\n%s", resp.StatusCode, html.UnescapeString(body))
		}
		// A correction after publication needs a reason.
		ov, _, err := f.tm.TeamOrder(context.Background(), f.admin, rid, east.ID)
		if err != nil {
			t.Fatal(err)
		}
		version := strconv.FormatInt(ov.Order.ID, 10)
		if resp, body = post(east, version, east.Members[1].PlayerID, east.Members[0].PlayerID); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "理由を入力してください") {
			t.Fatalf("correction without reason: %d\n%s", resp.StatusCode, body)
		}
	})
}

// A page costs a fixed number of statements: the teams page, a round's
// orders, a team's order and the order sheet cost the same for 2 teams
// and for 20, signed in as the director and signed out.
func TestTeamsWeb_Issue25_QueryCountConstant(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		paths := func(n int) []string {
			f := seedTeamEvent(t, a, fmt.Sprintf("団体戦%d", n))
			var firstTeam int64
			for i := range n {
				in := teams.TeamInput{EventID: f.event.ID, Name: fmt.Sprintf("チーム%02d", i), AffiliationKind: "club"}
				for k := range 4 {
					in.Members = append(in.Members, teams.MemberInput{Name: fmt.Sprintf("選手%d-%02d-%d", n, i, k), Reading: "せんしゅ", Rank: "初段"})
				}
				tm, err := f.tm.SaveTeam(ctx, f.admin, in)
				if err != nil {
					t.Fatal(err)
				}
				if firstTeam == 0 {
					firstTeam = tm.ID
				}
			}
			if _, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "1", Deadline: a.now.Add(-time.Minute).In(site.Tokyo).Format(teams.DeadlineLayout)}); err == nil {
				t.Fatal("a deadline in the past was taken")
			}
			r, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "1", Deadline: a.now.Add(time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
			if err != nil {
				t.Fatal(err)
			}
			v, err := f.tm.Roster(ctx, f.admin, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, tm := range v.Teams {
				if _, err := f.tm.SubmitOrder(ctx, f.admin, teams.OrderInput{RoundID: r.ID, TeamID: tm.ID, Players: []int64{tm.Members[0].PlayerID, tm.Members[1].PlayerID}}); err != nil {
					t.Fatal(err)
				}
			}
			return []string{fmt.Sprintf("/events/%d/teams", f.event.ID), fmt.Sprintf("/team-rounds/%d", r.ID),
				fmt.Sprintf("/team-rounds/%d/print", r.ID), fmt.Sprintf("/team-rounds/%d/teams/%d", r.ID, firstTeam)}
		}
		small, large := paths(2), paths(20)
		u := a.addUser("teams-reader", true)
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

// Issue 25 item 1: the events form creates a team event (the kind 団体戦),
// whose page says so and links to its teams.
func TestTeamsWeb_Issue25_EventsFormCreatesTeamEvent(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		u := a.addUser("events-admin", true)
		a.signIn(a.client, u.ID)
		org := store.Organiser{Name: "職域将棋連盟", Kind: office.OrganiserAmateur, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreateOrganiser(context.Background(), &org); err != nil {
			t.Fatal(err)
		}
		resp, body := a.postForm("/events", url.Values{"organiser_id": {strconv.FormatInt(org.ID, 10)}, "name": {"職域団体対抗戦"}, "kind": {"team"},
			"start_date": {"2026-12-05"}, "end_date": {"2026-12-05"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create: %d\n%s", resp.StatusCode, body)
		}
		loc := resp.Header.Get("Location")
		resp, body = a.get(loc)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="event-teams-link"`) || !strings.Contains(body, "<dd>団体戦</dd>") {
			t.Fatalf("event page: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.get(loc + "/teams"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "3人制・補欠2人まで") {
			t.Fatalf("teams page: %d\n%s", resp.StatusCode, body)
		}
		if _, body = a.get("/events"); !strings.Contains(body, "団体戦") {
			t.Fatalf("events list does not name the kind:\n%s", body)
		}
	})
}

// TestCrawl_TeamPagesHaveNoDeveloperText (issue 13's crawl over issue 25's
// pages): every team page reachable from the teams page — rounds, each
// team's order, the order sheet, the team form — as the public and as the
// director, in Japanese and English, with a round published (one order
// missing, one short of a majority) and one hidden.
func TestCrawl_TeamPagesHaveNoDeveloperText(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := seedTeamEvent(t, a, "県団体戦")
		if _, err := f.tm.UpdateSettings(ctx, f.admin, teams.SettingsInput{EventID: f.event.ID, Version: 1, Boards: "3", Reserves: "1", OrderRule: "rank", MajorityForfeit: true}); err != nil {
			t.Fatal(err)
		}
		data := []string{f.event.Name, f.event.Name + "学生将棋連盟", "せんしゅ", "初段", "二段", "三段"}
		var ids []int64
		for i, name := range []string{"東高校", "西高校", "南高校"} {
			in := teams.TeamInput{EventID: f.event.ID, Name: name, Affiliation: name, AffiliationKind: "school"}
			for k, rank := range []string{"三段", "二段", "初段", "初段"} {
				n := fmt.Sprintf("選手%d%d", i, k)
				in.Members = append(in.Members, teams.MemberInput{Name: n, Reading: "せんしゅ", Rank: rank})
				data = append(data, n)
			}
			if _, err := f.tm.SaveTeam(ctx, f.admin, in); err != nil {
				t.Fatal(err)
			}
			data = append(data, name)
		}
		v, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, tm := range v.Teams {
			for _, m := range tm.Members {
				ids = append(ids, m.PlayerID)
			}
		}
		deadline := a.now.Add(time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)
		r1, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "1", Deadline: deadline})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := f.tm.SaveRound(ctx, f.admin, teams.RoundInput{EventID: f.event.ID, Number: "2", Deadline: a.now.Add(48 * time.Hour).In(site.Tokyo).Format(teams.DeadlineLayout)})
		if err != nil {
			t.Fatal(err)
		}
		east, west := v.Teams[0], v.Teams[1]
		for _, o := range []teams.OrderInput{
			{RoundID: r1.ID, TeamID: east.ID, Players: []int64{east.Members[0].PlayerID, east.Members[1].PlayerID, east.Members[3].PlayerID}},
			{RoundID: r1.ID, TeamID: west.ID, Players: []int64{west.Members[0].PlayerID}},
			{RoundID: r2.ID, TeamID: east.ID, Players: []int64{east.Members[0].PlayerID, east.Members[1].PlayerID}},
		} {
			if _, err := f.tm.SubmitOrder(ctx, f.admin, o); err != nil {
				t.Fatal(err)
			}
		}
		a.now = a.now.Add(2 * time.Hour) // round 1's deadline passes: published, 南高校 missing
		// Issue 25 item 3: east against west, started (west short of a
		// majority: a match forfeit); the matches page and the standings.
		m, err := f.tm.CreateMatch(ctx, f.admin, teams.MatchInput{RoundID: r1.ID, Table: 1, TeamA: east.ID, TeamB: west.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.tm.StartMatch(ctx, f.admin, m.ID, m.Version); err != nil {
			t.Fatal(err)
		}
		chk := newPageChecker(a.srv.Msgs, data, ids)
		start := []string{fmt.Sprintf("/events/%d", f.event.ID), fmt.Sprintf("/events/%d/teams", f.event.ID),
			fmt.Sprintf("/team-rounds/%d/matches", r1.ID), fmt.Sprintf("/events/%d/teams/standings", f.event.ID),
			fmt.Sprintf("/events/%d/teams/new", f.event.ID), fmt.Sprintf("/team-rounds/%d", r1.ID), fmt.Sprintf("/team-rounds/%d", r2.ID),
			fmt.Sprintf("/team-rounds/%d/print", r1.ID), fmt.Sprintf("/team-rounds/%d/print", r2.ID)}
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
		if total < 20 {
			t.Errorf("the crawl reached only %d pages", total)
		}
		report(t, all)
	})
}

// Issue 25 item 1: the edit form shows the roster with the players' ids
// kept; saving it unchanged keeps the same players; a stale form is 409.
func TestTeamsWeb_Issue25_EditKeepsPlayersAndStaleIs409(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := seedTeamEvent(t, a, "支部対抗戦")
		in := teams.TeamInput{EventID: f.event.ID, Name: "北支部", AffiliationKind: "branch", Members: []teams.MemberInput{
			{Name: "北 一", Reading: "きたいち", Rank: "二段"}, {Name: "北 二", Reading: "きたに", Rank: "初段"}}}
		tm, err := f.tm.SaveTeam(ctx, f.admin, in)
		if err != nil {
			t.Fatal(err)
		}
		before, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		a.signIn(a.client, f.admin.UserID)
		edit := fmt.Sprintf("/teams/%d", tm.ID)
		resp, body := a.get(edit + "/edit")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `value="北 一"`) || !strings.Contains(body, fmt.Sprintf(`name="player_1" value="%d"`, before.Teams[0].Members[0].PlayerID)) {
			t.Fatalf("edit form: %d\n%s", resp.StatusCode, body)
		}
		form := url.Values{"version": {strconv.Itoa(tm.Version)}, "name": {"北支部"}, "affiliation_kind": {"branch"}, "rows": {"4"},
			"player_1": {strconv.FormatInt(before.Teams[0].Members[0].PlayerID, 10)}, "name_1": {"北 一"}, "rank_1": {"二段"},
			"player_2": {strconv.FormatInt(before.Teams[0].Members[1].PlayerID, 10)}, "name_2": {""}, // emptied: leaves
			"name_3": {"北 三"}, "reading_3": {"きたさん"}}
		if resp, body = a.postForm(edit, form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("update: %d\n%s", resp.StatusCode, body)
		}
		after, err := f.tm.Roster(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		ms := after.Teams[0].Members
		if len(ms) != 2 || ms[0].PlayerID != before.Teams[0].Members[0].PlayerID || ms[1].Name != "北 三" {
			t.Fatalf("roster after the edit: %+v", ms)
		}
		if resp, _ = a.postForm(edit, form); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale edit: %d", resp.StatusCode)
		}
	})
}

// Issue 25 item 1: a CSV file with quoted cells (a comma inside a team's
// affiliation) is previewed and confirmed as the same CSV.
func TestTeamsWeb_Issue25_CSVFileQuotedCells(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := seedTeamEvent(t, a, "職域団体戦")
		a.signIn(a.client, f.admin.UserID)
		base := fmt.Sprintf("/events/%d/teams", f.event.ID)
		file := "team,affiliation,affiliation_kind,name,reading,rank\r\n" +
			"\"東商事\",\"東商事, 本社\",company,東 一,ひがしいち,初段\r\n" +
			"東商事,,,東 二,ひがしに,1級\r\n"
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		fw, err := w.CreateFormFile("file", "teams.csv")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(file))
		w.Close()
		resp, body := a.postBody(base+"/import", w.FormDataContentType(), &buf)
		m := reFingerprint.FindStringSubmatch(body)
		if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(body, `name="csv" value="1"`) {
			t.Fatalf("file preview: %d\n%s", resp.StatusCode, body)
		}
		if resp, body = a.postForm(base+"/import/confirm", url.Values{"text": {file}, "csv": {"1"}, "fingerprint": {m[1]}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("file confirm: %d\n%s", resp.StatusCode, body)
		}
		v, err := f.tm.Roster(context.Background(), f.admin, f.event.ID)
		if err != nil || len(v.Teams) != 1 || v.Teams[0].Affiliation != "東商事, 本社" || len(v.Teams[0].Members) != 2 {
			t.Fatalf("registered: %+v %v", v.Teams, err)
		}
	})
}
