package web

import (
	"context"
	"encoding/csv"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// TestCorrectionWeb_D_X3_R1G2CorrectedAfterR2Played: R1-G2's result is
// corrected on its game page (ended again: its sente resigned) after R2-G1
// was played and confirmed. The first POST shows the correction page
// listing R2-G1 with its players now and after; saving without a reason,
// then without the void choice, is refused (422) and changes nothing; with
// both, R2-G1's game is void — struck through on its page, the games list
// and the bracket — and a new R2-G1 with R1-G2's gote takes the slot. The
// bracket, the games list, the CSV and the game pages then agree.
// playedToR2 publishes an 8-player stage of f's event and plays R1-G1,
// R1-G2 and R2-G1 (sente wins, confirmed); slot reads a bracket game now.
func playedToR2(t *testing.T, a *testApp) (f *bracketFixture, st store.KnockoutStage, slot func(id string) office.BracketGame) {
	t.Helper()
	f = newBracketFixture(t, a)
	ctx := context.Background()
	o := f.o
	st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-12-10 2027-01-10 2027-02-10", AllowanceMinutes: 180})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.players {
		if _, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "5", DrawDate: "2026-11-20"}); err != nil {
		t.Fatal(err)
	}
	if err := o.PublishStage(ctx, f.admin, st.ID); err != nil {
		t.Fatal(err)
	}
	slot = func(id string) office.BracketGame {
		t.Helper()
		eb, err := o.EventBrackets(ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range eb.Stages[0].Rounds {
			for _, g := range r {
				if g.ID == id {
					return g
				}
			}
		}
		t.Fatalf("no %s", id)
		return office.BracketGame{}
	}
	for _, id := range []string{"R1-G1", "R1-G2", "R2-G1"} {
		if _, err := o.RecordResult(ctx, f.admin, slot(id).DecidingGameID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
			t.Fatal(err)
		}
	}
	return f, st, slot
}

