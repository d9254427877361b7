package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// titleRun is one knockout event of the done-when test of issue 24: a
// 挑戦者決定トーナメント (本戦, one player goes on) followed by a 七番勝負
// where the title holder waits.
type titleRun struct {
	t      *testing.T
	a      *testApp
	act    office.Actor
	event  store.Event
	main   store.KnockoutStage
	holder store.Player
	field  []store.Player
	names  map[int64]string
}

func newTitleRun(t *testing.T, a *testApp, act office.Actor, name string, counted bool, field int) *titleRun {
	t.Helper()
	bg := context.Background()
	o := a.srv.Office
	r := &titleRun{t: t, a: a, act: act, names: map[int64]string{}}
	org := store.Organiser{Name: "日本将棋連盟 " + name, Kind: office.OrganiserFederation, Settings: "{}", CreatedAt: a.now, UpdatedAt: a.now}
	if err := a.store.CreateOrganiser(bg, &org); err != nil {
		t.Fatal(err)
	}
	var err error
	if r.event, err = o.CreateEvent(bg, act, office.EventInput{OrganiserID: org.ID, Name: name, Kind: office.EventKnockout, StartDate: "2026-11-01", EndDate: "2027-06-30"}); err != nil {
		t.Fatal(err)
	}
	form := office.FormOf(office.DefaultEventSettings())
	form.RedoCountsAsGame = counted // 000 第9条第9項: the title's own rule
	if err := o.SetEventSettings(bg, act, r.event.ID, form); err != nil {
		t.Fatal(err)
	}
	// The holder is a 九段, the field 四段: the holder sits at the 上座
	// (D-Z1, 000 第7条第1項) and tosses for game 1.
	holder, others, reading := "大山 康晴", []string{"林 一郎", "森 二郎", "川 三郎", "谷 四郎"}, "き"
	if !counted {
		holder, others, reading = "中原 誠", []string{"石田 五郎", "村上 六郎"}, "し"
	}
	if r.holder, err = o.CreatePlayer(bg, act, office.PlayerInput{Name: holder, Reading: reading + " ほじしゃ", Kind: "professional", Rank: "九段"}); err != nil {
		t.Fatal(err)
	}
	r.names[r.holder.ID] = r.holder.Name
	for i, n := range others[:field] {
		p, err := o.CreatePlayer(bg, act, office.PlayerInput{Name: n, Reading: reading + " " + string(rune('あ'+2*i)), Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		r.field = append(r.field, p)
		r.names[p.ID] = p.Name
	}
	if r.main, err = o.CreateStage(bg, act, office.StageInput{EventID: r.event.ID, Name: "挑戦者決定トーナメント", Kind: string(pairing.MainEvent), Qualifiers: 1,
		RoundDates: "2026-12-01 2026-12-10"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.field {
		if _, err := o.AddEntrant(bg, act, office.EntrantInput{StageID: r.main.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// prepareSeries enters the holder in the series stage, draws and
// publishes both stages (the draw pages are covered by other tests).
func (r *titleRun) prepareSeries(seriesID int64) {
	r.t.Helper()
	bg, o := context.Background(), r.a.srv.Office
	if _, err := o.AddEntrant(bg, r.act, office.EntrantInput{StageID: seriesID, PlayerID: r.holder.ID, Seed: 1}); err != nil {
		r.t.Fatal(err)
	}
	for _, id := range []int64{r.main.ID, seriesID} {
		if _, err := o.DrawStage(bg, r.act, office.DrawInput{StageID: id, Seed: "24", DrawDate: "2026-11-21"}); err != nil {
			r.t.Fatal(err)
		}
		if err := o.PublishStage(bg, r.act, id); err != nil {
			r.t.Fatal(err)
		}
	}
}

// game is the first game of series game n ("S1"…) as stored now.
func (r *titleRun) game(stageID int64, id string) store.Game {
	r.t.Helper()
	kg, err := r.a.store.KnockoutGameOf(context.Background(), stageID, id)
	if err != nil {
		r.t.Fatalf("series game %s: %v", id, err)
	}
	g, err := r.a.store.GameByID(context.Background(), kg.GameID)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

func (r *titleRun) has(stageID int64, id string) bool {
	_, err := r.a.store.KnockoutGameOf(context.Background(), stageID, id)
	return err == nil
}

// win ends g by the resignation of w's opponent (setup for the games the test does not
// drive through the browser; the quick result form is covered elsewhere).
func (r *titleRun) win(g store.Game, w int64) {
	r.t.Helper()
	loser := "gote"
	if *g.GotePlayerID == w {
		loser = "sente"
	}
	if _, err := r.a.srv.Office.EndGame(context.Background(), r.act, g.ID, office.EndInput{Kind: "resign", By: loser}); err != nil {
		r.t.Fatal(err)
	}
}

// seatOf is "sente" or "gote": where p sits in g.
func seatOf(g store.Game, p int64) string {
	if *g.SentePlayerID == p {
		return "sente"
	}
	return "gote"
}

// TestBrowser_TitleFromChallengerTournament_000_9_9 is the done-when test of
// issue 24: one knockout event runs a title from the 挑戦者決定トーナメント
// (4 players) through a 七番勝負, a director driving the pages:
//   - the stage form offers the 番勝負 after a 本戦 sending one player on,
//     and the series names its open side 「挑戦者（挑戦者決定トーナメントの勝者）」
//     until the final is decided (never a placeholder id), in ja and en;
//   - the tournament's results on its stage page make the challenger, and
//     game 1 of the series appears;
//   - the observed 振り駒 of game 1 is entered on the stage page, whose form
//     names the 上座 player (the 九段 holder) as the tosser (D-Z1, 000 第7条
//     第1項), and the public table shows exactly that toss;
//   - game 2 ends in 持将棋 on its game page; the event counts it (000 第9条
//     第9項): game 3 follows at once, the table says 「持将棋 1局、最長 8局」;
//   - a foul claimed on game 3 after game 4 began: the claim form finds
//     game 4 itself and the result stands (000 第10条第5項);
//   - game 4's 反則負け ruling is appealed and upheld: the holder's win is
//     restored (000 第10条第8項);
//   - the holder keeps the title 4–1 with one 持将棋 in six games.
//
// A second event with the setting off: the same 持将棋 is not a game — the
// series waits for its redo game, the score and the needs line stay.
func TestBrowser_TitleFromChallengerTournament_000_9_9(t *testing.T) {
	t.Parallel()
	eachBrowserDB(t, func(t *testing.T, s *store.Store) {
		ctx := newBrowserFor(t, 4*time.Minute)
		a := newTestApp(t, s)
		bg := context.Background()
		const pw = "title director passphrase"
		u := a.addAccount("kantoku", pw, true)
		act := office.Actor{UserID: u.ID, Login: u.Login, Admin: true}
		r := newTitleRun(t, a, act, "第1期名人戦", true, 4)
		eid := strconv.FormatInt(r.event.ID, 10)
		browserLogin(t, ctx, a, "kantoku", pw, "/events/"+eid+"/brackets", `[data-testid="stage-form"]`)

		// The stage form: the 番勝負 after the 本戦 with one qualifier.
		do(t, ctx, steps(
			one(fill("name", "七番勝負"), chromedp.SetValue(chromedp.CSS(`[name="kind"]`), office.StageSeries), fill("best_of", "7"), fill("qualifiers", "0"),
				fill("round_dates", "2027-01-10 2027-01-20 2027-01-30 2027-02-10 2027-02-20 2027-03-01 2027-03-10 2027-03-20")),
			submit("stage-submit"),
		)...)
		if got := textOf(t, ctx, `[data-testid="stage-name"]`); got != "七番勝負" {
			t.Fatalf("the series stage page shows %q", got)
		}
		stages, err := a.store.StagesOfEvent(bg, r.event.ID)
		if err != nil || len(stages) != 2 || stages[1].Kind != office.StageSeries || stages[1].BestOf != 7 {
			t.Fatalf("stages after the form: %+v %v", stages, err)
		}
		series := stages[1]
		sid := strconv.FormatInt(series.ID, 10)
		r.prepareSeries(series.ID)

		// Before the final: the challenger in words, in both languages.
		for lang, want := range map[string]string{"": "大山 康晴 0 – 0 挑戦者（挑戦者決定トーナメントの勝者）", "?lang=en": "大山 康晴 0 – 0 Challenger (winner of the 挑戦者決定トーナメント)"} {
			do(t, ctx, chromedp.Navigate(a.ts.URL+"/events/"+eid+"/brackets"+lang), chromedp.WaitVisible(chromedp.CSS(`[data-testid="series-score-`+sid+`"]`)))
			got := strings.Join(strings.Fields(textOf(t, ctx, `[data-testid="series-score-`+sid+`"]`)), " ")
			if !strings.HasPrefix(got, want) || strings.Contains(got, "#") {
				t.Fatalf("series%s before the final: %q, want %q…", lang, got, want)
			}
		}
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/events/"+eid+"/brackets?lang=ja"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="stage-form"]`)))
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/stages/"+sid), chromedp.WaitVisible(chromedp.CSS(`[data-testid="stage-challenger"]`)))
		if got := textOf(t, ctx, `[data-testid="stage-challenger"]`); got != "保持者の相手: 挑戦者（挑戦者決定トーナメントの勝者）" {
			t.Fatalf("the series stage page names the other side %q", got)
		}

		// The 挑戦者決定トーナメント on its stage page, the upper player
		// winning each game.
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/stages/"+strconv.FormatInt(r.main.ID, 10)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="stage-name"]`)))
		for range 3 {
			nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(`form.quick-result[data-testid^="result-"] button`), chromedp.AtLeast(0)))
			if err != nil {
				t.Fatal(err)
			}
			if len(nodes) == 0 {
				t.Fatal("a tournament game has no result form")
			}
			id := strings.TrimPrefix(nodes[0].AttributeValue("data-testid"), "result-submit-")
			do(t, ctx, chooseFirst(`[data-testid="winner-`+id+`"]`))
			do(t, ctx, submit("result-submit-"+id)...)
			do(t, ctx, submit("preview-confirm")...)
		}
		eb, err := a.srv.Office.EventBrackets(bg, act, r.event.ID)
		if err != nil || eb.Stages[0].Champion == "" {
			t.Fatalf("the tournament has no winner: %v", err)
		}
		challenger, _ := strconv.ParseInt(eb.Stages[0].Champion, 10, 64)
		g1 := r.game(series.ID, "S1")
		if !(seatOf(g1, r.holder.ID) != seatOf(g1, challenger) && (*g1.SentePlayerID == challenger || *g1.GotePlayerID == challenger)) {
			t.Fatalf("game 1 is not the holder against the challenger %d", challenger)
		}

		// The observed toss of game 1: the form names the 上座 player.
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/stages/"+sid), chromedp.WaitVisible(chromedp.CSS(`[data-testid="toss-form-S1"]`)))
		if got := textOf(t, ctx, `[data-testid="stage-challenger"]`); got != "保持者の相手: "+r.names[challenger] {
			t.Fatalf("after the final the series stage page names %q", got)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="toss-tosser-S1"]').selectedOptions[0].textContent`))
		if err != nil || !strings.Contains(got, r.holder.Name) {
			t.Fatalf("the toss form's tosser is %q, want the 上座 holder %s", got, r.holder.Name)
		}
		// Three 歩 and two と: the tosser (the holder) is sente (000 第7条1).
		do(t, ctx, chromedp.SetValue(chromedp.CSS(`[data-testid="piece-S1-4"]`), "to"), chromedp.SetValue(chromedp.CSS(`[data-testid="piece-S1-5"]`), "to"))
		do(t, ctx, submit("toss-submit-S1")...)
		if got := textOf(t, ctx, `[data-testid="observed-tosser-S1"]`); !strings.Contains(got, r.holder.Name) {
			t.Fatalf("observed toss by %q, want %s", got, r.holder.Name)
		}
		g1 = r.game(series.ID, "S1")
		if *g1.SentePlayerID != r.holder.ID {
			t.Fatal("three 歩 make the tosser sente")
		}
		r.win(g1, r.holder.ID)

		// Game 2: 持将棋 by agreement on its game page, counted.
		g2 := r.game(series.ID, "S2")
		endJishogi(t, ctx, a, g2.ID)
		if !r.has(series.ID, "S3") {
			t.Fatal("000 第9条第9項: a counted 持将棋 is followed by game 3 at once")
		}
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/events/"+eid+"/brackets"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="series-rule-`+sid+`"]`)))
		if got := textOf(t, ctx, `[data-testid="series-rule-`+sid+`"]`); !strings.Contains(got, "持将棋 1局、最長 8局") {
			t.Fatalf("counting rule %q", got)
		}

		// Game 3: the challenger wins; game 4 begins; then a foul is
		// claimed on game 3.
		g3 := r.game(series.ID, "S3")
		r.win(g3, challenger)
		g4 := r.game(series.ID, "S4")
		a.now = a.now.Add(time.Hour)
		if _, _, err := a.srv.Office.SaveRecord(bg, act, g4.ID, office.RecordInput{Text: "position startpos moves 7g7f"}); err != nil {
			t.Fatal(err)
		}
		a.now = a.now.Add(10 * time.Minute)
		gp := "/games/" + strconv.FormatInt(g3.ID, 10)
		do(t, ctx, chromedp.Navigate(a.ts.URL+gp), chromedp.WaitVisible(chromedp.CSS(`[data-testid="claim-form"]`)))
		if got := textOf(t, ctx, `[data-testid="claim-next-game-found"]`); !strings.Contains(got, "始まっています") || !strings.Contains(got, "終局時の勝敗のまま") {
			t.Fatalf("the claim form does not find game 4 begun: %q", got)
		}
		review(t, ctx, "#claim-preview", "claim-save",
			chromedp.SetValue(chromedp.CSS(`#c-foul`), "two_moves"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="claim-offender"]`), seatOf(g3, challenger)))
		if got := textOf(t, ctx, `#claim-preview [data-testid="preview-result"]`); !strings.Contains(got, r.names[challenger]+" の勝ち") {
			t.Fatalf("000 第10条第5項: the claim preview %q, want the challenger's win to stand", got)
		}
		do(t, ctx, submitAt(`#claim-preview [data-testid="preview-confirm"]`)...)
		if latest, ok, err := a.store.LatestResult(bg, g3.ID); err != nil || !ok || latest.Result != map[string]string{"sente": office.ResultSenteWin, "gote": office.ResultGoteWin}[seatOf(g3, challenger)] {
			t.Fatalf("after the claim game 3 is %+v (%v), want the challenger's win", latest, err)
		}

		// Game 4: the holder wins; a 反則負け ruling reverses it; the
		// holder's appeal is upheld and restores the win.
		r.win(g4, r.holder.ID)
		gp = "/games/" + strconv.FormatInt(g4.ID, 10)
		do(t, ctx, chromedp.Navigate(a.ts.URL+gp), chromedp.WaitVisible(chromedp.CSS(`[data-testid="ruling-form"]`)))
		review(t, ctx, "#ruling-preview", "ruling-save",
			chromedp.SetValue(chromedp.CSS(`[data-testid="ruling-kind"]`), "foul_loss"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="ruling-player"]`), seatOf(g4, r.holder.ID)),
			chromedp.SetValue(chromedp.CSS(`[data-testid="ruling-reason"]`), "二手指し"))
		do(t, ctx, submitAt(`#ruling-preview [data-testid="preview-confirm"]`)...)
		if latest, _, _ := a.store.LatestResult(bg, g4.ID); latest.Reason == "resignation" {
			t.Fatal("the 反則負け ruling did not change game 4")
		}
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="ruling-file-appeal"]`)))
		do(t, ctx, submit("ruling-file-appeal")...)
		holderSide := seatOf(g4, r.holder.ID)
		do(t, ctx,
			chromedp.SetValue(chromedp.CSS(`[data-testid="appeal-filed-by"]`), holderSide),
			chromedp.SetValue(chromedp.CSS(`[data-testid="appeal-statement-`+holderSide+`"]`), "二手指しはしていない"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="appeal-body"]`), "arbiter"),
		)
		do(t, ctx, submit("appeal-submit")...)
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid="decision-form"]`)),
			chromedp.SetValue(chromedp.CSS(`[data-testid="decision-decision"]`), "upheld"),
			chromedp.SetValue(chromedp.CSS(`[data-testid="decision-reasons"]`), "記録係の証言"))
		do(t, ctx, submit("decision-submit")...)
		if got := textOf(t, ctx, `[data-testid="appeal-resulting"]`); !strings.Contains(got, map[string]string{"sente": "先手勝ち", "gote": "後手勝ち"}[holderSide]) {
			t.Fatalf("the upheld appeal results in %q, want the holder's win", got)
		}
		latest, _, err := a.store.LatestResult(bg, g4.ID)
		if err != nil || latest.Result != map[string]string{"sente": office.ResultSenteWin, "gote": office.ResultGoteWin}[holderSide] || latest.Reason != "resignation" {
			t.Fatalf("000 第10条第8項: after the appeal game 4 is %+v (%v), want the original resignation win", latest, err)
		}

		// Games 5 and 6: the holder keeps the title, 4–1 with one 持将棋.
		r.win(r.game(series.ID, "S5"), r.holder.ID)
		r.win(r.game(series.ID, "S6"), r.holder.ID)
		if r.has(series.ID, "S7") {
			t.Fatal("the series went on after 4 wins")
		}
		pub := newBrowser(t)
		do(t, pub, chromedp.Navigate(a.ts.URL+"/events/"+eid+"/brackets"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="champion-`+sid+`"]`)))
		if got := textOf(t, pub, `[data-testid="champion-`+sid+`"]`); !strings.Contains(got, r.holder.Name) {
			t.Fatalf("public champion %q", got)
		}
		if got := strings.Join(strings.Fields(textOf(t, pub, `[data-testid="series-score-`+sid+`"]`)), " "); !strings.HasPrefix(got, "大山 康晴 4 – 1 "+r.names[challenger]) {
			t.Fatalf("public score %q", got)
		}
		if got := textOf(t, pub, `[data-testid="series-toss-S1"]`); !strings.Contains(got, "先手: "+r.holder.Name) {
			t.Fatalf("public toss of game 1 %q", got)
		}
		screenshot(t, pub, "title-from-challenger-tournament")

		// The same title with the setting off: the 持将棋 is no game.
		off := newTitleRun(t, a, act, "第1期棋聖戦", false, 2)
		st2, err := a.srv.Office.CreateStage(bg, act, office.StageInput{EventID: off.event.ID, Name: "五番勝負", Kind: office.StageSeries, BestOf: 5})
		if err != nil {
			t.Fatal(err)
		}
		off.prepareSeries(st2.ID)
		final := off.game(off.main.ID, "R1-G1")
		off.win(final, *final.SentePlayerID)
		endJishogi(t, ctx, a, off.game(st2.ID, "S1").ID)
		if off.has(st2.ID, "S2") {
			t.Fatal("an uncounted 持将棋 is followed by game 2")
		}
		sid2 := strconv.FormatInt(st2.ID, 10)
		do(t, ctx, chromedp.Navigate(a.ts.URL+"/events/"+strconv.FormatInt(off.event.ID, 10)+"/brackets"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="series-rule-`+sid2+`"]`)))
		if got := textOf(t, ctx, `[data-testid="series-rule-`+sid2+`"]`); !strings.Contains(got, "千日手・持将棋は1局に数えず") {
			t.Fatalf("counting rule with the setting off %q", got)
		}
		if got := textOf(t, ctx, `[data-testid="series-needs-`+sid2+`"]`); strings.Count(got, "あと3勝") != 2 {
			t.Fatalf("needs line after an uncounted 持将棋 %q", got)
		}
	})
}

// endJishogi ends game id as a 持将棋 by agreement on its game page.
func endJishogi(t *testing.T, ctx context.Context, a *testApp, id int64) {
	t.Helper()
	// 28 and 26 points: both sides reach 24, the game is replayed unless
	// the title counts it (D-J2, 000 第9条).
	do(t, ctx, chromedp.Navigate(a.ts.URL+"/games/"+strconv.FormatInt(id, 10)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="end-form"]`)))
	review(t, ctx, "#end-preview", "end-preview",
		chromedp.SetValue(chromedp.CSS(`[data-testid="end-kind"]`), "jishogi_agreement"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="end-by"]`), ""),
		fill("points_sente", "28"), fill("points_gote", "26"), fill("remaining_sente", "30"), fill("remaining_gote", "30"))
	do(t, ctx, submitAt(`#end-preview [data-testid="preview-confirm"]`)...)
}

// review fills a game page form, asks for its preview (htmx, into slot)
// and waits for the preview's confirm button; a refusal fails the test
// with the page's own message.
func review(t *testing.T, ctx context.Context, slot, button string, fields ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	do(t, wctx, append(fields, chromedp.Click(chromedp.CSS(`[data-testid="`+button+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(slot+` [data-testid="preview-confirm"], `+slot+` [data-testid="preview-errors"], `+slot+` .errors`)))...)
	msg, err := chromedp.Run(wctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(slot+` [data-testid="preview-confirm"]`)+`) ? '' : document.querySelector(`+strconv.Quote(slot)+`).textContent)`))
	if err != nil || msg != "" {
		t.Fatalf("%s refused: %q %v", button, strings.Join(strings.Fields(msg), " "), err)
	}
}
