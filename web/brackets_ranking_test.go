package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// rankingLine2Of8 is a lower group's table line for 8 lines (D-G1): 優勝 to
// the 本戦 as 2組1位; 優勝, 準優勝 and the 決定戦 winner promoted; the 2回戦
// losers play the 昇級者決定戦 (D-G2), the 1回戦 losers the 残留決定戦 until
// one is left (D-G3).
const rankingLine2Of8 = `{"group": 2, "places": [{"source": "winner", "slot": "2組1位"}],
 "promoted": [{"source": "winner"}, {"source": "runner_up"}, {"source": "playoff_winner", "index": 1}],
 "playoff": {"from_round": 2, "to_round": 2, "winners": 1}, "survival": {"round": 1, "relegated": 1}}`

// rankingForm2Of8 is rankingLine2Of8 as the stage form's fields.
func rankingForm2Of8() url.Values {
	return url.Values{"name": {"2組"}, "kind": {"first_preliminary"}, "rk_group": {"2"},
		"rk_place_finish": {"winner", ""}, "rk_place_slot": {"2組1位", ""},
		"rk_promoted":     {"winner", "runner_up", "playoff_winner_1"},
		"rk_playoff_from": {"2"}, "rk_playoff_to": {"2"}, "rk_playoff_winners": {"1"},
		"rk_survival_round": {"1"}, "rk_survival_relegated": {"1"}}
}