func TestCorrectionWeb_D_X3_R1G2CorrectedAfterR2Played(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f, st, slot := playedToR2(t, a)
		ctx := context.Background()
		r1g2, old := slot("R1-G2"), slot("R2-G1")
		g12, _ := a.store.GameByID(ctx, r1g2.GameID)
		goteName := a.srv.PlayerName(ctx, g12.GotePlayerID)
		path := "/games/" + strconv.FormatInt(r1g2.GameID, 10)
		end := url.Values{"kind": {"resign"}, "by": {"sente"}, "version": {"1"}} // the page showed version 1

		resp, body := a.postForm(path+"/end", end)
		d := doc(t, body)
		rows := d.Find(`[data-testid="correction-game"]`)
		if resp.StatusCode != http.StatusOK || rows.Length() != 1 || rows.AttrOr("data-game-id", "") != strconv.FormatInt(old.GameID, 10) {
			t.Fatalf("preview: %d, %d rows\n%s", resp.StatusCode, rows.Length(), body)
		}
		if txt := rows.Text(); !strings.Contains(txt, goteName) || !strings.Contains(txt, "先手勝ち") || !strings.Contains(txt, "確定済み") {
			t.Fatalf("the affected game should name %s after the correction, its result and that it is confirmed: %q", goteName, txt)
		}
		if d.Find(`[data-testid="correction-void"]`).Length() != 1 {
			t.Fatal("a confirmed later game needs the void choice")
		}
		hist := func() int {
			h, err := a.store.ResultHistory(ctx, r1g2.GameID)
			if err != nil {
				t.Fatal(err)
			}
			return len(h)
		}
		before := hist()
		confirm := cloneForm(end)
		confirm.Set("correction_confirm", "1")
		resp, body = a.postForm(path+"/end", confirm)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="correction-error"]`).Text(), "理由") {
			t.Fatalf("no reason: %d\n%s", resp.StatusCode, body)
		}
		confirm.Set("correction_reason", "記入誤り：R1-G2は先手の投了")
		resp, body = a.postForm(path+"/end", confirm)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="correction-error"]`).Text(), "無効") {
			t.Fatalf("no void choice: %d\n%s", resp.StatusCode, body)
		}
		if hist() != before {
			t.Fatal("a refused correction saved a version")
		}
		// English page.
		resp, body = a.postForm(path+"/end?lang=en", confirm)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Games changed by this correction") || strings.Contains(doc(t, body).Find(`[data-testid="correction-error"]`).Text(), "無効") {
			t.Fatalf("English page: %d", resp.StatusCode)
		}
		confirm.Set("correction_void", "1")
		resp, body = a.postForm(path+"/end", confirm)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d\n%s", resp.StatusCode, body)
		}
		if hist() != before+1 {
			t.Fatal("the correction appends one version")
		}
		h, _ := a.store.ResultHistory(ctx, r1g2.GameID)
		if last := h[len(h)-1]; last.Result != office.ResultGoteWin || last.Note != "記入誤り：R1-G2は先手の投了" {
			t.Fatalf("new version: %+v", last.GameResult)
		}
		now := slot("R2-G1")
		if now.GameID == old.GameID || now.GameID == 0 || now.Status != pairing.StatusReady {
			t.Fatalf("R2-G1 after: %+v", now)
		}
		// The void game's page, the games list, the bracket.
		_, body = a.get("/games/" + strconv.FormatInt(old.GameID, 10))
		if v := doc(t, body).Find(`[data-testid="game-void"]`).Text(); !strings.Contains(v, "記入誤り") {
			t.Fatalf("void game page: %q", v)
		}
		_, body = a.get(f.eventPath() + "/games")
		gl := doc(t, body)
		if gl.Find(`[data-testid="game-row-`+strconv.FormatInt(old.GameID, 10)+`"] [data-testid="game-row-void"]`).Length() != 1 {
			t.Fatal("games list: the old R2-G1 is struck through")
		}
		newRow := gl.Find(`[data-testid="game-row-` + strconv.FormatInt(now.GameID, 10) + `"]`)
		if newRow.Length() != 1 || newRow.Find(`[data-testid="game-row-void"]`).Length() != 0 || !strings.Contains(newRow.Text(), goteName) {
			t.Fatalf("games list: the new R2-G1 stands with %s: %q", goteName, newRow.Text())
		}
		_, body = a.get(f.eventPath() + "/brackets")
		bd := doc(t, body)
		if v := bd.Find(`[data-testid="bracket-void-game"]`); v.Length() != 1 || !strings.Contains(v.Find("a").AttrOr("href", ""), strconv.FormatInt(old.GameID, 10)) {
			t.Fatalf("bracket: the void game is listed struck through: %d", v.Length())
		}
		// The CSV and the new game's page agree with the bracket.
		_, body = a.get("/stages/" + strconv.FormatInt(st.ID, 10) + "/csv")
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var row []string
		for _, r := range recs {
			if r[2] == "R2-G1" {
				row = r
			}
		}
		if row == nil || row[12] != strconv.FormatInt(now.GameID, 10) || (row[3] != goteName && row[4] != goteName) || row[5] != "ready" {
			t.Fatalf("CSV R2-G1: %v", row)
		}
		_, body = a.get("/games/" + strconv.FormatInt(now.GameID, 10))
		gp := doc(t, body)
		players := gp.Find(`[data-testid="game-sente"]`).Text() + " " + gp.Find(`[data-testid="game-gote"]`).Text()
		if !strings.Contains(players, row[3]) || !strings.Contains(players, row[4]) || gp.Find(`[data-testid="game-void"]`).Length() != 0 {
			t.Fatalf("new game page %q, CSV %v", players, row)
		}
	})
}

