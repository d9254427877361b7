package office_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// correctionBracket is an 8-entrant published main stage (third-place game
// on) in the knockout fixture.
func correctionBracket(t *testing.T, k *knockoutFixture, seed string) store.KnockoutStage {
	t.Helper()
	st, err := k.o.CreateStage(k.ctx, k.director, office.StageInput{EventID: k.event.ID, Name: "本戦", Kind: "main", ThirdPlace: true,
		RoundDates: "2026-06-10 2026-06-20 2026-06-30", AllowanceMinutes: 180})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range k.players[4:] {
		if _, err := k.o.AddEntrant(k.ctx, k.director, office.EntrantInput{StageID: st.ID, PlayerID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	k.draw(st.ID, seed)
	if err := k.o.PublishStage(k.ctx, k.director, st.ID); err != nil {
		t.Fatal(err)
	}
	return st
}

// slotsOfBracket lists every bracket game of the event's first stage, third
// place included.
func slotsOfBracket(eb office.EventBracket) []office.BracketGame {
	var out []office.BracketGame
	for _, r := range eb.Stages[0].Rounds {
		out = append(out, r...)
	}
	if tp := eb.Stages[0].ThirdPlace; tp != nil {
		out = append(out, *tp)
	}
	return out
}

func pidOf(t *testing.T, entrant string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(entrant, 10, 64)
	if err != nil {
		t.Fatalf("entrant %q is not a player", entrant)
	}
	return id
}

// winnerOfGame is the player who won game g by its effective result.
func winnerOfGame(g store.Game, r store.ResultVersion) int64 {
	switch r.Result {
	case office.ResultSenteWin:
		return *g.SentePlayerID
	case office.ResultGoteWin:
		return *g.GotePlayerID
	}
	return 0
}

// checkAgree compares, independently, the bracket view, the event's games
// (store rows, void ones apart), each game's own players and result: every
// live game sits in exactly one bracket slot with the slot's two players,
// every ready slot has its game, a decided chain's winner is the slot's
// winner, and no void game is in the bracket.
func checkAgree(t *testing.T, k *knockoutFixture, s *store.Store, step string) {
	t.Helper()
	ctx := k.ctx
	eb, err := k.o.EventBrackets(ctx, k.director, k.event.ID)
	if err != nil {
		t.Fatalf("%s: brackets: %v", step, err)
	}
	games, err := s.GamesOfEvent(ctx, k.event.ID)
	if err != nil {
		t.Fatal(err)
	}
	results, err := s.EffectiveResults(ctx, k.event.ID)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]store.Game{}
	void := map[int64]bool{}
	for _, g := range games {
		byID[g.ID] = g
		if _, v, err := s.GameVoidOf(ctx, g.ID); err != nil {
			t.Fatal(err)
		} else if v {
			void[g.ID] = true
		}
	}
	inSlot := map[int64]string{}
	for _, sl := range slotsOfBracket(eb) {
		if sl.Status == pairing.StatusReady && sl.GameID == 0 {
			t.Fatalf("%s: %s is ready (%v) but has no game", step, sl.ID, sl.Players)
		}
		if sl.GameID == 0 {
			continue
		}
		if prev, dup := inSlot[sl.GameID]; dup {
			t.Fatalf("%s: game %d in %s and %s", step, sl.GameID, prev, sl.ID)
		}
		inSlot[sl.GameID] = sl.ID
		g, ok := byID[sl.GameID]
		if !ok || void[g.ID] {
			t.Fatalf("%s: %s shows game %d, which the games list has not (or void: %v)", step, sl.ID, sl.GameID, void[g.ID])
		}
		want := []int64{pidOf(t, sl.Players[0]), pidOf(t, sl.Players[1])}
		got := []int64{*g.SentePlayerID, *g.GotePlayerID}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Fatalf("%s: %s has players %v on the bracket but game %d (%s) has %v", step, sl.ID, want, g.ID, g.Label, got)
		}
		if g.Label != eb.Stages[0].Stage.Name+" "+sl.ID {
			t.Fatalf("%s: %s shows game %d labelled %q", step, sl.ID, g.ID, g.Label)
		}
		last, eff, decided, err := k.o.DecidingGame(ctx, sl.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if last.ID != sl.DecidingGameID {
			t.Fatalf("%s: %s deciding game %d, bracket says %d", step, sl.ID, last.ID, sl.DecidingGameID)
		}
		if r, ok := results[last.ID]; decided && (!ok || r.ID != eff.ID) {
			t.Fatalf("%s: %s effective result differs between the list and the chain", step, sl.ID)
		}
		w := winnerOfGame(last, eff)
		switch {
		case decided && w != 0:
			if sl.Status != pairing.StatusDone || sl.Winner != strconv.FormatInt(w, 10) {
				t.Fatalf("%s: %s game %d won by %d, bracket says %s / %q", step, sl.ID, last.ID, w, sl.Status, sl.Winner)
			}
		case !decided:
			if sl.Status == pairing.StatusDone {
				t.Fatalf("%s: %s done on the bracket, its game %d undecided", step, sl.ID, last.ID)
			}
		}
	}
	for _, g := range games {
		if void[g.ID] {
			if _, ok := inSlot[g.ID]; ok {
				t.Fatalf("%s: void game %d is on the bracket", step, g.ID)
			}
			continue
		}
		first := g
		for first.RedoOfID != nil {
			first = byID[*first.RedoOfID]
		}
		if void[first.ID] {
			t.Fatalf("%s: game %d stands but the chain's first game %d is void", step, g.ID, first.ID)
		}
		if _, ok := inSlot[first.ID]; !ok {
			t.Fatalf("%s: live game %d (%s) is in no bracket slot", step, g.ID, g.Label)
		}
	}
}

// TestCorrectionProperty_D_R3_D_X3_BracketGamesListAndGamesAgree drives
// seeded random sequences of results (by hand or through the adjudication
// room, some through a 千日手 redo, D-R3), corrections of decided games —
// new result versions and foul claims found after the game (D-X3) — with
// void chosen, and withdrawals through
// an 8-entrant published knockout with a third-place game, and after every
// step compares the bracket, the games list and each game (checkAgree). A
// correction's preview lists exactly the games the save makes void, and
// without consent the save is refused with CorrectionNeeded and nothing
// changes.
//
// Slow (6 seeds × 40 steps, each followed by a full comparison, on both
// databases: ~100 s of work under -race): the seeds run as parallel
// subtests, each on databases of its own.
func TestCorrectionProperty_D_R3_D_X3_BracketGamesListAndGamesAgree(t *testing.T) {
	t.Parallel()
	seeds := []uint64{1, 2, 3, 4, 5, 6}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			t.Parallel() // each seed has its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				k := newKnockoutFixture(t, s)
				st := correctionBracket(t, k, strconv.FormatUint(seed, 10))
				rng := rand.New(rand.NewPCG(seed, 11))
				checkAgree(t, k, s, "published")
				corrections, claims := 0, 0
				for step := range 40 {
					eb, err := k.o.EventBrackets(k.ctx, k.director, k.event.ID)
					if err != nil {
						t.Fatal(err)
					}
					var ready, done []office.BracketGame
					for _, sl := range slotsOfBracket(eb) {
						switch {
						case sl.Status == pairing.StatusReady && sl.GameID != 0:
							ready = append(ready, sl)
						case sl.Status == pairing.StatusDone && sl.GameID != 0:
							done = append(done, sl)
						}
					}
					name := fmt.Sprintf("step %d", step)
					switch op := rng.IntN(10); {
					case op < 5 && len(ready) > 0:
						sl := ready[rng.IntN(len(ready))]
						if rng.IntN(6) == 0 && sl.Redos < 2 {
							name += " redo " + sl.ID
							if _, err := k.o.RecordResult(k.ctx, k.director, sl.DecidingGameID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							if _, err := k.o.CreateRedoGameFromRemaining(k.ctx, k.director, sl.DecidingGameID, time.Hour, time.Hour); err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							break
						}
						res := []string{office.ResultSenteWin, office.ResultGoteWin}[rng.IntN(2)]
						if rng.IntN(2) == 0 { // through the adjudication room, so a foul claim can follow
							loser := map[string]string{office.ResultSenteWin: "gote", office.ResultGoteWin: "sente"}[res]
							name += " end " + sl.ID + " " + res
							if _, err := k.o.EndGame(k.ctx, k.director, sl.DecidingGameID, office.EndInput{Kind: "resign", By: loser}); err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							break
						}
						name += " result " + sl.ID + " " + res
						if _, err := k.o.RecordResult(k.ctx, k.director, sl.DecidingGameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
					case op < 8 && len(done) > 0:
						sl := done[rng.IntN(len(done))]
						last, eff, _, err := k.o.DecidingGame(k.ctx, sl.GameID)
						if err != nil {
							t.Fatal(err)
						}
						res := office.ResultSenteWin
						if eff.Result == office.ResultSenteWin {
							res = office.ResultGoteWin
						}
						in := office.ResultInput{Result: res, Reason: office.ReasonResignation, Note: "記録の誤り", Version: eff.Version}
						change := office.CorrectionChange{GameID: last.ID, Result: &in}
						save := func(ctx context.Context) error {
							_, err := k.o.RecordResult(ctx, k.director, last.ID, in)
							return err
						}
						if ag, _, adj, err := k.o.LastAdjudication(k.ctx, last.ID); err != nil {
							t.Fatal(err)
						} else if adj && len(ag.Fouls) == 0 && rng.IntN(2) == 0 {
							// D-X3: a foul by the winner found after the game; the offender loses.
							offender := map[string]string{office.ResultSenteWin: "sente", office.ResultGoteWin: "gote"}[eff.Result]
							// The later rounds may have begun, which would keep the
							// result (000 第10条第5項); the arbiter overrides that
							// with a reason, so the claim corrects the bracket.
							claim := office.FoulClaimInput{Kind: "two_moves", Offender: offender, Found: "after", ClaimedBy: "opponent", Note: "記録の誤り",
								NextGame: office.NextGameNotStarted, NextGameReason: "次の対局は反則の指摘後に始まった", Version: eff.Version}
							change = office.CorrectionChange{GameID: last.ID, Claim: &claim}
							save = func(ctx context.Context) error {
								_, err := k.o.ClaimFoul(ctx, k.director, last.ID, claim)
								return err
							}
							name += " claim"
							claims++
						}
						name += " correct " + sl.ID + " " + res
						affected, err := k.o.PreviewCorrection(k.ctx, k.director, change)
						if err != nil {
							t.Fatalf("%s: preview: %v", name, err)
						}
						if len(affected) > 0 {
							before, _ := s.GamesOfEvent(k.ctx, k.event.ID)
							err := save(k.ctx)
							var need *office.CorrectionNeeded
							if !errors.As(err, &need) || !errors.Is(err, office.ErrConflict) || len(need.Affected) != len(affected) || !need.MissingReason {
								t.Fatalf("%s: without consent want CorrectionNeeded over %d games, got %v", name, len(affected), err)
							}
							after, _ := s.GamesOfEvent(k.ctx, k.event.ID)
							if len(after) != len(before) {
								t.Fatalf("%s: a refused correction created games", name)
							}
							if h, _ := s.ResultHistory(k.ctx, last.ID); h[len(h)-1].Result == res {
								t.Fatalf("%s: a refused correction was saved", name)
							}
							corrections++
						}
						ctx := office.WithCorrection(k.ctx, k.director, office.CorrectionConsent{Kind: office.CorrectionResult, Reason: "記録の誤り", Void: true, GameID: last.ID})
						if err := save(ctx); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if _, eff2, _, _ := k.o.DecidingGame(k.ctx, sl.GameID); eff2.Result != res {
							t.Fatalf("%s: the correction gave %s", name, eff2.Result)
						}
						for _, a := range affected {
							for _, id := range a.ChainIDs {
								if _, v, _ := s.GameVoidOf(k.ctx, id); !v {
									t.Fatalf("%s: previewed game %d (%s) not void after the save", name, id, a.Label)
								}
							}
						}
					case op < 9:
						var in []string
						for _, sl := range ready {
							in = append(in, sl.Players[:]...)
						}
						if len(in) == 0 {
							continue
						}
						pid := pidOf(t, in[rng.IntN(len(in))])
						name += fmt.Sprint(" withdraw ", pid)
						ctx := office.WithCorrection(k.ctx, k.director, office.CorrectionConsent{Void: true})
						if err := k.o.WithdrawEntrant(ctx, k.director, st.ID, pid, "体調不良"); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
					default:
						continue
					}
					checkAgree(t, k, s, name)
				}
				t.Logf("seed %d: %d corrections affected later games; %d foul claims", seed, corrections, claims)
			})
		})
	}
}

