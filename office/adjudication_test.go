package office_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// shuffle is a 千日手 by repetition: both kings step out and back three
// times, so the start position occurs for the 4th time at ply 12 (D-S1).
func shuffle() string {
	return "position startpos moves " + strings.Repeat("5i5h 5a5b 5h5i 5b5a ", 3)
}

// resigned is a short game gote resigned after sente's 3rd move; move 2
// is legal, so the record shows no foul.
const resigned = "position startpos moves 7g7f 3c3d 8h2b+"

func TestEndGame_D_R1_D_R2_SennichiteCreatesSwappedRedo(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		// Hand calculation (D-R2, 001 第6条1): allowance 6h; sente has
		// 50m left, gote 2h. The lower clock is under one hour, so both
		// get +10m: sente 60m, gote 130m. The redo game swaps colours, so
		// its sente (the old gote) has 130m and its gote 60m.
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"})
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome.Result != adjudication.Redo || end.Result.Result != office.ResultRedo || !end.Result.Confirmed() {
			t.Fatalf("outcome %+v result %+v", end.Outcome, end.Result)
		}
		if end.Redo == nil {
			t.Fatal("no redo game created")
		}
		r := *end.Redo
		if *r.SentePlayerID != g.gote.ID || *r.GotePlayerID != g.sente.ID {
			t.Fatalf("colours not swapped: sente %d gote %d", *r.SentePlayerID, *r.GotePlayerID)
		}
		if r.SenteAllowanceS != 130*60 || r.GoteAllowanceS != 60*60 {
			t.Fatalf("allowances %d/%d s, want 7800/3600", r.SenteAllowanceS, r.GoteAllowanceS)
		}
		if r.RedoOfID == nil || *r.RedoOfID != gm.ID || r.RedoNumber != 1 {
			t.Fatalf("redo chain %+v", r)
		}
		redos, _ := s.RedoGames(g.ctx, gm.ID)
		if len(redos) != 1 || redos[0].ID != r.ID {
			t.Fatalf("stored redos %+v", redos)
		}
	})
}

func TestEndGame_D_R2_RemainingTimesRequiredForRedo(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		_, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite"})
		if fieldCodes(err)["remaining_sente"] != "adjudication.err.remaining_required" {
			t.Fatalf("err %v", err)
		}
		hist, _ := s.ResultHistory(g.ctx, gm.ID)
		redos, _ := s.RedoGames(g.ctx, gm.ID)
		if len(hist) != 0 || len(redos) != 0 {
			t.Fatalf("half-saved: %d results, %d redos", len(hist), len(redos))
		}
	})
}