// TestCorrectionWeb_WithdrawalShowsLaterGames: withdrawing a player whose
// next game was already created shows the correction page first; saving
// voids the unplayed game and the opponent gets a walkover.
func TestCorrectionWeb_WithdrawalShowsLaterGames(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		o := f.o
		st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-12-10 2027-01-10 2027-02-10", AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.players {
			if _, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "5", DrawDate: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
		if err := o.PublishStage(ctx, f.admin, st.ID); err != nil {
			t.Fatal(err)
		}
		eb, _ := o.EventBrackets(ctx, f.admin, f.event.ID)
		for _, g := range eb.Stages[0].Rounds[0][:2] {
			if _, err := o.RecordResult(ctx, f.admin, g.DecidingGameID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
				t.Fatal(err)
			}
		}
		eb, _ = o.EventBrackets(ctx, f.admin, f.event.ID)
		r2 := eb.Stages[0].Rounds[1][0]
		if r2.GameID == 0 {
			t.Fatal("R2-G1 should exist")
		}
		leaver := r2.Players[0]
		path := "/stages/" + strconv.FormatInt(st.ID, 10) + "/withdraw"
		form := url.Values{"player_id": {leaver}, "reason": {"体調不良"}}
		resp, body := a.postForm(path, form)
		if resp.StatusCode != http.StatusOK || doc(t, body).Find(`[data-testid="correction-game"]`).Length() != 1 {
			t.Fatalf("withdrawal preview: %d\n%s", resp.StatusCode, body)
		}
		if es, _ := a.store.EntrantsOfStage(ctx, st.ID); func() bool {
			for _, e := range es {
				if e.Withdrawn {
					return true
				}
			}
			return false
		}() {
			t.Fatal("the preview withdrew the player")
		}
		form.Set("correction_confirm", "1")
		form.Set("correction_reason", "体調不良")
		if resp, body = a.postForm(path, form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("withdraw: %d\n%s", resp.StatusCode, body)
		}
		if _, v, _ := a.store.GameVoidOf(ctx, r2.GameID); !v {
			t.Fatal("the unplayed R2-G1 is void")
		}
		eb, _ = o.EventBrackets(ctx, f.admin, f.event.ID)
		if g := eb.Stages[0].Rounds[1][0]; g.Status != pairing.StatusWalkover || g.GameID != 0 {
			t.Fatalf("R2-G1 is a walkover now: %+v", g)
		}
	})
}

// TestCorrectionWebProperty_D_R3_CSVGamesListAndPagesAgree drives seeded
// random results, corrections (void chosen) and withdrawals through the
// office on an 8-player knockout, and after every step reads what the
// public reads: the stage CSV, the games list and each game page. Every
// CSV row with a game names that game's two players (its page shows them,
// not void), the winner is the player its page's result gives, and every
// game the games list shows as standing is in the CSV.
func TestCorrectionWebProperty_D_R3_CSVGamesListAndPagesAgree(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{3, 8} {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			eachApp(t, func(t *testing.T, a *testApp) {
				f := newBracketFixture(t, a)
				ctx := context.Background()
				o := f.o
				st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-12-10 2027-01-10 2027-02-10", AllowanceMinutes: 180})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range f.players {
					if _, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: strconv.FormatUint(seed, 10), DrawDate: "2026-11-20"}); err != nil {
					t.Fatal(err)
				}
				if err := o.PublishStage(ctx, f.admin, st.ID); err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(seed, 5))
				consent := office.WithCorrection(ctx, f.admin, office.CorrectionConsent{Reason: "訂正", Void: true})
				for step := range 18 {
					eb, err := o.EventBrackets(ctx, f.admin, f.event.ID)
					if err != nil {
						t.Fatal(err)
					}
					var ready, done []office.BracketGame
					for _, r := range eb.Stages[0].Rounds {
						for _, g := range r {
							if g.GameID != 0 && g.Status == pairing.StatusReady {
								ready = append(ready, g)
							} else if g.GameID != 0 && g.Status == pairing.StatusDone {
								done = append(done, g)
							}
						}
					}
					res := []string{office.ResultSenteWin, office.ResultGoteWin}[rng.IntN(2)]
					switch op := rng.IntN(10); {
					case op < 6 && len(ready) > 0:
						g := ready[rng.IntN(len(ready))]
						if _, err := o.RecordResult(ctx, f.admin, g.DecidingGameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
					case op < 9 && len(done) > 0:
						g := done[rng.IntN(len(done))]
						_, eff, _, _ := o.DecidingGame(ctx, g.GameID)
						res = office.ResultSenteWin
						if eff.Result == office.ResultSenteWin {
							res = office.ResultGoteWin
						}
						if _, err := o.RecordResult(consent, f.admin, g.DecidingGameID, office.ResultInput{Result: res, Reason: office.ReasonResignation, Note: "訂正", Version: eff.Version}); err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
					case len(ready) > 0:
						g := ready[rng.IntN(len(ready))]
						pid, _ := strconv.ParseInt(g.Players[rng.IntN(2)], 10, 64)
						if err := o.WithdrawEntrant(consent, f.admin, st.ID, pid, "棄権"); err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
					default:
						continue
					}
					webAgree(t, a, f, st.ID, step)
				}
			})
		})
	}
}

