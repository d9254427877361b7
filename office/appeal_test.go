package office_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// appealSetup: sente won by gote's resignation (entered by hand, v1), then
// the arbiter declared sente's foul loss (二手指し), giving gote the game
// (v2). It returns the foul-loss ruling.
func appealSetup(t *testing.T, g *gameFixture, gm store.Game) office.Ruling {
	t.Helper()
	if _, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); err != nil {
		t.Fatal(err)
	}
	g.clock.Advance(time.Minute)
	loss, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二手指し", Version: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ended == nil || ended.Result.Result != office.ResultGoteWin || ended.Result.Version != 2 {
		t.Fatalf("the foul loss gives gote the game as v2: %+v", ended)
	}
	g.clock.Advance(time.Hour)
	return loss
}

func fileAppeal(t *testing.T, g *gameFixture, gm store.Game, ruling int64, body string) office.Appeal {
	t.Helper()
	a, err := g.o.FileAppeal(g.ctx, g.arbiter, gm.ID, office.AppealInput{RulingID: ruling, FiledBy: "sente",
		StatementSente: "二手指しはしていない。記録係も見ていない。", StatementGote: "二度続けて指したのを見た。", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func latest(t *testing.T, g *gameFixture, s *store.Store, gameID int64) store.ResultVersion {
	t.Helper()
	v, ok, err := s.LatestResult(g.ctx, gameID)
	if err != nil || !ok {
		t.Fatal(err, ok)
	}
	return v
}

// 000 第10条第8項: an appeal upheld takes the foul loss back and the game's
// result becomes what it was before the ruling — sente's win by
// resignation, not "pending" — as a new version; nothing is overwritten.
func TestAppeal_000_10_8_UpheldRestoresResultBeforeFoulLoss(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyCouncil)
		if want := loss.MadeAt.Add(office.DefaultAppealDays * 24 * time.Hour); !a.DeadlineAt.Equal(want) {
			t.Fatalf("deadline %v, want %v (the ruling + %d days)", a.DeadlineAt, want, office.DefaultAppealDays)
		}
		g.clock.Advance(24 * time.Hour)
		d, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealUpheld,
			Reasons: "両対局者と記録係の証言から二手指しは認められない。", Version: 2})
		if err != nil {
			t.Fatal(err)
		}
		now := latest(t, g, s, gm.ID)
		if now.Version != 3 || now.Result != office.ResultSenteWin || now.Reason != "resignation" || !now.Confirmed() {
			t.Fatalf("after the appeal the result is %+v, want v3 sente_win by resignation", now)
		}
		if d.ResultID == nil || *d.ResultID != now.ID || d.RulingID == nil {
			t.Fatalf("decision %+v names the result %d and its ruling", d, now.ID)
		}
		hist, _ := s.ResultHistory(g.ctx, gm.ID)
		if len(hist) != 3 || hist[0].Result != office.ResultSenteWin || hist[1].Result != office.ResultGoteWin {
			t.Fatalf("history rewritten: %+v", hist)
		}
		rows, _ := s.Rulings(g.ctx, gm.ID)
		if len(rows) != 2 || rows[1].SupersedesID == nil || *rows[1].SupersedesID != loss.ID || rows[1].ID != *d.RulingID || !rows[1].ByOrganiser {
			t.Fatalf("the decision supersedes the foul loss: %+v", rows)
		}
		// Decided once.
		if _, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealDismissed,
			Reasons: "再度", Version: 3}); fieldCodes(err)["decision"] != "appeals.err.decided" {
			t.Fatalf("second decision: %v", err)
		}
		c, err := g.o.AppealCaseOf(g.ctx, g.admin, gm.ID, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c.Sente != g.sente.Name || c.Gote != g.gote.Name || c.Before == nil || c.Before.Version != 1 ||
			c.RulingResult == nil || c.RulingResult.Version != 2 || c.Resulting == nil || c.Resulting.Version != 3 || c.DecisionRuling == nil {
			t.Fatalf("case %+v", c)
		}
	})
}