// TestCorrection_D_X3_R1G2CorrectedAfterR2Played is the measured case: R1-G2's
// winner corrected after R2-G1 was played and confirmed. The preview lists
// R2-G1; the save is refused without a reason, and without the void choice;
// with both, R2-G1's game is void (kept, its result too), a fresh R2-G1 with
// the right player takes the slot, and the bracket and games agree.
func TestCorrection_D_X3_R1G2CorrectedAfterR2Played(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		k := newKnockoutFixture(t, s)
		correctionBracket(t, k, "7")
		ctx := context.Background()
		play := func(id string, sente bool) office.BracketGame {
			t.Helper()
			eb, err := k.o.EventBrackets(ctx, k.director, k.event.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, sl := range slotsOfBracket(eb) {
				if sl.ID == id {
					res := office.ResultGoteWin
					if sente {
						res = office.ResultSenteWin
					}
					if _, err := k.o.RecordResult(ctx, k.director, sl.DecidingGameID, office.ResultInput{Result: res, Reason: office.ReasonResignation}); err != nil {
						t.Fatal(err)
					}
					return sl
				}
			}
			t.Fatalf("no %s", id)
			return office.BracketGame{}
		}
		play("R1-G1", true)
		r1g2 := play("R1-G2", true)
		old := play("R2-G1", true)
		checkAgree(t, k, s, "played")
		in := office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation, Note: "記入誤り", Version: 1}
		affected, err := k.o.PreviewCorrection(ctx, k.director, office.CorrectionChange{GameID: r1g2.DecidingGameID, Result: &in})
		if err != nil || len(affected) != 1 || affected[0].BracketGame != "R2-G1" || affected[0].GameID != old.GameID || !affected[0].Confirmed {
			t.Fatalf("preview: %+v %v", affected, err)
		}
		gote := *mustGame(t, s, r1g2.DecidingGameID).GotePlayerID
		if !slices.Contains(affected[0].After[:], gote) {
			t.Fatalf("R2-G1 after the correction should hold R1-G2's gote %d: %+v", gote, affected[0])
		}
		var need *office.CorrectionNeeded
		if _, err := k.o.RecordResult(ctx, k.director, r1g2.DecidingGameID, in); !errors.As(err, &need) || !need.MissingReason {
			t.Fatalf("no reason: %v", err)
		}
		c := office.WithCorrection(ctx, k.director, office.CorrectionConsent{Reason: "記入誤り", GameID: r1g2.DecidingGameID})
		if _, err := k.o.RecordResult(c, k.director, r1g2.DecidingGameID, in); !errors.As(err, &need) || need.MissingReason || !need.MissingVoid {
			t.Fatalf("no void choice: %v", err)
		}
		checkAgree(t, k, s, "refused")
		c = office.WithCorrection(ctx, k.director, office.CorrectionConsent{Reason: "記入誤り", Void: true, GameID: r1g2.DecidingGameID})
		if _, err := k.o.RecordResult(c, k.director, r1g2.DecidingGameID, in); err != nil {
			t.Fatal(err)
		}
		if mark, v, _ := s.GameVoidOf(ctx, old.GameID); !v || mark.CorrectionID == nil {
			t.Fatalf("old R2-G1 game %d should be void by the correction", old.GameID)
		} else if cr, err := s.CorrectionByID(ctx, *mark.CorrectionID); err != nil || cr.Reason != "記入誤り" || !cr.VoidChosen {
			t.Fatalf("correction row: %+v %v", cr, err)
		}
		if h, _ := s.ResultHistory(ctx, old.GameID); len(h) != 1 {
			t.Fatal("the void game keeps its result")
		}
		checkAgree(t, k, s, "corrected")
		eb, _ := k.o.EventBrackets(ctx, k.director, k.event.ID)
		for _, sl := range slotsOfBracket(eb) {
			if sl.ID == "R2-G1" {
				if sl.GameID == old.GameID || sl.GameID == 0 || !slices.Contains(sl.Players[:], strconv.FormatInt(gote, 10)) || sl.Status != pairing.StatusReady {
					t.Fatalf("new R2-G1: %+v", sl)
				}
			}
		}
	})
}

func mustGame(t *testing.T, s *store.Store, id int64) store.Game {
	t.Helper()
	g, err := s.GameByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