// webAgree compares the stage CSV, the bracket view, the games list and
// the game pages.
func webAgree(t *testing.T, a *testApp, f *bracketFixture, stageID int64, step int) {
	t.Helper()
	_, body := a.get("/stages/" + strconv.FormatInt(stageID, 10) + "/csv")
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	_, brackets := a.get(f.eventPath() + "/brackets")
	bd := doc(t, brackets)
	inCSV := map[string]bool{}
	for _, r := range recs[1:] {
		if r[12] == "" {
			continue
		}
		inCSV[r[12]] = true
		// The bracket view: the slot's box names the row's players, links
		// the row's game (no redo games in these steps) and marks its winner.
		box := bd.Find(`[data-testid="game-` + r[2] + `"]`)
		if box.Length() != 1 {
			t.Fatalf("step %d: CSV %s (game %s): %d boxes on the bracket", step, r[2], r[12], box.Length())
		}
		if txt := box.Text(); !strings.Contains(txt, r[3]) || !strings.Contains(txt, r[4]) {
			t.Fatalf("step %d: CSV %s: %s v %s, bracket box %q", step, r[2], r[3], r[4], strings.Join(strings.Fields(txt), " "))
		}
		if r[10] == "0" && box.Find(`a[href="/games/`+r[12]+`"]`).Length() != 1 {
			t.Fatalf("step %d: CSV %s names game %s, the bracket box links elsewhere", step, r[2], r[12])
		}
		if r[6] != "" && !strings.Contains(box.Find(".bracket-side.winner").Text(), r[6]) {
			t.Fatalf("step %d: CSV %s winner %s, bracket winner %q", step, r[2], r[6], box.Find(".bracket-side.winner").Text())
		}
		_, page := a.get("/games/" + r[12])
		d := doc(t, page)
		sente, gote := strings.TrimSpace(d.Find(`[data-testid="game-sente"]`).Text()), strings.TrimSpace(d.Find(`[data-testid="game-gote"]`).Text())
		if d.Find(`[data-testid="game-void"]`).Length() != 0 {
			t.Fatalf("step %d: CSV %s names void game %s", step, r[2], r[12])
		}
		if !(strings.Contains(sente, r[3]) && strings.Contains(gote, r[4]) || strings.Contains(sente, r[4]) && strings.Contains(gote, r[3])) {
			t.Fatalf("step %d: CSV %s: %s v %s, game %s page: %q v %q", step, r[2], r[3], r[4], r[12], sente, gote)
		}
		if r[5] == "done" && r[2] != "" && r[8] != "" {
			want := sente
			if r[8] == office.ResultGoteWin {
				want = gote
			}
			if r[12] != "" && r[10] == "0" && !strings.Contains(want, r[6]) {
				t.Fatalf("step %d: CSV %s winner %s, game page result %s (%q v %q)", step, r[2], r[6], r[8], sente, gote)
			}
		}
	}
	_, list := a.get(f.eventPath() + "/games")
	d := doc(t, list)
	d.Find(`[data-testid="games-table"] tbody tr`).Each(func(_ int, s *goquery.Selection) {
		id := strings.TrimPrefix(s.AttrOr("data-testid", ""), "game-row-")
		if s.Find(`[data-testid="game-row-void"]`).Length() == 0 && !inCSV[id] {
			t.Fatalf("step %d: the games list shows game %s standing, the CSV has it nowhere", step, id)
		}
		if s.Find(`[data-testid="game-row-void"]`).Length() != 0 && inCSV[id] {
			t.Fatalf("step %d: the games list strikes game %s, the CSV still has it", step, id)
		}
	})
}

