package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/store"
)

// Issue 24 item 3, "names staff use": round names by distance from the end
// of the stage, honest heads for a stage that sends players on, the draw
// method and the draw log in words, and engine errors translated.

// namesStage adds a stage through the form, enters players and draws it
// with seed ("" lets Kisen pick the number); it returns the stage path.
func namesStage(t *testing.T, a *testApp, f *bracketFixture, form url.Values, seed string, players ...store.Player) string {
	t.Helper()
	resp, body := a.postForm(f.eventPath()+"/stages", form)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create stage %v: %d %s", form, resp.StatusCode, body)
	}
	path := resp.Header.Get("Location")
	for _, p := range players {
		if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add entrant: %d", resp.StatusCode)
		}
	}
	if resp, body := a.postForm(path+"/draw", url.Values{"seed": {seed}, "draw_date": {"2026-11-21"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("draw: %d %s", resp.StatusCode, body)
	}
	return path
}

// namesPublish publishes a drawn stage through its preview.
func namesPublish(t *testing.T, a *testApp, path string) {
	t.Helper()
	_, body := a.postForm(path+"/publish", url.Values{})
	if resp, body := a.postForm(path+"/publish", confirmOf(t, body)); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("publish: %d %s", resp.StatusCode, body)
	}
}

// TestNames_BracketRoundNamesAndHeads_JaEn: a 一次予選 of 8 sending 2 on has
// a 1回戦 and a 予選決勝 and is headed 「本戦進出」 (the next stage), never 優勝;
// the 本戦 of 8 (6 players and the 2 qualifiers) with a third-place game
// has 準々決勝, 準決勝, 決勝 and 三位決定戦 — in English Quarter-final,
// Semi-final, Final and Third-place playoff.
func TestNames_BracketRoundNamesAndHeads_JaEn(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		pre := namesStage(t, a, f, url.Values{"name": {"一次予選"}, "kind": {"first_preliminary"}, "qualifiers": {"2"}, "round_dates": {"2026-12-10 2027-01-10"}},
			"5", f.players...)
		main := namesStage(t, a, f, url.Values{"name": {"本戦"}, "kind": {"main"}, "qualifiers": {"0"}, "third_place": {"1"},
			"round_dates": {"2027-02-10 2027-03-10 2027-03-20"}}, "9", f.players[2:]...)
		namesPublish(t, a, pre)
		namesPublish(t, a, main)
		ps, ms := strconv.FormatInt(stageIDOf(t, pre), 10), strconv.FormatInt(stageIDOf(t, main), 10)
		for _, c := range []struct {
			lang                           string
			preRounds, mainRounds          []string
			preEnd, mainEnd, third, forbid string
		}{
			{"ja", []string{"1回戦", "予選決勝"}, []string{"準々決勝", "準決勝", "決勝"}, "本戦進出", "優勝", "三位決定戦", "優勝"},
			{"en", []string{"Round 1", "Qualifying final"}, []string{"Quarter-final", "Semi-final", "Final"}, "Advance to: Main tournament", "Champion", "Third-place playoff", "Champion"},
		} {
			a.get("/lang?to=" + c.lang)
			resp, body := a.get(f.eventPath() + "/brackets")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s brackets: %d", c.lang, resp.StatusCode)
			}
			for i, want := range c.preRounds {
				if got := testid(t, body, "round-head-"+ps+"-"+strconv.Itoa(i+1)); got != want {
					t.Errorf("%s: 一次予選 round %d is %q, want %q", c.lang, i+1, got, want)
				}
			}
			for i, want := range c.mainRounds {
				if got := testid(t, body, "round-head-"+ms+"-"+strconv.Itoa(i+1)); got != want {
					t.Errorf("%s: 本戦 round %d is %q, want %q", c.lang, i+1, got, want)
				}
			}
			if got := testid(t, body, "end-head-"+ps); got != c.preEnd || strings.Contains(got, c.forbid) {
				t.Errorf("%s: the 一次予選 (2 go on) is headed %q, want %q", c.lang, got, c.preEnd)
			}
			if got := testid(t, body, "end-head-"+ms); got != c.mainEnd {
				t.Errorf("%s: the 本戦 is headed %q, want %q", c.lang, got, c.mainEnd)
			}
			if got := testid(t, body, "third-head-"+ms); got != c.third {
				t.Errorf("%s: third-place head %q, want %q", c.lang, got, c.third)
			}
			// The phone's round links say the same names.
			links := doc(t, body).Find(`[data-testid="bracket-rounds-` + ms + `"] a`).Map(func(_ int, s *goquery.Selection) string { return s.Text() })
			if len(links) != 4 || links[0] != c.mainRounds[0] || links[2] != c.mainRounds[2] {
				t.Errorf("%s: phone round links %q", c.lang, links)
			}
		}
		// The game page and the games list name a bracket game by its round
		// too: 「本戦 R1-G2」 reads 「本戦 準々決勝 第2局」.
		kgs, err := a.store.KnockoutGamesOfStage(context.Background(), stageIDOf(t, main))
		if err != nil || len(kgs) == 0 {
			t.Fatalf("main games: %v %d", err, len(kgs))
		}
		kg := kgs[0]
		k := strings.TrimPrefix(kg.BracketGame, "R1-G")
		for _, c := range []struct{ lang, want, stored string }{
			{"ja", "本戦 準々決勝 第" + k + "局", "本戦 " + kg.BracketGame},
			{"en", "Main tournament Quarter-final, game " + k, kg.BracketGame},
		} {
			a.get("/lang?to=" + c.lang)
			_, body := a.get("/games/" + strconv.FormatInt(kg.GameID, 10))
			if title := testid(t, body, "game-title"); !strings.Contains(title, c.want) || strings.Contains(title, c.stored) {
				t.Errorf("%s: game page title %q, want %q", c.lang, title, c.want)
			}
			_, body = a.get(f.eventPath() + "/games")
			if list := testid(t, body, "games-table"); !strings.Contains(list, c.want) {
				t.Errorf("%s: games list does not say %q", c.lang, c.want)
			}
		}
		// The API says the round for people in the request's language and
		// for programs as a code.
		a.get("/lang?to=ja")
		_, api := a.get("/api/v1/events/" + strconv.FormatInt(f.event.ID, 10) + "/stages")
		for _, want := range []string{`"round_name":"final"`, `"round_label":"決勝"`, `"round_name":"third_place"`, `"round_label":"三位決定戦"`, `"round_name":"qualifying_final"`} {
			if !strings.Contains(api, want) {
				t.Errorf("the API has no %s", want)
			}
		}
	})
}