// The same for an adjudicated game: the restored version carries the
// facts it was decided on, so a later foul claim starts from them.
func TestAppeal_000_10_8_UpheldRestoresAdjudicatedResultWithFacts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
			t.Fatal(err)
		}
		g.clock.Advance(time.Minute)
		loss, _, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "助言を受けた", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v := latest(t, g, s, gm.ID); v.Result != office.ResultGoteWin {
			t.Fatalf("foul loss: %+v", v)
		}
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyArbiter)
		if _, err := g.o.DecideAppeal(g.ctx, g.arbiter, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealUpheld,
			Reasons: "助言ではなかった", Version: 2}); err != nil {
			t.Fatal(err)
		}
		v := latest(t, g, s, gm.ID)
		if v.Result != office.ResultSenteWin || v.Reason != string(adjudication.ReasonResignation) {
			t.Fatalf("restored %+v", v)
		}
		if _, ok, err := s.GameAdjudicationOfResult(g.ctx, v.ID); err != nil || !ok {
			t.Fatalf("the restored version keeps its facts: %v %v", ok, err)
		}
		_, oc, ok, err := g.o.LastAdjudication(g.ctx, gm.ID)
		if err != nil || !ok || oc.Result != adjudication.SenteWin {
			t.Fatalf("last adjudication %+v %v %v", oc, ok, err)
		}
	})
}

// 000 第10条第8項: the body may replace the ruling with another outcome —
// here neither the result at the end (sente) nor the ruling's (gote).
func TestAppeal_000_10_8_ReplacedWithAThirdOutcome(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyCouncil)
		in := office.AppealDecisionInput{Decision: office.AppealReplaced, Reasons: "両者に反則があった", Version: 2}
		if _, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, in); fieldCodes(err)["replacement"] != "appeals.err.replacement" {
			t.Fatalf("a replacement names its result: %v", err)
		}
		in.Replacement = office.ResultBothLose
		d, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		v := latest(t, g, s, gm.ID)
		if v.Version != 3 || v.Result != office.ResultBothLose || v.Reason != "appeal_decision" || d.Replacement != office.ResultBothLose {
			t.Fatalf("replaced: %+v %+v", v, d)
		}
		var oc adjudication.Outcome
		if err := json.Unmarshal([]byte(v.Outcome), &oc); err != nil || len(oc.Articles) != 1 || oc.Articles[0] != "000 第10条第8項" {
			t.Fatalf("outcome %s: %v", v.Outcome, err)
		}
		rows, _ := s.Rulings(g.ctx, gm.ID)
		if len(rows) != 2 || *rows[1].SupersedesID != loss.ID || rows[1].ResultID == nil || *rows[1].ResultID != v.ID {
			t.Fatalf("rulings %+v", rows)
		}
	})
}

// 000 第10条第8項: a dismissed appeal leaves the ruling and the result.
func TestAppeal_000_10_8_DismissedLeavesTheRuling(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyArbiter)
		d, err := g.o.DecideAppeal(g.ctx, g.arbiter, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealDismissed,
			Replacement: office.ResultSenteWin, Reasons: "記録係が二手指しを確認した", Version: 2})
		if err != nil {
			t.Fatal(err)
		}
		if d.RulingID != nil || d.ResultID != nil || d.Replacement != "" {
			t.Fatalf("dismissed writes no ruling or result: %+v", d)
		}
		if v := latest(t, g, s, gm.ID); v.Version != 2 || v.Result != office.ResultGoteWin {
			t.Fatalf("result moved: %+v", v)
		}
		if rows, _ := s.Rulings(g.ctx, gm.ID); len(rows) != 1 {
			t.Fatalf("rulings %+v", rows)
		}
		as, err := g.o.AppealsOfGame(g.ctx, g.admin, gm.ID)
		if err != nil || len(as) != 1 || as[0].Decision == nil || as[0].Decision.Decision != office.AppealDismissed {
			t.Fatalf("appeals %+v %v", as, err)
		}
	})
}

