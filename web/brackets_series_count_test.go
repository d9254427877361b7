package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"kisen/office"
	"kisen/pairing"
)

// TestBracketsSeries_000_9_9_CountedJishogiAndRecordedToss reads the
// public 番勝負 table of a 七番勝負, in Japanese and English:
//   - 000 第7条 (D-F1): before a physical toss is recorded, game 1's cell
//     names sente as decided with no pieces (the simulated toss is never
//     shown as one that happened); after the observed toss, exactly its
//     pieces and the sente it gave;
//   - the "needs N wins" line after game 1;
//   - 000 第9条第9項 / 001 第6条4: a 持将棋 in game 2 counted by the
//     event's setting is a game with no winner (game 3 follows, the series
//     can last 8 games); not counted, game 2 waits for its redo and the
//     series stays at 7.
func TestBracketsSeries_000_9_9_CountedJishogiAndRecordedToss(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		ctx := context.Background()
		f := newBracketFixture(t, a)
		for i, counted := range []bool{true, false} {
			ev, err := f.o.CreateEvent(ctx, f.admin, office.EventInput{OrganiserID: f.event.OrganiserID, Name: "王位戦七番勝負" + strconv.Itoa(i),
				Kind: office.EventTitleMatch, StartDate: "2027-09-01", EndDate: "2027-10-31"})
			if err != nil {
				t.Fatal(err)
			}
			form := office.FormOf(office.DefaultEventSettings())
			form.RedoCountsAsGame = counted
			if err := f.o.SetEventSettings(ctx, f.admin, ev.ID, form); err != nil {
				t.Fatal(err)
			}
			st, err := f.o.CreateStage(ctx, f.admin, office.StageInput{EventID: ev.ID, Name: "七番勝負", Kind: office.StageSeries, BestOf: 7})
			if err != nil {
				t.Fatal(err)
			}
			for j, p := range []int64{f.players[2*i].ID, f.players[2*i+1].ID} {
				if _, err := f.o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p, Seed: j + 1}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := f.o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "11", DrawDate: "2027-08-20"}); err != nil {
				t.Fatal(err)
			}
			if err := f.o.PublishStage(ctx, f.admin, st.ID); err != nil {
				t.Fatal(err)
			}
			name := map[int64]string{f.players[2*i].ID: f.players[2*i].Name, f.players[2*i+1].ID: f.players[2*i+1].Name}
			sid := strconv.FormatInt(st.ID, 10)
			public := a.newClient()
			page := func(lang string) string {
				t.Helper()
				resp, body := a.do(public, http.MethodGet, "/events/"+strconv.FormatInt(ev.ID, 10)+"/brackets"+lang, nil, "")
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("public brackets page%s: %d", lang, resp.StatusCode)
				}
				return body
			}
			text := func(body, id string) string { return strings.Join(strings.Fields(testid(t, body, id)), " ") }
			kgs, err := a.store.KnockoutGamesOfStage(ctx, st.ID)
			if err != nil || len(kgs) != 1 || kgs[0].SenteBy != pairing.SenteByFurigoma {
				t.Fatalf("game 1: %+v %v", kgs, err)
			}
			g1, _ := a.store.GameByID(ctx, kgs[0].GameID)

			// Before any physical toss: sente as decided, no pieces.
			for lang, want := range map[string]string{"": "先手: " + name[*g1.SentePlayerID] + "（振り駒の記録なし）",
				"?lang=en": "Sente: " + name[*g1.SentePlayerID] + " (no toss recorded)"} {
				cell := text(page(lang), "series-toss-S1")
				if cell != want {
					t.Fatalf("toss cell%s before a recorded toss: %q, want %q", lang, cell, want)
				}
			}
			// The observed toss: と×3, 歩, one standing (D-F1, D-F2).
			if _, err := f.o.EnterToss(ctx, f.admin, office.TossInput{StageID: st.ID, BracketGame: "S1",
				Pieces: [pairing.PiecesPerToss]string{"to", "to", "to", "fu", "standing"}}); err != nil {
				t.Fatal(err)
			}
			g1, _ = a.store.GameByID(ctx, kgs[0].GameID)
			body := page("")
			if cell, want := text(body, "series-toss-S1"), "と と と 歩 立 先手: "+name[*g1.SentePlayerID]; cell != want {
				t.Fatalf("toss cell after the observed toss: %q, want %q", cell, want)
			}
			if cell, want := text(page("?lang=en"), "series-toss-S1"), "tokin tokin tokin pawn edge Sente: "+name[*g1.SentePlayerID]; cell != want {
				t.Fatalf("toss cell (en) after the observed toss: %q, want %q", cell, want)
			}

			// Game 1 to sente; the needs line follows.
			if _, err := f.o.RecordResult(ctx, f.admin, g1.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
				t.Fatal(err)
			}
			w, l := name[*g1.SentePlayerID], name[*g1.GotePlayerID]
			body = page("")
			needs := text(body, "series-needs-"+sid)
			if !strings.Contains(needs, w+" あと3勝") || !strings.Contains(needs, l+" あと4勝") || !strings.HasPrefix(needs, "勝ち抜けまで") {
				t.Fatalf("needs line %q, want %s 3 and %s 4", needs, w, l)
			}
			enBody := page("?lang=en")
			enNeeds := text(enBody, "series-needs-"+sid)
			if !strings.Contains(enNeeds, w+" needs 3 more") || !strings.Contains(enNeeds, l+" needs 4 more") {
				t.Fatalf("needs line (en) %q", enNeeds)
			}

			// Game 2: 持将棋.
			kgs, _ = a.store.KnockoutGamesOfStage(ctx, st.ID)
			if len(kgs) != 2 {
				t.Fatalf("%d games after game 1", len(kgs))
			}
			g2, _ := a.store.GameByID(ctx, kgs[1].GameID)
			if _, err := f.o.RecordResult(ctx, f.admin, g2.ID, office.ResultInput{Result: office.ResultRedo, Reason: "jishogi_redo"}); err != nil {
				t.Fatal(err)
			}
			kgs, _ = a.store.KnockoutGamesOfStage(ctx, st.ID)
			body, enBody = page(""), page("?lang=en")
			rule, enRule := text(body, "series-rule-"+sid), text(enBody, "series-rule-"+sid)
			row := func(body string) string {
				return strings.Join(strings.Fields(doc(t, body).Find(`[data-testid="series-toss-S2"]`).Parent().Text()), " ")
			}
			if counted {
				if len(kgs) != 3 {
					t.Fatalf("counted 持将棋: %d series games, want game 3 created", len(kgs))
				}
				if !strings.Contains(rule, "持将棋を1局に数えます") || !strings.Contains(rule, "持将棋 1局、最長 8局") {
					t.Fatalf("rule line %q", rule)
				}
				if !strings.Contains(enRule, "a jishogi counts as a game") || !strings.Contains(enRule, "at most 8 games") {
					t.Fatalf("rule line (en) %q", enRule)
				}
				if r := row(body); !strings.Contains(r, "持将棋（1局）") || strings.Contains(r, "指し直し") {
					t.Fatalf("game 2 row %q", r)
				}
				if r := row(enBody); !strings.Contains(r, "Jishogi (counted as a game)") {
					t.Fatalf("game 2 row (en) %q", r)
				}
			} else {
				if len(kgs) != 2 {
					t.Fatalf("uncounted 持将棋: %d series games, want game 2 to wait for its redo", len(kgs))
				}
				if rule != "千日手・持将棋は1局に数えず、指し直し局で決着します。" || strings.Contains(rule, "最長") {
					t.Fatalf("rule line %q", rule)
				}
				if !strings.Contains(enRule, "do not count as games") {
					t.Fatalf("rule line (en) %q", enRule)
				}
				if r := row(body); !strings.Contains(r, "指し直し") || strings.Contains(r, "持将棋（1局）") {
					t.Fatalf("game 2 row %q", r)
				}
			}
			// The needs line is unchanged by a 持将棋 either way.
			if got := text(body, "series-needs-"+sid); got != needs {
				t.Fatalf("needs line after the 持将棋 %q, was %q", got, needs)
			}
			if strings.Contains(body, "模擬") {
				t.Fatal("the public page mentions the simulated toss")
			}
		}
	})
}