// TestNames_SemiFinalLoserPreviewSaysThirdPlace: the preview of a
// semi-final result sends the winner to the 決勝 and the loser to the
// 三位決定戦 — not both to the final.
func TestNames_SemiFinalLoserPreviewSaysThirdPlace(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path := namesStage(t, a, f, url.Values{"name": {"本戦"}, "kind": {"main"}, "qualifiers": {"0"}, "third_place": {"1"},
			"round_dates": {"2027-02-10 2027-03-10"}}, "3", f.players[2:6]...)
		namesPublish(t, a, path)
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, stageIDOf(t, path))
		semi := kgs[0]
		g, _ := a.store.GameByID(ctx, semi.GameID)
		names := map[int64]string{}
		for _, p := range f.players {
			names[p.ID] = p.Name
		}
		winner, loser := *g.SentePlayerID, *g.GotePlayerID
		for _, c := range []struct{ lang, final, third string }{{"ja", "決勝", "三位決定戦"}, {"en", "Final", "Third-place playoff"}} {
			a.get("/lang?to=" + c.lang)
			form := `[data-testid="result-` + semi.BracketGame + `"]`
			shown := a.shown(path, form, url.Values{"winner": {strconv.FormatInt(winner, 10)}, "reason": {"resignation"}})
			resp, body := a.postForm(path+"/result", cloneForm(shown))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s preview: %d", c.lang, resp.StatusCode)
			}
			adv := testids(t, body, "preview-advance")
			var sawWinner, sawLoser bool
			for _, line := range adv {
				switch {
				case strings.Contains(line, names[winner]):
					sawWinner = strings.Contains(line, c.final) && !strings.Contains(line, c.third)
				case strings.Contains(line, names[loser]):
					sawLoser = strings.Contains(line, c.third)
				}
			}
			if !sawWinner || !sawLoser {
				t.Fatalf("%s: preview lines %q: want %s to the %s and %s to the %s", c.lang, adv, names[winner], c.final, names[loser], c.third)
			}
		}
	})
}