// TestCorrectionWeb_D_X3_FoulClaimReversesR1G2: the case tried in issue 11.
// R1-G2 ended by resignation (gote resigned) and R2-G1 was played; a foul
// by R1-G2's sente is pointed out after the game (D-X3: the offender
// loses). The claim shows the correction page with R2-G1; saved with a
// reason and the void choice, R2-G1 is void and the claimant's side —
// R1-G2's gote — plays the new R2-G1, on the bracket and on its own page.
func TestCorrectionWeb_D_X3_FoulClaimReversesR1G2(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f := newBracketFixture(t, a)
		ctx := context.Background()
		o := f.o
		st, err := o.CreateStage(ctx, f.admin, office.StageInput{EventID: f.event.ID, Name: "本戦", Kind: "main", RoundDates: "2026-12-10 2027-01-10 2027-02-10", AllowanceMinutes: 180})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.players {
			if _, err := o.AddEntrant(ctx, f.admin, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := o.DrawStage(ctx, f.admin, office.DrawInput{StageID: st.ID, Seed: "5", DrawDate: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
		if err := o.PublishStage(ctx, f.admin, st.ID); err != nil {
			t.Fatal(err)
		}
		bracket := func() [][]office.BracketGame {
			eb, err := o.EventBrackets(ctx, f.admin, f.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			return eb.Stages[0].Rounds
		}
		r1 := bracket()[0]
		for _, g := range r1[:2] {
			if _, err := o.EndGame(ctx, f.admin, g.DecidingGameID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
				t.Fatal(err)
			}
		}
		old := bracket()[1][0]
		if _, err := o.RecordResult(ctx, f.admin, old.DecidingGameID, office.ResultInput{Result: office.ResultSenteWin, Reason: office.ReasonResignation}); err != nil {
			t.Fatal(err)
		}
		g12, _ := a.store.GameByID(ctx, r1[1].GameID)
		path := "/games/" + strconv.FormatInt(g12.ID, 10) + "/claims"
		// R2-G1 has been played, which would keep R1-G2's result (000
		// 第10条第5項); the arbiter overrides that with a reason, so the
		// claim reverses R1-G2 and corrects the bracket.
		claim := url.Values{"foul": {"two_moves"}, "offender": {"sente"}, "found": {"after"}, "claimed_by": {"opponent"}, "version": {"1"},
			"next_game": {"not_started"}, "next_game_reason": {"2回戦の開始前に申し出があった"}}
		resp, body := a.postForm(path, claim)
		if rows := doc(t, body).Find(`[data-testid="correction-game"]`); resp.StatusCode != http.StatusOK || rows.Length() != 1 || rows.AttrOr("data-game-id", "") != strconv.FormatInt(old.GameID, 10) {
			t.Fatalf("claim preview: %d\n%s", resp.StatusCode, body)
		}
		if h, _ := a.store.ResultHistory(ctx, g12.ID); len(h) != 1 {
			t.Fatal("the preview saved the claim")
		}
		claim.Set("correction_confirm", "1")
		claim.Set("correction_reason", "二手指しの指摘")
		claim.Set("correction_void", "1")
		if resp, body = a.postForm(path, claim); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("claim save: %d\n%s", resp.StatusCode, body)
		}
		if _, v, _ := a.store.GameVoidOf(ctx, old.GameID); !v {
			t.Fatal("old R2-G1 void")
		}
		now := bracket()[1][0]
		if now.GameID == 0 || now.GameID == old.GameID || !strings.Contains(now.Players[0]+" "+now.Players[1], strconv.FormatInt(*g12.GotePlayerID, 10)) {
			t.Fatalf("new R2-G1 %+v, want R1-G2's gote %d", now, *g12.GotePlayerID)
		}
		_, body = a.get("/games/" + strconv.FormatInt(now.GameID, 10))
		d := doc(t, body)
		gote := a.srv.PlayerName(ctx, g12.GotePlayerID)
		if !strings.Contains(d.Find(`[data-testid="game-sente"]`).Text()+d.Find(`[data-testid="game-gote"]`).Text(), gote) {
			t.Fatalf("new R2-G1 page should name %s", gote)
		}
	})
}

// Issue 11: where results need a second person, a correction changes who
// advanced only when it is confirmed — so the confirm button goes through
// the same correction page: it lists R2-G1, needs a reason and the void
// choice, then voids R2-G1 and creates the right one.
func TestCorrectionWeb_D_X3_ConfirmingACorrectionShowsLaterGames(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		f, _, slot := playedToR2(t, a)
		ctx := context.Background()
		r1g2, old := slot("R1-G2"), slot("R2-G1")
		if err := a.store.DB(ctx).Model(&store.Event{}).Where("id = ?", f.event.ID).Update("settings", `{"require_confirmation": true}`).Error; err != nil {
			t.Fatal(err)
		}
		director := office.Actor{UserID: f.director.ID, Login: f.director.Login}
		rv, err := f.o.RecordResult(ctx, director, r1g2.DecidingGameID, office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation, Version: 1})
		if err != nil || rv.Confirmed() {
			t.Fatalf("the correction waits for confirmation: %v %v", rv.Confirmed(), err)
		}
		if now := slot("R2-G1"); now.GameID != old.GameID {
			t.Fatal("an unconfirmed correction already moved the bracket")
		}
		path := "/games/" + strconv.FormatInt(r1g2.DecidingGameID, 10) + "/confirm"
		form := url.Values{"result": {strconv.FormatInt(rv.ID, 10)}}
		resp, body := a.postForm(path, form)
		rows := doc(t, body).Find(`[data-testid="correction-game"]`)
		if resp.StatusCode != http.StatusOK || rows.Length() != 1 || rows.AttrOr("data-game-id", "") != strconv.FormatInt(old.GameID, 10) {
			t.Fatalf("confirm preview: %d, %d rows\n%s", resp.StatusCode, rows.Length(), body)
		}
		if got, _ := a.store.GameResultByID(ctx, rv.ID); got.Confirmed() {
			t.Fatal("the preview confirmed the correction")
		}
		form.Set("correction_confirm", "1")
		form.Set("correction_reason", "記入誤り")
		if resp, _ = a.postForm(path, form); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("without the void choice: %d", resp.StatusCode)
		}
		form.Set("correction_void", "1")
		if resp, body = a.postForm(path, form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("confirm with consent: %d\n%s", resp.StatusCode, body)
		}
		if got, _ := a.store.GameResultByID(ctx, rv.ID); !got.Confirmed() {
			t.Fatal("the correction is not confirmed")
		}
		if _, void, _ := a.store.GameVoidOf(ctx, old.GameID); !void {
			t.Fatal("R2-G1's old game is not void")
		}
		g12, _ := a.store.GameByID(ctx, r1g2.DecidingGameID)
		now := slot("R2-G1")
		if now.GameID == old.GameID || now.GameID == 0 || now.SenteID != *g12.GotePlayerID && now.GoteID != *g12.GotePlayerID {
			t.Fatalf("R2-G1 after should be a new game with R1-G2's gote %d: %+v", *g12.GotePlayerID, now)
		}
	})
}