func TestEndGame_D_R4_RepeatedRedoPolicy(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"kind":"amateur","repeated_redo":{"after":1,"then":"gote_wins"}}`)
		gm := g.game()
		in := office.EndInput{Kind: "jishogi_agreement", PointsSente: "27", PointsGote: "27", RemainingSente: "30", RemainingGote: "30"}
		first, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, in)
		if err != nil || first.Redo == nil {
			t.Fatalf("first redo: %v %+v", err, first.Outcome)
		}
		second, err := g.o.EndGame(g.ctx, g.arbiter, first.Redo.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		if second.Outcome.Result != adjudication.GoteWin || second.Redo != nil {
			t.Fatalf("after one redo the policy gives gote the win: %+v", second.Outcome)
		}
	})
}

func TestEndGame_ResignationFromRecordStoresFacts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: resigned}); err != nil {
			t.Fatal(err)
		}
		end, err := g.o.EndGame(g.ctx, g.recorder, gm.ID, office.EndInput{Kind: "resign", By: "gote"})
		if err != nil {
			t.Fatal(err)
		}
		if end.Result.Result != office.ResultSenteWin || end.Outcome.Reason != adjudication.ReasonResignation {
			t.Fatalf("%+v", end.Outcome)
		}
		facts, oc, ok, err := g.o.LastAdjudication(g.ctx, gm.ID)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if facts.Ending.Kind != adjudication.EndResign || oc.Result != adjudication.SenteWin || facts.Record != "" {
			t.Fatalf("stored facts %+v outcome %+v", facts.Ending, oc)
		}
		if _, err := g.o.EndGame(g.ctx, g.outsider, gm.ID, office.EndInput{Kind: "resign", By: "gote"}); !errors.Is(err, office.ErrNotFound) { // a draft is hidden
			t.Fatalf("outsider: %v", err)
		}
	})
}

func TestClaimFoul_D_X3_D_X4(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		settings string
		claim    office.FoulClaimInput
		want     adjudication.Result
	}{
		{"after the game the offender loses", "{}",
			office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Ply: "3", Found: "after", ClaimedBy: "third_party"}, adjudication.GoteWin},
		{"投了優先 keeps the result", `{"resignation_priority":true}`,
			office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Ply: "3", Found: "after"}, adjudication.SenteWin},
		{"next game started keeps the result", "{}",
			office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Ply: "3", Found: "after", NextGame: "started", NextGameReason: "次の対局の開始を立会人が確認"}, adjudication.SenteWin},
		{"D-X4 待った cannot be claimed after the game", "{}",
			office.FoulClaimInput{Kind: "matta", Offender: "sente", Ply: "3", Found: "after"}, adjudication.SenteWin},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				g := newGameFixture(t, s, c.settings)
				gm := g.game()
				if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: resigned}); err != nil {
					t.Fatal(err)
				}
				if _, err := g.o.EndGame(g.ctx, g.recorder, gm.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
					t.Fatal(err)
				}
				claim := c.claim
				claim.Version = 1 // the arbiter saw the game ended (issue 11)
				if _, err := g.o.ClaimFoul(g.ctx, g.recorder, gm.ID, claim); !errors.Is(err, office.ErrForbidden) {
					t.Fatalf("recorder may not rule on claims (D-K3): %v", err)
				}
				end, err := g.o.ClaimFoul(g.ctx, g.arbiter, gm.ID, claim)
				if err != nil {
					t.Fatal(err)
				}
				if end.Outcome.Result != c.want {
					t.Fatalf("result %s want %s (%+v)", end.Outcome.Result, c.want, end.Outcome)
				}
				hist, _ := s.ResultHistory(g.ctx, gm.ID)
				if len(hist) != 2 || hist[1].Result != string(c.want) {
					t.Fatalf("history %+v", hist)
				}
				eff, _, _ := s.EffectiveResult(g.ctx, gm.ID)
				if eff.Version != 2 {
					t.Fatalf("the claim's version supersedes: effective v%d", eff.Version)
				}
			})
		})
	}
}

func TestClaimFoul_NeedsAnEndedGame(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		_, err := g.o.ClaimFoul(g.ctx, g.arbiter, gm.ID, office.FoulClaimInput{Kind: "nifu", Offender: "gote", Found: "after"})
		if fieldCodes(err)[""] != "adjudication.err.not_ended" {
			t.Fatalf("%v", err)
		}
		_, err = g.o.ClaimFoul(g.ctx, g.arbiter, gm.ID, office.FoulClaimInput{Kind: "nonsense", Offender: "left", Found: "later"})
		codes := fieldCodes(err)
		if codes["foul"] == "" || codes["offender"] == "" || codes["found"] == "" {
			t.Fatalf("%v", codes)
		}
	})
}

func TestRulings_D_K1_SupersedeAndFoulLoss(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		warn, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "warning", Player: "sente", Reason: "時計を反対の手で押した"})
		if err != nil || ended != nil {
			t.Fatal(err, ended)
		}
		g.clock.Advance(time.Minute)
		loss, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "foul_loss", Player: "sente", Reason: "二手指し"})
		if err != nil {
			t.Fatal(err)
		}
		if ended == nil || ended.Result.Result != office.ResultGoteWin || loss.ResultID != nil && *loss.ResultID != ended.Result.ID {
			t.Fatalf("foul loss gives gote the game: %+v", ended)
		}
		g.clock.Advance(time.Minute)
		appeal, ended, err := g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "caution", Player: "sente", Reason: "異議により注意に改める", Supersedes: loss.ID, Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ended == nil {
			t.Fatal("superseding a foul loss re-decides the game")
		}
		_, _, err = g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "other", Reason: "重ねて", Supersedes: loss.ID, Version: 2})
		if fieldCodes(err)["supersedes"] != "adjudication.err.supersedes_twice" {
			t.Fatalf("second supersession: %v", err)
		}
		rows, _ := s.Rulings(g.ctx, gm.ID)
		if len(rows) != 3 || rows[0].ID != warn.ID || rows[2].ID != appeal.ID || *rows[2].SupersedesID != loss.ID {
			t.Fatalf("log %+v", rows)
		}
		// D-K1: every ruling needs a reason and the right fields.
		_, _, err = g.o.AddRuling(g.ctx, g.arbiter, gm.ID, office.RulingInput{Kind: "time_adjust", Player: "", DeltaMinutes: "x", Reason: " "})
		codes := fieldCodes(err)
		if codes["reason"] == "" || codes["player"] == "" || codes["delta"] == "" {
			t.Fatalf("%v", codes)
		}
	})
}

func TestRulings_D_K2_DirectorRulesOnlyWithoutArbiter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		_, director := g.user("director", "correct horse battery", false)
		if err := g.o.GrantEventRole(g.ctx, g.admin, office.RoleGrant{EventID: g.event.ID, UserID: director.UserID, Role: office.RoleDirector}); err != nil {
			t.Fatal(err)
		}
		in := office.RulingInput{Kind: "environment", Reason: "照明を明るくした"}
		if _, _, err := g.o.AddRuling(g.ctx, director, gm.ID, in); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("with an arbiter the director does not rule: %v", err)
		}
		if _, _, err := g.o.AddRuling(g.ctx, g.recorder, gm.ID, in); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("recorder: %v", err)
		}
		if err := g.o.RevokeEventRole(g.ctx, g.admin, office.RoleGrant{EventID: g.event.ID, UserID: g.arbiter.UserID, Role: office.RoleArbiter}); err != nil {
			t.Fatal(err)
		}
		r, _, err := g.o.AddRuling(g.ctx, director, gm.ID, in)
		if err != nil || !r.ByOrganiser {
			t.Fatalf("director without arbiter: %+v %v", r, err)
		}
	})
}