// TestNames_DrawMethodAndLogInWords: the stage page says the draw method in
// words (never rejection / shuffle / manual / final), says who picked the
// number — the witnesses when typed, Kisen when the form was empty — and
// names the person by display name, not login.
func TestNames_DrawMethodAndLogInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		if err := a.store.DB(ctx).Model(&store.User{}).Where("id = ?", f.admin.UserID).Update("display_name", "立会 花子").Error; err != nil {
			t.Fatal(err)
		}
		typed := namesStage(t, a, f, url.Values{"name": {"一次予選"}, "kind": {"first_preliminary"}, "qualifiers": {"2"}, "round_dates": {"2026-12-10 2027-01-10"}},
			"5", f.players...)
		picked := namesStage(t, a, f, url.Values{"name": {"本戦"}, "kind": {"main"}, "qualifiers": {"0"}, "round_dates": {"2027-02-10 2027-03-10 2027-03-20"}},
			"", f.players[2:]...)
		for _, c := range []struct {
			lang, path, says, notSays, byKisen string
		}{
			{"ja", typed, "立会人が選んだ数", "Kisen が自動で作った数", ""},
			{"ja", picked, "Kisen が自動で作った数", "立会人が選んだ数", "Kisen が自動で作成"},
			{"en", typed, "the witnesses' number", "generated by Kisen", ""},
			{"en", picked, "generated by Kisen", "the witnesses' number", "generated by Kisen"},
		} {
			a.get("/lang?to=" + c.lang)
			_, body := a.get(c.path)
			method := testid(t, body, "draw-method")
			for _, slug := range []string{"rejection", "shuffle", "chain", "manual", "final"} {
				if method == "" || strings.Contains(method, slug) {
					t.Errorf("%s %s: draw method shown as %q", c.lang, c.path, method)
				}
			}
			log := doc(t, body).Find(`[data-testid="draw-log"]`).Text()
			if !strings.Contains(log, c.says) || strings.Contains(log, c.notSays) {
				t.Errorf("%s %s: the draw log says %q, want %q", c.lang, c.path, log, c.says)
			}
			if !strings.Contains(log, "立会 花子") || strings.Contains(log, "root") {
				t.Errorf("%s %s: the draw log does not name the person: %q", c.lang, c.path, log)
			}
			if c.byKisen != "" && !strings.Contains(doc(t, body).Find(`dl.facts`).Text(), c.byKisen) {
				t.Errorf("%s %s: the number is not said to be Kisen's", c.lang, c.path)
			}
			// The 本戦's places for the 一次予選's two winners name that stage.
			if want := map[string]string{"ja": "一次予選の勝ち抜け 1", "en": "Qualifier 1 from First preliminary"}[c.lang]; c.path == picked && !strings.Contains(body, want) {
				t.Errorf("%s: the qualifier places do not read %q", c.lang, want)
			}
		}
	})
}