var reRankingJa = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}]`)

// playRankingUpperLine enters, through the office's quick result, a result
// for every game of the stage that has one to play, the upper line
// winning, until rounds games rounds are done (0: every game).
func playRankingUpperLine(t *testing.T, o *office.Office, actor office.Actor, eventID, stageID int64, passes int) {
	t.Helper()
	ctx := context.Background()
	for pass := 0; passes == 0 || pass < passes; pass++ {
		eb, err := o.EventBrackets(ctx, actor, eventID)
		if err != nil {
			t.Fatal(err)
		}
		var all []office.BracketGame
		for _, sb := range eb.Stages {
			if sb.Stage.ID != stageID {
				continue
			}
			all = slices.Concat(sb.Rounds...)
			if sb.Ranking != nil {
				all = append(all, slices.Concat(sb.Ranking.Playoff...)...)
				all = append(all, slices.Concat(sb.Ranking.Survival...)...)
			}
		}
		played := false
		for _, g := range all {
			if g.GameID == 0 || g.Result != "" {
				continue
			}
			w, _ := strconv.ParseInt(g.Players[0], 10, 64)
			if err := o.QuickResult(ctx, actor, office.QuickResultInput{StageID: stageID, BracketGame: g.ID, WinnerID: w, Reason: "resignation", GameID: g.DecidingGameID, Version: g.Version}); err != nil {
				t.Fatalf("%s: %v", g.ID, err)
			}
			played = true
		}
		if !played {
			return
		}
	}
}

// rankingStage makes a published group stage of players under line.
func rankingStage(t *testing.T, o *office.Office, admin office.Actor, eventID int64, players []store.Player, line string) store.KnockoutStage {
	t.Helper()
	ctx := context.Background()
	st, err := o.CreateStage(ctx, admin, office.StageInput{EventID: eventID, Name: "2組", Kind: "first_preliminary", RankingRule: line})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if _, err := o.AddEntrant(ctx, admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.DrawStage(ctx, admin, office.DrawInput{StageID: st.ID, Seed: "24", DrawDate: "2026-11-01"}); err != nil {
		t.Fatal(err)
	}
	if err := o.PublishStage(ctx, admin, st.ID); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBrackets_RankingGroup_D_G1_G4_PageJaEn: the stage form takes the
// group's table line (a bad one refused next to the field in the reader's
// language); the bracket page shows the group's 昇級者決定戦 and 残留決定戦
// games as staff name them and, for every player, where they go next term
// (昇級/残留/降級) and the 本戦 slot they fill, in Japanese and English.
func TestBrackets_RankingGroup_D_G1_G4_PageJaEn(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		msgs := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			// The 1回戦 losers cannot play both 決定戦 (D-G3).
			bad := rankingForm2Of8()
			bad.Set("rk_survival_round", "2")
			resp, body := a.postForm(f.eventPath()+"/stages", bad)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: an overlapping line answered %d", lang, resp.StatusCode)
			}
			msgs[lang] = testid(t, body, "error-rk_survival")
			if v, _ := doc(t, body).Find(`input[name="rk_survival_round"]`).Attr("value"); v != "2" {
				t.Fatalf("%s: the field was not kept: %q", lang, v)
			}
		}
		if msgs["ja"] == "" || msgs["en"] == "" || msgs["ja"] == msgs["en"] || !reRankingJa.MatchString(msgs["ja"]) || reRankingJa.MatchString(msgs["en"]) {
			t.Fatalf("messages ja %q en %q", msgs["ja"], msgs["en"])
		}
		a.get("/lang?to=ja")
		resp, _ := a.postForm(f.eventPath()+"/stages", rankingForm2Of8())
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create group stage: %d", resp.StatusCode)
		}
		stID := stageIDOf(t, resp.Header.Get("Location"))
		ctx := context.Background()
		for _, p := range f.players {
			if _, err := f.o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: stID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.o.DrawStage(ctx, f.admin, office.DrawInput{StageID: stID, Seed: "24", DrawDate: "2026-11-01"}); err != nil {
			t.Fatal(err)
		}
		if err := f.o.PublishStage(ctx, f.admin, stID); err != nil {
			t.Fatal(err)
		}
		playRankingUpperLine(t, f.o, f.admin, f.event.ID, stID, 0)
		path := f.eventPath() + "/brackets"
		sec := func(body string) *goquery.Selection {
			return doc(t, body).Find(`[data-testid="ranking-` + strconv.FormatInt(stID, 10) + `"]`)
		}
		count := func(s *goquery.Selection, status string) int {
			n := 0
			s.Find(`[data-testid="ranking-status"]`).Each(func(_ int, c *goquery.Selection) {
				if strings.TrimSpace(c.Text()) == status {
					n++
				}
			})
			return n
		}
		words := map[string][4]string{"ja": {"昇級", "残留", "降級", "残留決定戦"}, "en": {"Promoted", "Stays", "Relegated", "Relegation playoff"}}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			_, body := a.get(path)
			s := sec(body)
			if s.Length() != 1 {
				t.Fatalf("%s: no ranking section", lang)
			}
			w := words[lang]
			if rows := s.Find(`[data-testid="ranking-row"]`).Length(); rows != 8 {
				t.Fatalf("%s: %d outcome rows, want 8", lang, rows)
			}
			if count(s, w[0]) != 3 || count(s, w[1]) != 4 || count(s, w[2]) != 1 {
				t.Fatalf("%s: statuses %q", lang, s.Find(`[data-testid="ranking-status"]`).Text())
			}
			var slots []string
			s.Find(`[data-testid="ranking-slot"]`).Each(func(_ int, c *goquery.Selection) {
				if x := strings.TrimSpace(c.Text()); x != "" {
					slots = append(slots, x)
				}
			})
			if !slices.Equal(slots, []string{"2組1位"}) {
				t.Fatalf("%s: 本戦 slots %v", lang, slots)
			}
			if got := strings.TrimSpace(s.Find(`[data-testid="ranking-survival-head"]`).Text()); got != w[3] {
				t.Fatalf("%s: survival head %q", lang, got)
			}
			// The games are named as staff say them, never by their ids.
			text := s.Text()
			for _, id := range []string{"P-R1", "S-R1", "S-R2"} {
				if strings.Contains(text, id) {
					t.Fatalf("%s: the page shows the id %s", lang, id)
				}
			}
			if lang == "en" {
				for _, ja := range []string{"昇級", "残留", "降級", "決定戦"} {
					if strings.Contains(text, ja) {
						t.Fatalf("en: Japanese %q on the English page", ja)
					}
				}
			}
		}
		// The game pages name the 決定戦 and 残留決定戦 games as staff do.
		eb, err := f.o.EventBrackets(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		rv := eb.Stages[0].Ranking
		pg, sg := rv.Playoff[0][0], rv.Survival[1][0]
		for _, c := range []struct {
			lang   string
			gameID int64
			want   string
		}{
			{"ja", pg.GameID, "2組 昇級者決定戦 決勝"}, {"en", pg.GameID, "Promotion playoff Final"},
			{"ja", sg.GameID, "2組 残留決定戦 2回戦"}, {"en", sg.GameID, "Relegation playoff Round 2"},
		} {
			a.get("/lang?to=" + c.lang)
			_, body := a.get("/games/" + strconv.FormatInt(c.gameID, 10))
			if !strings.Contains(body, c.want) || strings.Contains(body, "P-R1") || strings.Contains(body, "S-R2") {
				t.Fatalf("%s: game page of %d does not say %q:\n%s", c.lang, c.gameID, c.want, doc(t, body).Find("h1").Text())
			}
		}
	})
}

// TestQueryCount_RankingGroupPageCostsTheSameAtFourTimesTheSize: the
// bracket page of a group of 8 and of a group of 32, each with its first
// two rounds played (so 決定戦 and 残留決定戦 games exist), costs the same
// number of statements: the groups' brackets are computed from the sets
// the page already reads.
func TestQueryCount_RankingGroupPageCostsTheSameAtFourTimesTheSize(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		a.srv.Pages = nil
		a.srv.Office.KeepNoViews()
		f := newBracketFixture(t, a)
		ctx := context.Background()
		var more []store.Player
		for i := range 32 {
			p, err := f.o.CreatePlayer(ctx, f.admin, office.PlayerInput{Name: fmt.Sprintf("棋士Q%02d", i+1), Reading: "きし く", Kind: "professional", Rank: "四段"})
			if err != nil {
				t.Fatal(err)
			}
			more = append(more, p)
		}
		large := `{"group": 2, "places": [{"source": "winner", "slot": "2組1位"}], "promoted": [{"source": "winner"}],
 "playoff": {"from_round": 2, "to_round": 3, "winners": 2}, "survival": {"round": 1, "relegated": 4}}`
		org := f.event.OrganiserID
		var paths []string
		for _, g := range []struct {
			players []store.Player
			line    string
		}{{f.players, rankingLine2Of8}, {more, large}} {
			ev, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: org, Name: "竜王戦", Kind: office.EventKnockout, StartDate: "2026-12-01", EndDate: "2027-03-31"})
			if err != nil {
				t.Fatal(err)
			}
			st := rankingStage(t, f.o, f.admin, ev.ID, g.players, g.line)
			playRankingUpperLine(t, f.o, f.admin, ev.ID, st.ID, 2)
			paths = append(paths, "/events/"+strconv.FormatInt(ev.ID, 10)+"/brackets")
		}
		_, body := a.get(paths[1])
		if n := doc(t, body).Find(`[data-testid="ranking-status"]`).Length(); n != 32 {
			t.Fatalf("the large group lists %d players", n)
		}
		small, big := statementsOf(t, a, a.store, paths[0]), statementsOf(t, a, a.store, paths[1])
		if small != big {
			t.Fatalf("group of 8: %d statements, of 32: %d", small, big)
		}
	})
}

// TestBrackets_RankingGroupForm_D_G1_PresetFieldsInWords: the stage form
// takes a group's line of the table (D-G1) as words and numbers, never as
// JSON: the 竜王戦 1組 preset fills the fields with the table of
// docs/ranking-groups.md (出場者決定戦 from the 2回戦 and 準決勝 losers to
// one winner with a third-place game, five 本戦 places, four relegated);
// a preset chosen without filling is stored as that line; a top group
// promoting someone and a number in letters are refused next to their
// fields in Japanese and English; empty fields make an ordinary knockout.
func TestBrackets_RankingGroupForm_D_G1_PresetFieldsInWords(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			resp, body := a.postForm(f.eventPath()+"/stages", url.Values{"name": {"1組"}, "kind": {"first_preliminary"}, "rk_preset": {"1"}, "rk_fill": {"1"}})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: fill answered %d", lang, resp.StatusCode)
			}
			d := doc(t, body)
			val := func(name string) string {
				v, _ := d.Find(`input[name="` + name + `"]`).Attr("value")
				return v
			}
			for name, want := range map[string]string{"rk_group": "1", "rk_playoff_from": "2", "rk_playoff_to": "3", "rk_playoff_winners": "1", "rk_survival_round": "1", "rk_survival_relegated": "4"} {
				if got := val(name); got != want {
					t.Fatalf("%s: %s = %q, want %q", lang, name, got, want)
				}
			}
			var slots []string
			d.Find(`input[name="rk_place_slot"]`).Each(func(_ int, s *goquery.Selection) {
				if v, _ := s.Attr("value"); v != "" {
					slots = append(slots, v)
				}
			})
			if !slices.Equal(slots, []string{"1組1位", "1組2位", "1組3位", "1組4位", "1組5位"}) {
				t.Fatalf("%s: slots %v", lang, slots)
			}
			if _, third := d.Find(`input[name="rk_playoff_third"]`).Attr("checked"); !third {
				t.Fatalf("%s: the third-place game is not ticked", lang)
			}
			if n := d.Find(`input[name="rk_promoted"][checked]`).Length(); n != 0 {
				t.Fatalf("%s: the top group promotes %d finishes", lang, n)
			}
			sec := d.Find(`[data-testid="stage-ranking"]`)
			text := sec.Text()
			for _, dev := range []string{"{", "source", "playoff_winner", "runner_up", "ranking_rule"} {
				if strings.Contains(text, dev) {
					t.Fatalf("%s: the form shows %q", lang, dev)
				}
			}
			if d.Find(`textarea[name="ranking_rule"]`).Length() != 0 {
				t.Fatalf("%s: the JSON textarea is still there", lang)
			}
			if lang == "en" && reRankingJa.MatchString(text) {
				t.Fatalf("en: Japanese in the form: %q", text)
			}
			if lang == "ja" && !strings.Contains(text, "決定戦の三位") {
				t.Fatalf("ja: the finishes are not in words: %q", text)
			}

			// A top group promoting its winner, and a number in letters.
			msgs := map[string]string{}
			for field, form := range map[string]url.Values{
				"error-rk_promoted": {"name": {"1組"}, "kind": {"first_preliminary"}, "rk_group": {"1"}, "rk_place_finish": {"winner"}, "rk_place_slot": {"1組1位"}, "rk_promoted": {"winner"}},
				"error-rk_playoff":  {"name": {"1組"}, "kind": {"first_preliminary"}, "rk_group": {"2"}, "rk_playoff_from": {"2"}, "rk_playoff_winners": {"two"}},
			} {
				resp, body := a.postForm(f.eventPath()+"/stages", form)
				if resp.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("%s %s: answered %d", lang, field, resp.StatusCode)
				}
				msgs[field] = testid(t, body, field)
				if msgs[field] == "" || (lang == "ja") != reRankingJa.MatchString(msgs[field]) {
					t.Fatalf("%s %s: %q", lang, field, msgs[field])
				}
			}
		}
		// A preset chosen but not filled in is stored as its line.
		a.get("/lang?to=ja")
		resp, _ := a.postForm(f.eventPath()+"/stages", url.Values{"name": {"1組"}, "kind": {"first_preliminary"}, "rk_preset": {"1"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create with the preset: %d", resp.StatusCode)
		}
		st, err := a.store.StageByID(ctx, stageIDOf(t, resp.Header.Get("Location")))
		if err != nil {
			t.Fatal(err)
		}
		var got pairing.GroupRule
		if err := json.Unmarshal([]byte(st.RankingRule), &got); err != nil {
			t.Fatal(err)
		}
		w, ru := pairing.Finish{Source: pairing.FinishWinner}, pairing.Finish{Source: pairing.FinishRunnerUp}
		want := pairing.GroupRule{Group: 1, Places: []pairing.GroupPlace{{Finish: w, Slot: "1組1位"}, {Finish: ru, Slot: "1組2位"},
			{Finish: pairing.Finish{Source: pairing.FinishPlayoffWinner, Index: 1}, Slot: "1組3位"},
			{Finish: pairing.Finish{Source: pairing.FinishPlayoffRunnerUp}, Slot: "1組4位"},
			{Finish: pairing.Finish{Source: pairing.FinishPlayoffThird}, Slot: "1組5位"}},
			Promoted: []pairing.Finish{},
			Playoff:  &pairing.PlayoffRule{FromRound: 2, ToRound: 3, Winners: 1, ThirdPlace: true},
			Survival: &pairing.SurvivalRule{Round: 1, Relegated: 4}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("stored line %+v, want %+v", got, want)
		}
		// The line fits a bracket of 16: the draw takes it (D-G1).
		if err := pairing.ValidateRankingTable([]pairing.GroupRule{got, {Group: 2}}, []int{16, 2}); err != nil {
			t.Fatal(err)
		}
		// No group fields: an ordinary knockout.
		resp, _ = a.postForm(f.eventPath()+"/stages", url.Values{"name": {"本戦"}, "kind": {"main"}, "rk_place_finish": {""}, "rk_place_slot": {""}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create an ordinary stage: %d", resp.StatusCode)
		}
		if st, err := a.store.StageByID(ctx, stageIDOf(t, resp.Header.Get("Location"))); err != nil || st.RankingRule != "" {
			t.Fatalf("ordinary stage got line %q (%v)", st.RankingRule, err)
		}
	})
}

// TestBrackets_MainSeats_D_G4_PreviewThenSeat: on a 本戦 stage in setup, the
// stage page lists every group's 本戦 slot with who fills it; a seed in
// letters is refused in words (Japanese and English); the posted seeds
// and rounds are previewed in players' names, and the confirmation enters
// the group's 優勝 into the 本戦 (D-G4, office.SeatMainEvent).
func TestBrackets_MainSeats_D_G4_PreviewThenSeat(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		group := rankingStage(t, f.o, f.admin, f.event.ID, f.players, rankingLine2Of8)
		playRankingUpperLine(t, f.o, f.admin, f.event.ID, group.ID, 0)
		main, err := f.o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main"})
		if err != nil {
			t.Fatal(err)
		}
		eb, err := f.o.EventBrackets(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		var winner int64
		for _, sb := range eb.Stages {
			if sb.Ranking != nil {
				for _, pl := range sb.Ranking.Outcome.Places {
					if pl.Slot == "2組1位" {
						winner, _ = strconv.ParseInt(pl.Player, 10, 64)
					}
				}
			}
		}
		var winnerName string
		for _, p := range f.players {
			if p.ID == winner {
				winnerName = p.Name
			}
		}
		if winnerName == "" {
			t.Fatal("the group has no 2組1位")
		}
		path := "/stages/" + strconv.FormatInt(main.ID, 10)
		msgs := map[string]string{}
		for _, lang := range []string{"ja", "en"} {
			a.get("/lang?to=" + lang)
			_, body := a.get(path)
			rows := doc(t, body).Find(`[data-testid="main-seat-row"]`)
			if rows.Length() != 1 || strings.TrimSpace(rows.Find(`[data-testid="main-seat-player"]`).Text()) != winnerName {
				t.Fatalf("%s: rows %q", lang, rows.Text())
			}
			resp, body := a.postForm(path+"/main-seats", url.Values{"seat_slot": {"2組1位"}, "seat_seed": {"one"}, "seat_round": {"1"}})
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%s: a seed in letters answered %d", lang, resp.StatusCode)
			}
			msgs[lang] = testid(t, body, "error-main_seats")
		}
		if msgs["ja"] == "" || msgs["en"] == "" || !reRankingJa.MatchString(msgs["ja"]) || reRankingJa.MatchString(msgs["en"]) {
			t.Fatalf("messages ja %q en %q", msgs["ja"], msgs["en"])
		}
		a.get("/lang?to=ja")
		resp, body := a.postForm(path+"/main-seats", url.Values{"seat_slot": {"2組1位"}, "seat_seed": {"1"}, "seat_round": {"2"}})
		d := doc(t, body)
		if resp.StatusCode != http.StatusOK || d.Find(`[data-testid="main-seats-preview"]`).Length() != 1 || d.Find(`[data-testid="main-seats-confirm"]`).Length() != 1 {
			t.Fatalf("preview answered %d", resp.StatusCode)
		}
		if sec := d.Find(`[data-testid="main-seats"]`).Text(); !strings.Contains(sec, winnerName) || !strings.Contains(sec, "2回戦から") || strings.Contains(sec, "{") {
			t.Fatalf("preview %q", sec)
		}
		if es, _ := f.o.EntrantsOfStage(ctx, main.ID); len(es) != 0 {
			t.Fatalf("the preview entered %d players", len(es))
		}
		resp, _ = a.postForm(path+"/main-seats", url.Values{"seat_slot": {"2組1位"}, "seat_seed": {"1"}, "seat_round": {"2"}, "confirm": {"1"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm answered %d", resp.StatusCode)
		}
		es, err := f.o.EntrantsOfStage(ctx, main.ID)
		if err != nil || len(es) != 1 || es[0].PlayerID != winner || es[0].Seed != 1 || es[0].EnterRound != 2 {
			t.Fatalf("entrants %+v (%v)", es, err)
		}
	})
}
