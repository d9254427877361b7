package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"kisen/office"
)

// 000 第10条第8項 on the web: a foul loss ends a game sente had won; the
// arbiter enters sente's appeal from the ruling log, the case reads as one
// page in Japanese and English with the players' names, a stale decision
// is 409, the upheld decision restores sente's win (not "pending"), and
// the case downloads as one Markdown document. Both databases.
func TestAppealsWeb_000_10_8_UpheldRestoresResultPageAndDocument(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"confirm": {"1"}, "kind": {"foul_loss"},
			"player": {"sente"}, "reason": {"二手指し"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("foul loss: %d", resp.StatusCode)
		}
		_, body := a.get(path)
		link, ok := doc(t, body).Find(`[data-testid="ruling-file-appeal"]`).Attr("href")
		if !ok {
			t.Fatal("the ruling log offers an appeal to the arbiter")
		}
		resp, body := a.get(link)
		if resp.StatusCode != http.StatusOK || doc(t, body).Find(`[data-testid="appeal-deadline"]`).Text() != "2026-11-28 12:00" {
			t.Fatalf("filing form %d, deadline %q (the ruling + 7 days, JST)", resp.StatusCode, doc(t, body).Find(`[data-testid="appeal-deadline"]`).Text())
		}
		// Without the appellant's statement: 422 next to the field.
		form := a.shown(link, `[data-testid="appeal-form"]`, url.Values{"filed_by": {"sente"}, "body": {"arbiter"}, "statement_gote": {"見ました"}})
		resp, body = a.postForm(path+"/appeals", form)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="error-statement_sente"]`).Text(), "陳述") {
			t.Fatalf("missing statement: %d", resp.StatusCode)
		}
		if doc(t, body).Find(`[data-testid="appeal-statement-gote"]`).Text() != "見ました" {
			t.Fatal("the input is kept")
		}
		form.Set("statement_sente", "二手指しはしていない")
		resp, _ = a.postForm(path+"/appeals", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("appeal: %d", resp.StatusCode)
		}
		casePath := resp.Header.Get("Location")
		resp, body = a.get(casePath)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("case page: %d", resp.StatusCode)
		}
		d := doc(t, body)
		if d.Find(`[data-testid="appeal-sente"]`).Text() != "羽生 善治" || d.Find(`[data-testid="appeal-filed-by"]`).Text() != "先手 羽生 善治" ||
			d.Find(`[data-testid="appeal-body"]`).Text() != "立会人" || !strings.Contains(d.Find(`[data-testid="appeal-before"]`).Text(), "先手勝ち") ||
			!strings.Contains(d.Find(`[data-testid="appeal-now"]`).Text(), "後手勝ち") || d.Find(`[data-testid="appeal-undecided"]`).Length() != 1 {
			t.Fatalf("case page in Japanese: %s", d.Find("main").Text())
		}
		// The decision carries the version seen: an old one is 409.
		stale := a.shown(casePath, `[data-testid="decision-form"]`, url.Values{"decision": {"upheld"}, "reasons": {"記録係の証言"}, "version": {"1"}})
		if resp, _ := a.postForm(casePath+"/decision", stale); resp.StatusCode != http.StatusConflict {
			t.Fatalf("stale decision: %d", resp.StatusCode)
		}
		resp, _ = a.postForm(casePath+"/decision", a.shown(casePath, `[data-testid="decision-form"]`, url.Values{"decision": {"upheld"}, "reasons": {"記録係の証言"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("decision: %d", resp.StatusCode)
		}
		hist, _ := a.store.ResultHistory(t.Context(), g.game.ID)
		if n := len(hist); n != 3 || hist[n-1].Result != "sente_win" || hist[n-1].Reason != "resignation" {
			t.Fatalf("after the appeal: %+v", hist)
		}
		_, body = a.get(casePath)
		d = doc(t, body)
		if !strings.Contains(d.Find(`[data-testid="appeal-decision-text"]`).Text(), "異議を認める") ||
			!strings.Contains(d.Find(`[data-testid="appeal-resulting"]`).Text(), "先手勝ち") || d.Find(`[data-testid="decision-form"]`).Length() != 0 {
			t.Fatalf("decided case: %s", d.Find("main").Text())
		}
		_, body = a.get(path)
		if d := doc(t, body); d.Find(`[data-testid="ruling-appeal"]`).Length() != 1 || !strings.Contains(d.Find(`[data-testid="ruling-decision-of"]`).Text(), "の決定") {
			t.Fatal("the ruling log links the appeal and the decision's ruling")
		}
		// The public reads the case too (a published event), in English.
		pub := a.newClient()
		a.do(pub, http.MethodGet, "/lang?to=en", nil, "")
		resp, body = a.do(pub, http.MethodGet, casePath, nil, "")
		d = doc(t, body)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(d.Find(`[data-testid="appeal-title"]`).Text(), "Appeal no.") ||
			!strings.Contains(d.Find(`[data-testid="appeal-decision-text"]`).Text(), "Appeal upheld") ||
			!strings.Contains(d.Find(`[data-testid="appeal-resulting"]`).Text(), "Sente wins") || d.Find(`[data-testid="appeal-body"]`).Text() != "Arbiter" ||
			d.Find(`[data-testid="appeal-sente"]`).Text() != "羽生 善治" {
			t.Fatalf("case page in English (%d): %s", resp.StatusCode, d.Find("main").Text())
		}
		// One document: Markdown, named for the case, in the reader's language.
		resp, text := a.do(pub, http.MethodGet, casePath+"/document", nil, "")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("document %d %v", resp.StatusCode, resp.Header)
		}
		for _, want := range []string{"# Appeal no.", "羽生 善治", "藤井 聡太", "二手指しはしていない", "Appeal upheld", "記録係の証言", "Sente wins"} {
			if !strings.Contains(text, want) {
				t.Errorf("document lacks %q:\n%s", want, text)
			}
		}
		resp, text = a.get(casePath + "/document")
		if !strings.Contains(text, "# 異議 第") || !strings.Contains(text, "先手勝ち") {
			t.Fatalf("Japanese document (%d):\n%s", resp.StatusCode, text)
		}
		// Another game's path, or a missing appeal, is 404 like a missing page.
		other := g.game.ID + 1000
		if resp, _ := a.get("/games/" + strconv.FormatInt(other, 10) + strings.TrimPrefix(casePath, path)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("appeal through another game: %d", resp.StatusCode)
		}
		if resp, _ := a.get(path + "/appeals/99999"); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("missing appeal: %d", resp.StatusCode)
		}
		if resp, _ := a.do(pub, http.MethodGet, path+"/appeals/99999/document", nil, ""); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("missing appeal's document: %d", resp.StatusCode)
		}
	})
}

// A late appeal is refused in words unless staff give a reason to accept
// it; the reason shows on the case page.
func TestAppealsWeb_000_10_8_LateAppeal(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, `{"appeal_days": 2}`)
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		if resp, _ := a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"confirm": {"1"}, "kind": {"warning"},
			"player": {"gote"}, "reason": {"反対の手で時計を押した"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("ruling: %d", resp.StatusCode)
		}
		rulings, _ := a.store.Rulings(t.Context(), g.game.ID)
		a.now = a.now.Add(50 * time.Hour)
		link := path + "/appeals/new?ruling=" + strconv.FormatInt(rulings[0].ID, 10)
		_, body := a.get(link)
		if doc(t, body).Find(`[data-testid="appeal-late-notice"]`).Length() != 1 {
			t.Fatal("the form says the deadline has passed")
		}
		form := a.shown(link, `[data-testid="appeal-form"]`, url.Values{"filed_by": {"gote"}, "body": {"council"}, "statement_gote": {"押していない"}})
		resp, body := a.postForm(path+"/appeals", form)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc(t, body).Find(`[data-testid="error-late_reason"]`).Text(), "2日") {
			t.Fatalf("late appeal: %d %s", resp.StatusCode, doc(t, body).Find(`[data-testid="error-late_reason"]`).Text())
		}
		form.Set("late_reason", "郵送で届いた")
		resp, _ = a.postForm(path+"/appeals", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("accepted late: %d", resp.StatusCode)
		}
		_, body = a.get(resp.Header.Get("Location"))
		d := doc(t, body)
		if d.Find(`[data-testid="appeal-late"]`).Text() != "郵送で届いた" || d.Find(`[data-testid="appeal-body"]`).Text() != "常務会" ||
			d.Find(`[data-testid="decision-form"]`).Length() != 0 {
			t.Fatalf("late case (the arbiter does not decide for the 常務会): %s", d.Find("main").Text())
		}
	})
}

// 000 第10条第8項 in a knockout: a foul loss sent R1-G1's gote on to R2-G1;
// the appeal upheld on the web restores sente's win, and the bracket's
// R2-G1 is sente's again — a correction whose reason is the decision's.
func TestAppealsWeb_000_10_8_UpheldInAKnockoutRestoresWhoAdvanced(t *testing.T) {
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
		g11, _ := a.store.GameByID(ctx, r1[0].DecidingGameID)
		sente := strconv.FormatInt(*g11.SentePlayerID, 10)
		gote := strconv.FormatInt(*g11.GotePlayerID, 10)
		has := func(g office.BracketGame, id string) bool { return g.Players[0] == id || g.Players[1] == id }
		if r2 := bracket()[1][0]; !has(r2, sente) {
			t.Fatalf("R2-G1 %+v, want R1-G1's sente %s", r2, sente)
		}
		cctx := office.WithCorrection(ctx, f.admin, office.CorrectionConsent{Kind: office.CorrectionResult, Reason: "二手指し", GameID: g11.ID})
		loss, _, err := o.AddRuling(cctx, f.admin, g11.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二手指し", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r2 := bracket()[1][0]; !has(r2, gote) {
			t.Fatalf("after the foul loss R2-G1 %+v, want R1-G1's gote %s", r2, gote)
		}
		ap, err := o.FileAppeal(ctx, f.admin, g11.ID, office.AppealInput{RulingID: loss.ID, FiledBy: "sente", StatementSente: "していない", Body: office.AppealBodyCouncil})
		if err != nil {
			t.Fatal(err)
		}
		casePath := "/games/" + strconv.FormatInt(g11.ID, 10) + "/appeals/" + strconv.FormatInt(ap.ID, 10)
		resp, body := a.postForm(casePath+"/decision", a.shown(casePath, `[data-testid="decision-form"]`, url.Values{"decision": {"upheld"}, "reasons": {"証言により認めない"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("decision: %d\n%s", resp.StatusCode, body)
		}
		if v, _, _ := a.store.LatestResult(ctx, g11.ID); v.Result != office.ResultSenteWin {
			t.Fatalf("R1-G1 after the appeal: %+v", v)
		}
		if r2 := bracket()[1][0]; !has(r2, sente) || has(r2, gote) {
			t.Fatalf("after the appeal R2-G1 %+v, want R1-G1's sente %s again", r2, sente)
		}
	})
}

// 000 第10条第8項 in a knockout: a foul loss sent R1-G1's gote on to R2-G1;
// the appeal decided as 指し直し leaves R1-G1 undecided, played by its
// replay, and R2-G1 waits for its winner — a correction whose reason is the
// decision's.
func TestAppealsWeb_000_10_8_ReplayInAKnockoutLeavesTheSlotWaiting(t *testing.T) {
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
		g11, _ := a.store.GameByID(ctx, r1[0].DecidingGameID)
		sente := strconv.FormatInt(*g11.SentePlayerID, 10)
		gote := strconv.FormatInt(*g11.GotePlayerID, 10)
		has := func(g office.BracketGame, id string) bool { return g.Players[0] == id || g.Players[1] == id }
		if r2 := bracket()[1][0]; !has(r2, sente) {
			t.Fatalf("R2-G1 %+v, want R1-G1's sente %s", r2, sente)
		}
		cctx := office.WithCorrection(ctx, f.admin, office.CorrectionConsent{Kind: office.CorrectionResult, Reason: "二手指し", GameID: g11.ID})
		loss, _, err := o.AddRuling(cctx, f.admin, g11.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二手指し", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r2 := bracket()[1][0]; !has(r2, gote) {
			t.Fatalf("after the foul loss R2-G1 %+v, want R1-G1's gote %s", r2, gote)
		}
		ap, err := o.FileAppeal(ctx, f.admin, g11.ID, office.AppealInput{RulingID: loss.ID, FiledBy: "sente", StatementSente: "していない", Body: office.AppealBodyCouncil})
		if err != nil {
			t.Fatal(err)
		}
		casePath := "/games/" + strconv.FormatInt(g11.ID, 10) + "/appeals/" + strconv.FormatInt(ap.ID, 10)
		resp, body := a.postForm(casePath+"/decision", a.shown(casePath, `[data-testid="decision-form"]`, url.Values{"decision": {"replaced"}, "replacement": {"redo"}, "reasons": {"指し直しとする"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("decision: %d\n%s", resp.StatusCode, body)
		}
		if v, _, _ := a.store.LatestResult(ctx, g11.ID); v.Result != office.ResultRedo {
			t.Fatalf("R1-G1 after the appeal: %+v", v)
		}
		redos, _ := a.store.RedoGames(ctx, g11.ID)
		if len(redos) != 1 {
			t.Fatalf("R1-G1's replay: %+v", redos)
		}
		r := bracket()
		if g := r[0][0]; g.Winner != "" || g.DecidingGameID != redos[0].ID {
			t.Fatalf("R1-G1 after the replay decision %+v, want undecided and played by its replay %d", g, redos[0].ID)
		}
		if r2 := r[1][0]; has(r2, gote) || has(r2, sente) {
			t.Fatalf("after the replay decision R2-G1 %+v still seats a player of R1-G1", r2)
		}
	})
}

// TestAppealsWeb_000_10_8_ReplayDecision (000 第10条第8項: the body
// 「判断・処置し」): the decision form offers 指し直し among the results a
// replacement may give; deciding it answers 303, the case page and its
// document say 指し直し (Redo in English), and the game has its replay with
// the colours swapped (D-R1), reachable from the game page.
func TestAppealsWeb_000_10_8_ReplayDecision(t *testing.T) {
	t.Parallel()
	eachApp(t, func(t *testing.T, a *testApp) {
		g := newGameSetup(t, a, "{}")
		a.signIn(a.client, g.arbiter.UserID)
		path := "/games/" + strconv.FormatInt(g.game.ID, 10)
		if resp, _ := a.postForm(path+"/end", a.shown(path, `[data-testid="end-form"]`, url.Values{"confirm": {"1"}, "kind": {"resign"}, "by": {"gote"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("end: %d", resp.StatusCode)
		}
		if resp, _ := a.postForm(path+"/rulings", a.shown(path, `[data-testid="ruling-form"]`, url.Values{"confirm": {"1"}, "kind": {"foul_loss"},
			"player": {"sente"}, "reason": {"二手指し"}})); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("foul loss: %d", resp.StatusCode)
		}
		_, body := a.get(path)
		link, ok := doc(t, body).Find(`[data-testid="ruling-file-appeal"]`).Attr("href")
		if !ok {
			t.Fatal("no appeal link")
		}
		form := a.shown(link, `[data-testid="appeal-form"]`, url.Values{"filed_by": {"sente"}, "body": {"arbiter"}, "statement_sente": {"二手指しはしていない"}})
		resp, _ := a.postForm(path+"/appeals", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("appeal: %d", resp.StatusCode)
		}
		casePath := resp.Header.Get("Location")
		_, body = a.get(casePath)
		opt := doc(t, body).Find(`[data-testid="decision-replacement"] option[value="redo"]`)
		if opt.Length() != 1 || opt.Text() != "指し直し" {
			t.Fatalf("the replacement choices lack 指し直し: %q", doc(t, body).Find(`[data-testid="decision-replacement"]`).Text())
		}
		resp, _ = a.postForm(casePath+"/decision", a.shown(casePath, `[data-testid="decision-form"]`,
			url.Values{"decision": {"replaced"}, "replacement": {"redo"}, "reasons": {"反則の有無を確かめられないため指し直す"}}))
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("decision: %d", resp.StatusCode)
		}
		redos, err := a.store.RedoGames(t.Context(), g.game.ID)
		if err != nil || len(redos) != 1 || *redos[0].SentePlayerID != *g.game.GotePlayerID {
			t.Fatalf("the replay: %+v %v", redos, err)
		}
		_, body = a.get(casePath)
		d := doc(t, body)
		if !strings.Contains(d.Find(`[data-testid="appeal-resulting"]`).Text(), "指し直し") || !strings.Contains(d.Find("main").Text(), "反則の有無を確かめられないため指し直す") {
			t.Fatalf("decided case: %s", d.Find("main").Text())
		}
		_, body = a.get(path)
		if !strings.Contains(body, `href="/games/`+strconv.FormatInt(redos[0].ID, 10)+`"`) {
			t.Error("the game page does not link its replay")
		}
		a.get("/lang?to=en")
		_, text := a.get(casePath + "/document")
		if !strings.Contains(text, "Redo") {
			t.Fatalf("English document:\n%s", text)
		}
	})
}