// TestNames_Crawl_InfeasibleDrawsSayNoEngineEnglish renders the refused
// draws — a knockout no bracket can satisfy (master and student alone in
// a 一次予選, D-A1 / 001 第8条A1), a knockout with a gap in its seeds, and a
// league class of 8 set to 10 games a player — in Japanese and English,
// and checks each page as the crawl does: no English sentence (the
// engines' "no valid draw …", "invalid league input: games_per_player 10
// exceeds the 7 classmates …") on the Japanese page, no Japanese UI words
// on the English one, no slugs or raw message ids; and the message names
// the players and the class size in words.
func TestNames_Crawl_InfeasibleDrawsSayNoEngineEnglish(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		var data []string
		var ids []int64
		for _, p := range f.players {
			data = append(data, p.Name)
			ids = append(ids, p.ID)
		}
		newStage := func(form url.Values, seeds map[int64]string, players ...store.Player) string {
			resp, body := a.postForm(f.eventPath()+"/stages", form)
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("create stage: %d %s", resp.StatusCode, body)
			}
			path := resp.Header.Get("Location")
			for _, p := range players {
				if resp, _ := a.postForm(path+"/entrants", url.Values{"player_id": {strconv.FormatInt(p.ID, 10)}, "seed": {seeds[p.ID]}}); resp.StatusCode != http.StatusSeeOther {
					t.Fatalf("add entrant: %d", resp.StatusCode)
				}
			}
			return path
		}
		// players[1]'s master is players[0] (the fixture).
		blocked := newStage(url.Values{"name": {"一次予選"}, "kind": {"first_preliminary"}, "qualifiers": {"0"}, "round_dates": {"2026-12-10"}},
			nil, f.players[0], f.players[1])
		gap := newStage(url.Values{"name": {"二次予選"}, "kind": {"second_preliminary"}, "qualifiers": {"0"}, "round_dates": {"2026-12-10 2027-01-10"}},
			map[int64]string{f.players[2].ID: "1", f.players[3].ID: "3"}, f.players[2:6]...)

		lf := newLeagueFixture(t, a, 8)
		for _, p := range lf.players {
			data = append(data, p.Name)
			ids = append(ids, p.ID)
		}
		a.signIn(a.client, lf.sched.ID)
		resp, body := a.postForm(lf.base()+"/classes", url.Values{"class": {"C2"}, "members": {lf.memberLines()}, "games_per_player": {"4"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("add a C2 class of 8: %d %s", resp.StatusCode, body)
		}
		classURL := resp.Header.Get("Location")
		// The class form refuses 10 games for 8 players; a roll-over copies
		// last term's setting as it is (issue 24), as this update does.
		cid, _ := strconv.ParseInt(strings.TrimPrefix(classURL, "/league/"), 10, 64)
		var lc store.LeagueClass
		if err := a.store.DB(context.Background()).Where("id = ?", cid).Take(&lc).Error; err != nil {
			t.Fatal(err)
		}
		var settings map[string]any
		if err := json.Unmarshal([]byte(lc.Settings), &settings); err != nil {
			t.Fatal(err)
		}
		settings["games_per_player"] = 10
		raw, _ := json.Marshal(settings)
		if err := a.store.DB(context.Background()).Model(&store.LeagueClass{}).Where("id = ?", cid).Update("settings", string(raw)).Error; err != nil {
			t.Fatal(err)
		}
		data = append(data, f.event.Name, "第85期順位戦, C2; 予選", lf.sched.DisplayName) // typed by the fixture
		chk := newPageChecker(a.srv.Msgs, data, ids)
		root := f.admin.UserID

		for _, c := range []struct {
			lang                 string
			blocked, gap, league []string // words each refusal must say
			engine               []string // what the engines say in English
		}{
			{"ja", []string{"規定を満たす抽選はありません", f.players[0].Name, f.players[1].Name, "公式棋戦規約 第8条A-1"},
				[]string{f.players[3].Name, "シード", "3", "2"},
				[]string{"10", "8人", "7人"},
				[]string{"no valid draw", "invalid league input", "games_per_player", "classmates", "seeds must be", "too few possible games"}},
			{"en", []string{"No draw satisfies the rules", f.players[0].Name, f.players[1].Name, "art. 8 A-1"},
				[]string{f.players[3].Name, "seed 3", "2 was expected"},
				[]string{"10 games", "class of 8", "7 classmates"}, // the size check before the draw answers first (term.fit)
				[]string{"no valid draw", "invalid league input", "games_per_player", "classmates each", "seeds must be"}},
		} {
			a.signIn(a.client, root)
			a.get("/lang?to=" + c.lang)
			check := func(what, url string, resp *http.Response, body string, want []string) {
				t.Helper()
				if resp.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%s %s: %d, want 422", c.lang, what, resp.StatusCode)
				}
				for _, o := range chk.check(url, c.lang, body) {
					t.Errorf("%s %s: %s", c.lang, what, o)
				}
				text := doc(t, body).Find("main").Text()
				for _, e := range c.engine {
					if strings.Contains(text, e) {
						t.Errorf("%s %s: the engine's words %q reach the page", c.lang, what, e)
					}
				}
				for _, w := range want {
					if !strings.Contains(text, w) {
						t.Errorf("%s %s: the message does not say %q", c.lang, what, w)
					}
				}
			}
			resp, body := a.postForm(blocked+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}})
			check("master and student alone", blocked, resp, body, c.blocked)
			resp, body = a.postForm(gap+"/draw", url.Values{"seed": {"5"}, "draw_date": {"2026-11-21"}})
			check("seeds 1 and 3", gap, resp, body, c.gap)
			a.signIn(a.client, lf.sched.ID)
			a.get("/lang?to=" + c.lang)
			resp, body = a.postForm(classURL+"/generate", url.Values{"seed": {"7"}, "draw_date": {"2026-05-01"}})
			check("league 10 games of 8", classURL, resp, body, c.league)
		}
	})
}