// An appeal after the period the event's settings give is refused in
// words; staff may accept it with a reason, which is kept. The period is
// the organiser's setting (appeal_days).
func TestAppeal_000_10_8_LateAppealRefusedUnlessOverridden(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"appeal_days": 3}`)
		gm := g.game()
		loss := appealSetup(t, g, gm)
		g.clock.Advance(3 * 24 * time.Hour) // the ruling + 3 days + 1 hour
		in := office.AppealInput{RulingID: loss.ID, FiledBy: "gote", StatementGote: "遅れた", Body: office.AppealBodyCouncil}
		_, err := g.o.FileAppeal(g.ctx, g.arbiter, gm.ID, in)
		if fieldCodes(err)["late_reason"] != "appeals.err.late" {
			t.Fatalf("late appeal: %v", err)
		}
		if as, _ := s.AppealsOfGame(g.ctx, gm.ID); len(as) != 0 {
			t.Fatalf("a refused appeal was stored: %+v", as)
		}
		in.LateReason = "入院していたため"
		a, err := g.o.FileAppeal(g.ctx, g.arbiter, gm.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		if want := loss.MadeAt.Add(72 * time.Hour); !a.DeadlineAt.Equal(want) || a.LateReason != "入院していたため" {
			t.Fatalf("appeal %+v, deadline want %v", a, want)
		}
		// One appeal per ruling; bad input names its fields.
		if _, err := g.o.FileAppeal(g.ctx, g.arbiter, gm.ID, in); fieldCodes(err)["ruling"] != "appeals.err.already" {
			t.Fatalf("second appeal: %v", err)
		}
		codes := fieldCodes(func() error {
			_, err := g.o.FileAppeal(g.ctx, g.arbiter, gm.ID, office.AppealInput{RulingID: loss.ID, FiledBy: "sente", Body: "x"})
			return err
		}())
		if codes["statement_sente"] != "appeals.err.statement_required" || codes["body"] != "appeals.err.body" {
			t.Fatalf("%v", codes)
		}
		if _, err := office.ParseEventSettings(`{"appeal_days": 0}`); !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("appeal_days 0: %v", err)
		}
	})
}

// The decision carries the version its decider saw: a stale one is 409 and
// writes nothing.
func TestAppeal_000_10_8_StaleDecisionRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyCouncil)
		_, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealUpheld, Reasons: "認める", Version: 1})
		var stale *office.StaleError
		if !errors.As(err, &stale) || !errors.Is(err, office.ErrConflict) {
			t.Fatalf("stale decision: %v", err)
		}
		if v := latest(t, g, s, gm.ID); v.Version != 2 {
			t.Fatalf("stale decision wrote %+v", v)
		}
		if rows, _ := s.Rulings(g.ctx, gm.ID); len(rows) != 1 {
			t.Fatalf("stale decision wrote a ruling: %+v", rows)
		}
		if as, _ := s.AppealsOfGame(g.ctx, gm.ID); len(as) != 1 || as[0].Decision != nil {
			t.Fatalf("stale decision stored: %+v", as)
		}
	})
}

// Appeals are seen as the game is (404 otherwise); filing is the event's
// directors' and arbiters', deciding the body's: the arbiter for 立会人,
// the director or an administrator for the 常務会 and the organiser.
func TestAppeal_000_10_8_VisibilityAndRoles(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyCouncil)
		if _, err := g.o.AppealCaseOf(g.ctx, g.outsider, gm.ID, a.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider reads a draft event's appeal: %v", err)
		}
		if _, err := g.o.AppealsOfGame(g.ctx, g.outsider, gm.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider lists appeals: %v", err)
		}
		if _, err := g.o.AppealCaseOf(g.ctx, g.admin, gm.ID+1000, a.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("another game's appeal: %v", err)
		}
		other := g.game()
		if _, err := g.o.AppealCaseOf(g.ctx, g.admin, other.ID, a.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("appeal read through another game: %v", err)
		}
		in := office.AppealInput{RulingID: loss.ID, FiledBy: "sente", StatementSente: "x", Body: office.AppealBodyCouncil}
		if _, err := g.o.FileAppeal(g.ctx, g.outsider, gm.ID, in); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("outsider files: %v", err)
		}
		if _, err := g.o.FileAppeal(g.ctx, g.recorder, gm.ID, in); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder files: %v", err)
		}
		if _, err := g.o.DecideAppeal(g.ctx, g.arbiter, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealUpheld, Reasons: "x", Version: 2}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("the arbiter decides for the 常務会: %v", err)
		}
		if g.o.CanDecideAppeal(g.ctx, g.arbiter, g.event.ID, office.AppealBodyCouncil) || !g.o.CanDecideAppeal(g.ctx, g.arbiter, g.event.ID, office.AppealBodyArbiter) {
			t.Fatal("CanDecideAppeal disagrees with the roles")
		}
	})
}

// Superseding a foul loss with an ordinary ruling (not through an appeal)
// also restores the result before it instead of leaving the game pending.
func TestRulings_000_10_8_SupersedingFoulLossRestoresEarlierResult(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		_, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "caution", Player: "sente", Reason: "注意に改める", Supersedes: loss.ID, Version: 2})
		if err != nil {
			t.Fatal(err)
		}
		if ended == nil || ended.Result.Result != office.ResultSenteWin || ended.Result.Reason != "resignation" {
			t.Fatalf("superseded foul loss: %+v", ended)
		}
	})
}

// A foul loss after a 千日手 made the redo game void; the appeal upheld
// restores the 千日手 and its redo game is there again (a fresh one, D-R1).
func TestAppeal_000_10_8_UpheldRestoresSennichiteWithItsRedoGame(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"})
		if err != nil || end.Redo == nil {
			t.Fatal(err, end.Redo)
		}
		g.clock.Advance(time.Minute)
		loss, _, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "gote", Reason: "助言を受けた", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if redos, _ := s.RedoGames(g.ctx, gm.ID); len(redos) != 0 {
			t.Fatalf("the foul loss leaves no live redo game: %+v", redos)
		}
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyArbiter)
		if _, err := g.o.DecideAppeal(g.ctx, g.arbiter, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealUpheld,
			Reasons: "助言ではなかった", Version: 2}); err != nil {
			t.Fatal(err)
		}
		v := latest(t, g, s, gm.ID)
		if v.Version != 3 || v.Result != office.ResultRedo || v.Reason != string(adjudication.ReasonSennichite) {
			t.Fatalf("restored %+v", v)
		}
		redos, _ := s.RedoGames(g.ctx, gm.ID)
		if len(redos) != 1 || redos[0].ID == end.Redo.ID || *redos[0].SentePlayerID != g.gote.ID {
			t.Fatalf("live redo games %+v (the void one was %d)", redos, end.Redo.ID)
		}
	})
}

// 000 第10条第8項 (the body 「判断・処置し」): a decision may order the game
// replayed (指し直し). The appealed foul loss is superseded, the result
// becomes a redo (reason appeal_decision, citing the article) and a fresh
// replay exists through the redo path: colours swapped for an even game
// (D-R1), each player's full allowance (a later day: no remaining time
// carries over), linked to the game it replays. A stale version writes
// nothing — neither the result nor the replay.
func TestAppeal_000_10_8_ReplayCreatesAFreshRedoGame(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		loss := appealSetup(t, g, gm)
		a := fileAppeal(t, g, gm, loss.ID, office.AppealBodyCouncil)
		in := office.AppealDecisionInput{Decision: office.AppealReplaced, Replacement: office.ResultRedo, Reasons: "反則の有無が確かめられない。後日指し直す。", Version: 1}
		var stale *office.StaleError
		if _, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, in); !errors.As(err, &stale) {
			t.Fatalf("a stale version: %v", err)
		}
		if redos, _ := s.RedoGames(g.ctx, gm.ID); len(redos) != 0 {
			t.Fatalf("a refused decision created a replay: %+v", redos)
		}
		if v := latest(t, g, s, gm.ID); v.Version != 2 {
			t.Fatalf("a refused decision wrote a result: %+v", v)
		}
		in.Version = 2
		d, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		v := latest(t, g, s, gm.ID)
		if v.Version != 3 || v.Result != office.ResultRedo || v.Reason != "appeal_decision" || d.Replacement != office.ResultRedo {
			t.Fatalf("replay decision: %+v %+v", v, d)
		}
		var oc adjudication.Outcome
		if err := json.Unmarshal([]byte(v.Outcome), &oc); err != nil || oc.Result != adjudication.Redo || len(oc.Articles) != 1 || oc.Articles[0] != "000 第10条第8項" {
			t.Fatalf("outcome %s: %v", v.Outcome, err)
		}
		rows, _ := s.Rulings(g.ctx, gm.ID)
		if len(rows) != 2 || rows[1].SupersedesID == nil || *rows[1].SupersedesID != loss.ID || rows[1].ResultID == nil || *rows[1].ResultID != v.ID {
			t.Fatalf("rulings %+v", rows)
		}
		redos, err := s.RedoGames(g.ctx, gm.ID)
		if err != nil || len(redos) != 1 {
			t.Fatalf("replays %+v %v", redos, err)
		}
		r := redos[0]
		if r.RedoOfID == nil || *r.RedoOfID != gm.ID || r.RedoNumber != gm.RedoNumber+1 {
			t.Fatalf("the replay is not linked to the game: %+v", r)
		}
		if *r.SentePlayerID != *gm.GotePlayerID || *r.GotePlayerID != *gm.SentePlayerID {
			t.Fatalf("the replay keeps the colours: sente %d gote %d, the game's %d %d", *r.SentePlayerID, *r.GotePlayerID, *gm.SentePlayerID, *gm.GotePlayerID)
		}
		if r.SenteAllowanceS != gm.SenteAllowanceS || r.GoteAllowanceS != gm.GoteAllowanceS || r.SenteAllowanceS <= 0 {
			t.Fatalf("the replay's allowance %d/%d, the game's %d/%d", r.SenteAllowanceS, r.GoteAllowanceS, gm.SenteAllowanceS, gm.GoteAllowanceS)
		}
		in.Version = 3
		if _, err := g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, in); fieldCodes(err)["decision"] != "appeals.err.decided" {
			t.Fatalf("decided twice: %v", err)
		}
		if redos, _ := s.RedoGames(g.ctx, gm.ID); len(redos) != 1 {
			t.Fatalf("a second decision made another replay: %+v", redos)
		}
	})
}

// 000 第10条第8項: a game whose 千日手 replay already stands is not
// replayed a second time by an appeal's decision: refused next to the
// replacement, nothing written.
func TestAppeal_000_10_8_ReplayRefusedWhenTheReplayStands(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"})
		if err != nil || end.Redo == nil {
			t.Fatal(err, end.Redo)
		}
		g.clock.Advance(time.Minute)
		warn, _, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "warning", Player: "gote", Reason: "私語", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		a := fileAppeal(t, g, gm, warn.ID, office.AppealBodyCouncil)
		before := latest(t, g, s, gm.ID)
		_, err = g.o.DecideAppeal(g.ctx, g.admin, gm.ID, a.ID, office.AppealDecisionInput{Decision: office.AppealReplaced, Replacement: office.ResultRedo,
			Reasons: "指し直しとする", Version: before.Version})
		if fieldCodes(err)["replacement"] != "appeals.err.replay_exists" {
			t.Fatalf("a second replay: %v", err)
		}
		if v := latest(t, g, s, gm.ID); v.Version != before.Version {
			t.Fatalf("a refused decision wrote %+v", v)
		}
		if redos, _ := s.RedoGames(g.ctx, gm.ID); len(redos) != 1 || redos[0].ID != end.Redo.ID {
			t.Fatalf("replays %+v", redos)
		}
	})
}
