package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/store"
)

// termWebNext plays an 11-player C2 (4 games each, sente wins every game)
// through the office and rolls it over: the next term's C1 holds the
// promoted with C1's default of 10 games, C2 the stayers with 4.
func termWebNext(t *testing.T, a *testApp, f leagueFixture) (c1, c2 store.LeagueClass) {
	t.Helper()
	ctx := context.Background()
	o := a.srv.Office
	act := office.Actor{UserID: f.sched.ID, Login: f.sched.Login}
	c, err := o.AddLeagueClass(ctx, act, office.LeagueClassInput{EventID: f.eventID, Class: "C2", Members: f.memberLines(), GamesPerPlayer: 4, AllowanceMinutes: 360})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.GenerateSchedule(ctx, act, office.ScheduleInput{ClassID: c.ID, Seed: "11", DrawDate: "2026-05-01",
		RoundDates: []string{"2026-06-09", "2026-07-07", "2026-08-04", "2026-09-01", "2026-10-06"}}); err != nil {
		t.Fatal(err)
	}
	if err := o.PublishSchedule(ctx, act, c.ID); err != nil {
		t.Fatal(err)
	}
	st, err := o.Standings(ctx, act, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range st.Games {
		if err := o.EnterLeagueResult(ctx, act, office.LeagueResultInput{GameID: g.Current, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
	}
	next, err := o.RollOver(ctx, act, office.NextTermInput{EventID: f.eventID, Name: "第86期順位戦", StartDate: "2027-06-01", EndDate: "2028-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := a.store.LeagueClasses(ctx, next.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cs {
		switch k.Class {
		case "C1":
			c1 = k
		case "C2":
			c2 = k
		}
	}
	return c1, c2
}

// engineEnglish is text the league engine writes; none of it may reach a page.
var engineEnglish = []string{"invalid league input", "games_per_player", "exceeds the", "classmates each player has",
	"too few possible games", "cannot all play", "every game takes two"}

// checkNoEngineEnglish looks at the page's text as a reader sees it (form
// field names in attributes are not shown).
func checkNoEngineEnglish(t *testing.T, where, body string) {
	t.Helper()
	d := doc(t, body)
	d.Find("script, style").Remove()
	text := d.Find("body").Text()
	for _, s := range engineEnglish {
		if strings.Contains(text, s) {
			t.Fatalf("%s shows the engine's English %q", where, s)
		}
	}
}

// termVersion is the member version the page's add form carries.
func termVersion(t *testing.T, body string) string {
	t.Helper()
	v, ok := doc(t, body).Find(`[data-testid="league-member-add"] input[name="version"]`).Attr("value")
	if !ok {
		t.Fatal("no member add form on the page")
	}
	return v
}

// TestTermWeb_EditBeforeDraw_SettingsFlaggedInWords is issue 24 item 7 on
// the page: the next term's class lists its members with the 降級点 carried
// and their origin before its draw; a new 四段 is added at the bottom of
// C2, a player moved to C1, each with a reason and shown in the class's
// record; a stale form is 409; a change without a reason is 422 beside the
// form; the C1 copy of 10 games for its few players is flagged in words
// with the value that fits (Japanese and English), and its draw refuses in
// those words, never the engine's English; once drawn, a class refuses changes.
func TestTermWeb_EditBeforeDraw_SettingsFlaggedInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newLeagueFixture(t, a, 11)
		a.signIn(a.client, f.sched.ID)
		c1, c2 := termWebNext(t, a, f)
		url1, url2 := "/league/"+strconv.FormatInt(c1.ID, 10), "/league/"+strconv.FormatInt(c2.ID, 10)
		ctx := context.Background()
		m1, _ := a.store.LeagueMembers(ctx, c1.ID)
		m2, _ := a.store.LeagueMembers(ctx, c2.ID)
		n1 := len(m1)

		// C2 before its draw: every member listed in 順位 order, the two
		// with a new 降級点 last with ＊.
		resp, body := a.get(url2)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("C2 page: %d", resp.StatusCode)
		}
		rows := doc(t, body).Find(`[data-testid="league-member"]`)
		if rows.Length() != len(m2) {
			t.Fatalf("C2 lists %d members, want %d", rows.Length(), len(m2))
		}
		last := rows.Eq(rows.Length() - 1).Find("td")
		if last.Eq(0).Text() != strconv.Itoa(len(m2)) || last.Eq(2).Text() != "＊" || last.Eq(3).Text() != "残留（降級点）" {
			t.Fatalf("C2 last row: %q %q %q", last.Eq(0).Text(), last.Eq(2).Text(), last.Eq(3).Text())
		}
		if got := rows.Eq(0).Find("td").Eq(3).Text(); got != "残留" {
			t.Fatalf("C2 first row origin %q", got)
		}

		// C1: 10 games for n1 players, flagged with a value that fits.
		want := n1 - 1
		if n1 == 4 {
			want = 2
		}
		_, body = a.get(url1)
		mis := doc(t, body).Find(`[data-testid="league-misfits"]`).Text()
		if !strings.Contains(mis, "1人10局") || !strings.Contains(mis, fmt.Sprintf("1人%d局にしてください", want)) {
			t.Fatalf("C1 misfit (ja): %q", mis)
		}
		checkNoEngineEnglish(t, "C1 page", body)
		if got := doc(t, body).Find(`[data-testid="league-member"]`).First().Find("td").Eq(3).Text(); got != "昇級" {
			t.Fatalf("C1 first row origin %q", got)
		}
		resp, body = a.postForm(url1+"/generate", url.Values{"seed": {"1"}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("C1 draw: %d", resp.StatusCode)
		}
		conf := doc(t, body).Find(`[data-testid="league-conflicts"]`).Text()
		if !strings.Contains(conf, "抽選できません") || !strings.Contains(conf, fmt.Sprintf("1人%d局", want)) {
			t.Fatalf("C1 draw refusal: %q", conf)
		}
		checkNoEngineEnglish(t, "C1 draw refusal", body)
		a.get("/lang?to=en")
		_, body = a.get(url1)
		mis = doc(t, body).Find(`[data-testid="league-misfits"]`).Text()
		if !strings.Contains(mis, "10 games each is too many") || !strings.Contains(mis, fmt.Sprintf("Set %d games each", want)) {
			t.Fatalf("C1 misfit (en): %q", mis)
		}
		a.get("/lang?to=ja")

		// Add a new 四段 to C2: at the bottom, 新規, recorded with the reason.
		yondan := store.Player{Number: ptr("L99"), Name: "新堂 四郎", Reading: "しんどう", Kind: store.PlayerProfessional, Class: store.PlayerClassC2, CreatedAt: a.now, UpdatedAt: a.now}
		if err := a.store.CreatePlayer(ctx, &yondan); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(url2)
		v0 := termVersion(t, body)
		resp, body = a.postForm(url2+"/members", url.Values{"action": {"add"}, "version": {v0}, "player": {"L99"}, "kind": {"new_yondan"}, "reason": {"四段昇段（三段リーグ1位）"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(url2)
		d := doc(t, body)
		rows = d.Find(`[data-testid="league-member"]`)
		last = rows.Eq(rows.Length() - 1).Find("td")
		if rows.Length() != len(m2)+1 || last.Eq(1).Text() != "新堂 四郎" || last.Eq(3).Text() != "新規" {
			t.Fatalf("after the add: %d rows, last %q %q", rows.Length(), last.Eq(1).Text(), last.Eq(3).Text())
		}
		logText := d.Find(`[data-testid="league-member-log"]`).Text()
		if !strings.Contains(logText, "新堂 四郎") || !strings.Contains(logText, "新四段") || !strings.Contains(logText, "四段昇段（三段リーグ1位）") || !strings.Contains(logText, f.sched.DisplayName) {
			t.Fatalf("member log: %q", logText)
		}
		// The same form again: the term's members changed since (409).
		if resp, _ := a.postForm(url2+"/members", url.Values{"action": {"add"}, "version": {v0}, "player": {f.players[0].Name}, "kind": {"other"}, "reason": {"重複"}}); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale add: %d", resp.StatusCode)
		}
		// No reason: 422 beside the remove form, in Japanese.
		v1 := termVersion(t, body)
		resp, body = a.postForm(url2+"/members", url.Values{"action": {"remove"}, "version": {v1}, "player_id": {strconv.FormatInt(m2[0].PlayerID, 10)}, "kind": {"retired"}, "reason": {" "}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="league-member-remove"]`).Text(), "理由を入力してください") {
			t.Fatalf("remove without a reason: %d", resp.StatusCode)
		}
		// Move C2's first member to C1: at C1's bottom.
		mover := m2[0].PlayerID
		resp, body = a.postForm(url2+"/members", url.Values{"action": {"move"}, "version": {v1}, "player_id": {strconv.FormatInt(mover, 10)}, "kind": {"other"}, "to_class": {"C1"}, "reason": {"組分けの訂正"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("move: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(url1)
		rows = doc(t, body).Find(`[data-testid="league-member"]`)
		if rows.Length() != n1+1 || rows.Eq(n1).Find("td").Eq(3).Text() != "他の組から移動" {
			t.Fatalf("C1 after the move: %d rows", rows.Length())
		}
		if !strings.Contains(doc(t, body).Find(`[data-testid="league-member-log"]`).Text(), "組分けの訂正") {
			t.Fatal("C1 does not show the move in its record")
		}

		// C1 with a fitting number of games: no flag, and its draw is
		// made; then its members are fixed and a change is refused in words.
		act := office.Actor{UserID: f.sched.ID, Login: f.sched.Login}
		d1, err := a.srv.Office.LeagueClass(ctx, act, c1.ID)
		if err != nil {
			t.Fatal(err)
		}
		set := d1.Settings
		set.GamesPerPlayer = 2
		if _, err := a.srv.Office.UpdateClassSettings(ctx, act, office.ClassSettingsInput{ClassID: c1.ID, Settings: set}); err != nil {
			t.Fatal(err)
		}
		_, body = a.get(url1)
		if doc(t, body).Find(`[data-testid="league-misfits"]`).Length() != 0 {
			t.Fatal("C1 still flagged with 2 games each")
		}
		resp, body = a.postForm(url1+"/generate", url.Values{"seed": {"3"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("C1 draw: %d %s", resp.StatusCode, body)
		}
		_, body = a.get(url1)
		if doc(t, body).Find(`[data-testid="league-member-add"]`).Length() != 0 {
			t.Fatal("a drawn class still offers the member forms")
		}
		resp, body = a.postForm(url1+"/members", url.Values{"action": {"add"}, "version": {"2"}, "player": {"L99"}, "kind": {"other"}, "reason": {"追加"}})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "抽選済みのため") {
			t.Fatalf("add after the draw: %d", resp.StatusCode)
		}
		checkNoEngineEnglish(t, "C1 refusal", body)
	})
}

func ptr[T any](v T) *T { return &v }