// TestNames_BracketGameLabelOnPreviewAnd409_JaEn: the result preview and
// the 409 page of a stale confirmation name a bracket game by its round as
// the game page does — 「本戦 準決勝 第1局」 / "Main tournament Semi-final,
// game 1", never the stored 「本戦 R1-G1」.
func TestNames_BracketGameLabelOnPreviewAnd409_JaEn(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		path := namesStage(t, a, f, url.Values{"name": {"本戦"}, "kind": {"main"}, "qualifiers": {"0"}, "third_place": {"1"},
			"round_dates": {"2027-02-10 2027-03-10"}}, "3", f.players[2:6]...)
		namesPublish(t, a, path)
		kgs, _ := a.store.KnockoutGamesOfStage(ctx, stageIDOf(t, path))
		semi := kgs[0]
		g, _ := a.store.GameByID(ctx, semi.GameID)
		k := strings.TrimPrefix(semi.BracketGame, "R1-G")
		cases := []struct{ lang, want string }{
			{"ja", "本戦 準決勝 第" + k + "局"},
			{"en", "Main tournament Semi-final, game " + k},
		}
		form := `[data-testid="result-` + semi.BracketGame + `"]`
		var stale, confirm url.Values
		for _, c := range cases {
			a.get("/lang?to=" + c.lang)
			shown := a.shown(path, form, url.Values{"winner": {strconv.FormatInt(*g.SentePlayerID, 10)}, "reason": {"resignation"}})
			resp, body := a.postForm(path+"/result", cloneForm(shown))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s preview: %d", c.lang, resp.StatusCode)
			}
			if res := testid(t, body, "preview-result"); !strings.Contains(res, c.want) || strings.Contains(res, semi.BracketGame) {
				t.Errorf("%s: preview result %q, want %q", c.lang, res, c.want)
			}
			if c.lang == "ja" {
				stale, confirm = shown, confirmOf(t, body)
			}
		}
		if resp, _ := a.postForm(path+"/result", confirm); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm: %d", resp.StatusCode)
		}
		stale.Set("confirm", "1")
		for _, c := range cases {
			a.get("/lang?to=" + c.lang)
			resp, body := a.postForm(path+"/result", cloneForm(stale))
			if resp.StatusCode != http.StatusConflict {
				t.Fatalf("%s stale confirmation: %d", c.lang, resp.StatusCode)
			}
			if got := testid(t, body, "stale-game"); !strings.Contains(got, c.want) || strings.Contains(got, semi.BracketGame) {
				t.Errorf("%s: 409 page names the game %q, want %q", c.lang, got, c.want)
			}
		}
	})
}

// TestNames_EventHandicapRefusalSaysRuleInJapanese_D_H: the event's 手合割
// form refuses each broken rule of the table (D-H) with the rule in
// Japanese next to the field — never pairing's English sentence ("must
// start at gap 0", "does not increase", "unknown handicap" …).
func TestNames_EventHandicapRefusalSaysRuleInJapanese_D_H(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		p := f.eventPath() + "/handicap"
		a.get("/lang?to=ja")
		latin := regexp.MustCompile(`[A-Za-z]`)
		for _, c := range []struct{ table, want string }{
			{"1 平手", "段級差0から"},
			{"0 振り駒\n1 平手\n1 香落ち", "前の行の 1 より大きく"},
			{"0 振り駒\n1 王落ち", "「王落ち」という手合割はありません"},
			{"0 平手\n1 振り駒", "振り駒は段級差0の行だけ"},
			{"0 振り駒\n1 香落ち\n2 平手", "平手は置けません"},
		} {
			resp, body := a.postForm(p, url.Values{"handicap_by_rank": {"1"}, "table": {c.table}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%q: %d", c.table, resp.StatusCode)
			}
			msg := testid(t, body, "error-table")
			if !strings.Contains(msg, c.want) || latin.MatchString(msg) {
				t.Errorf("%q: the Japanese page says %q, want %q and no English", c.table, msg, c.want)
			}
		}
	})
}

// TestNames_EventStatusHistoryNamesThePerson: the event page's history of
// status changes names who changed it by display name, as the draw log
// does — not by login.
func TestNames_EventStatusHistoryNamesThePerson(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		if err := a.store.DB(ctx).Model(&store.User{}).Where("id = ?", f.admin.UserID).Update("display_name", "運営 太郎").Error; err != nil {
			t.Fatal(err)
		}
		if resp, body := a.postForm(f.eventPath()+"/status", url.Values{"to": {"published"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("publish the event: %d %s", resp.StatusCode, body)
		}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			_, body := a.get(f.eventPath())
			hist := testid(t, body, "status-history")
			if !strings.Contains(hist, "(運営 太郎)") || strings.Contains(hist, "("+f.admin.Login+")") {
				t.Errorf("%s: the status history says %q, want the display name 運営 太郎, not the login %s", lang, hist, f.admin.Login)
			}
		}
	})
}

// TestNames_BracketLinksAndCSVSayRoundNames_JaEn (issue 24 item 3): the
// bracket box's link and the stage CSV name a game as staff say it — a 本戦
// of 8 with a third-place game has 「準々決勝 第2局」, 「決勝」 and
// 「三位決定戦」, in English "Quarter-final, game 2", "Final" and
// "Third-place playoff" — never the bracket's R1-G2; the CSV keeps the
// id in its game column for programs and adds the name as game_label.
func TestNames_BracketLinksAndCSVSayRoundNames_JaEn(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		main := namesStage(t, a, f, url.Values{"name": {"本戦"}, "kind": {"main"}, "qualifiers": {"0"}, "third_place": {"1"},
			"round_dates": {"2027-02-10 2027-03-10 2027-03-20"}}, "9", f.players...)
		namesPublish(t, a, main)
		for _, c := range []struct{ lang, qf2, final, third string }{
			{"ja", "準々決勝 第2局", "決勝", "三位決定戦"},
			{"en", "Quarter-final, game 2", "Final", "Third-place playoff"},
		} {
			a.get("/lang?to=" + c.lang)
			_, body := a.get(f.eventPath() + "/brackets")
			box := doc(t, body).Find(`[data-testid="game-R1-G2"] .bracket-meta a`)
			if box.Length() != 1 || strings.TrimSpace(box.Text()) != c.qf2 || !strings.HasPrefix(box.AttrOr("href", ""), "/games/") {
				t.Errorf("%s: the box of R1-G2 links %q (%d links), want %q", c.lang, box.Text(), box.Length(), c.qf2)
			}
			if meta := doc(t, body).Find(`[data-testid="game-R3-G1"] .bracket-meta`).Text(); !strings.Contains(meta, c.final) || strings.Contains(meta, "R3-G1") {
				t.Errorf("%s: the final's box says %q, want %q", c.lang, meta, c.final)
			}
			if strings.Contains(doc(t, body).Find(".bracket-meta").Text(), "R1-G") {
				t.Errorf("%s: a bracket box still says R1-G…", c.lang)
			}
			resp, csvBody := a.get(main + "/csv")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s csv: %d", c.lang, resp.StatusCode)
			}
			rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(csvBody, "\uFEFF"))).ReadAll()
			if err != nil || len(rows) < 2 {
				t.Fatalf("%s csv: %v %d rows", c.lang, err, len(rows))
			}
			col := slices.Index(rows[0], "game_label")
			game := slices.Index(rows[0], "game")
			if col < 0 || game < 0 {
				t.Fatalf("%s csv header %v: no game and game_label columns", c.lang, rows[0])
			}
			labels := map[string]string{}
			for _, r := range rows[1:] {
				labels[r[game]] = r[col]
			}
			for id, want := range map[string]string{"R1-G2": c.qf2, "R3-G1": c.final, "3P": c.third} {
				if labels[id] != want {
					t.Errorf("%s csv: %s is labelled %q, want %q", c.lang, id, labels[id], want)
				}
			}
		}
	})
}
