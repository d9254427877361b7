package office_test

import (
	"errors"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/office/officetest"
	"kisen/store"
	"kisen/store/storetest"
)

// gameFixture: an admin, an event, two players, and a recorder and an
// arbiter with their roles in the event.
type gameFixture struct {
	*fixture
	admin, recorder, arbiter, outsider office.Actor
	event                              store.Event
	sente, gote                        store.Player
}

func newGameFixture(t *testing.T, s *store.Store, settings string) *gameFixture {
	g := officetest.NewGameFixture(t, s, settings)
	return &gameFixture{fixture: adapt(g.Fixture), admin: g.Admin, recorder: g.Recorder, arbiter: g.Arbiter, outsider: g.Outsider,
		event: g.Event, sente: g.Sente, gote: g.Gote}
}

func (g *gameFixture) game() store.Game {
	g.t.Helper()
	return (&officetest.GameFixture{Fixture: g.ot, Admin: g.admin, Event: g.event, Sente: g.sente, Gote: g.gote}).Game()
}

func TestGames_CreateValidatesAndChecksRoles(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		_, err := g.o.CreateGame(g.ctx, g.recorder, office.GameInput{EventID: g.event.ID})
		if !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a recorder may not create games: %v", err)
		}
		_, err = g.o.CreateGame(g.ctx, g.admin, office.GameInput{EventID: g.event.ID, SenteID: &g.sente.ID, GoteID: &g.sente.ID, Handicap: "九枚落ち", AllowanceMinutes: -1, ScheduledOn: "2026-13-01"})
		codes := fieldCodes(err)
		for field, code := range map[string]string{"gote": "games.err.same_player", "handicap": "games.err.handicap", "allowance": "games.err.allowance"} {
			if codes[field] != code {
				t.Errorf("field %s: code %q, want %q (all: %v)", field, codes[field], code, codes)
			}
		}
		if _, ok := codes["scheduled_on"]; !ok {
			t.Errorf("bad date not reported: %v", codes)
		}
		if gs, _ := s.GamesOfEvent(g.ctx, g.event.ID); len(gs) != 0 {
			t.Fatalf("invalid input wrote %d games", len(gs))
		}
		gm := g.game()
		if gm.SenteAllowanceS != 180*60 || gm.Handicap != "平手" {
			t.Fatalf("created game %+v", gm)
		}
	})
}

func TestGames_ResultsAreAppendOnlyAndLatestConfirmedCounts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, `{"require_confirmation": true}`)
		gm := g.game()
		if _, err := g.o.RecordResult(g.ctx, g.outsider, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"}); !errors.Is(err, office.ErrNotFound) { // a draft is hidden
			t.Fatalf("outsider recorded a result: %v", err)
		}
		if _, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: "draw", Reason: ""}); !errors.Is(err, office.ErrInvalid) {
			t.Fatalf("bad result accepted: %v", err)
		}
		v1, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultSenteWin, Reason: "resignation"})
		if err != nil {
			t.Fatal(err)
		}
		if v1.Confirmed() {
			t.Fatal("a result in an event that requires confirmation confirmed itself")
		}
		if _, ok, _ := s.EffectiveResult(g.ctx, gm.ID); ok {
			t.Fatal("an unconfirmed result counts")
		}
		// The person who entered it may not confirm it.
		if err := g.o.ConfirmResult(g.ctx, g.recorder, v1.ID); err == nil {
			t.Fatal("the recorder confirmed a result (and holds no confirming role)")
		}
		if err := g.o.ConfirmResult(g.ctx, g.arbiter, v1.ID); err != nil {
			t.Fatal(err)
		}
		if err := g.o.ConfirmResult(g.ctx, g.arbiter, v1.ID); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("second confirmation: %v", err)
		}
		// A correction is a new version; the first stays as it was.
		g.clock.Advance(time.Hour)
		v2, err := g.o.RecordResult(g.ctx, g.arbiter, gm.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: "foul_after_game", Note: "二歩 found after the game", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v2.Version != 2 {
			t.Fatalf("version %d, want 2", v2.Version)
		}
		if err := g.o.ConfirmResult(g.ctx, g.arbiter, v2.ID); err == nil {
			t.Fatal("the arbiter confirmed its own entry")
		}
		eff, ok, _ := s.EffectiveResult(g.ctx, gm.ID)
		if !ok || eff.Version != 1 {
			t.Fatalf("until v2 is confirmed v1 counts; got %+v ok=%v", eff, ok)
		}
		if err := g.o.ConfirmResult(g.ctx, g.admin, v2.ID); err != nil {
			t.Fatal(err)
		}
		hist, _ := g.o.ResultHistory(g.ctx, gm.ID)
		if len(hist) != 2 || hist[0].Result != office.ResultSenteWin || hist[1].Result != office.ResultGoteWin || !hist[0].Confirmed() || !hist[1].Confirmed() {
			t.Fatalf("history %+v", hist)
		}
		all, _ := s.EffectiveResults(g.ctx, g.event.ID)
		if all[gm.ID].Version != 2 {
			t.Fatalf("effective results %+v", all)
		}
		if started, _ := s.EventHasStartedGame(g.ctx, g.event.ID); !started {
			t.Fatal("recording a result should mark the game started")
		}
	})
}

func TestGames_D_R1_RedoGameSidesByHandicapAndChainDecides(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, handicap string
		swapped        bool // D-R1 for an even game; 003: 上手 stays 上手
	}{
		{"even game swaps colours", "", true},
		{"handicap game keeps the sides", "香落ち", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own databases
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				g := newGameFixture(t, s, "{}")
				gm, err := g.o.CreateGame(g.ctx, g.admin, office.GameInput{EventID: g.event.ID, Label: "1回戦", SenteID: &g.sente.ID, GoteID: &g.gote.ID, Handicap: tc.handicap, AllowanceMinutes: 180})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.o.CreateRedoGameFromRemaining(g.ctx, g.arbiter, gm.ID, time.Hour, time.Hour); !errors.Is(err, office.ErrConflict) {
					t.Fatalf("redo of a game with no redo result: %v", err)
				}
				if _, err := g.o.RecordResult(g.ctx, g.recorder, gm.ID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
					t.Fatal(err)
				}
				if _, _, decided, _ := g.o.DecidingGame(g.ctx, gm.ID); decided {
					t.Fatal("a chain ending in a redo result with no redo game is not decided")
				}
				// Sides other than adjudication's are refused.
				plan, err := g.o.RedoPlan(g.ctx, g.arbiter, gm.ID, adjudication.Times{Sente: adjudication.Duration(61 * time.Minute), Gote: adjudication.Duration(time.Hour)})
				if err != nil {
					t.Fatal(err)
				}
				wrong := plan
				wrong.Players = plan.Players.Swapped()
				if _, err := g.o.CreateRedoGame(g.ctx, g.arbiter, gm.ID, wrong); fieldCodes(err)["sente"] != "adjudication.err.redo_sides" {
					t.Fatalf("wrong sides: %v", err)
				}
				// Sente had 61 minutes left and gote 60: above an hour,
				// each keeps what is left (D-R2, 001 第6条1), and the time
				// follows the player.
				redo, err := g.o.CreateRedoGame(g.ctx, g.arbiter, gm.ID, plan)
				if err != nil {
					t.Fatal(err)
				}
				wantSente, wantGote, senteS, goteS := g.sente.ID, g.gote.ID, 61*60, 60*60
				if tc.swapped {
					wantSente, wantGote, senteS, goteS = g.gote.ID, g.sente.ID, 60*60, 61*60
				}
				if *redo.SentePlayerID != wantSente || *redo.GotePlayerID != wantGote {
					t.Fatalf("redo sides %d/%d, want %d/%d", *redo.SentePlayerID, *redo.GotePlayerID, wantSente, wantGote)
				}
				if redo.RedoNumber != 1 || redo.SenteAllowanceS != senteS || redo.GoteAllowanceS != goteS || *redo.RedoOfID != gm.ID || redo.Handicap != gm.Handicap {
					t.Fatalf("redo game %+v", redo)
				}
				if _, err := g.o.CreateRedoGameFromRemaining(g.ctx, g.arbiter, gm.ID, time.Hour, time.Hour); !errors.Is(err, office.ErrConflict) {
					t.Fatalf("second redo game of the same game: %v", err)
				}
				// D-R3: the redo of a redo is still a redo; the chain is
				// decided by the first decided game.
				if _, err := g.o.RecordResult(g.ctx, g.recorder, redo.ID, office.ResultInput{Result: office.ResultRedo, Reason: "jishogi_redo"}); err != nil {
					t.Fatal(err)
				}
				redo2, err := g.o.CreateRedoGameFromRemaining(g.ctx, g.arbiter, redo.ID, time.Hour, time.Hour)
				if err != nil {
					t.Fatal(err)
				}
				if redo2.RedoNumber != 2 || *redo2.SentePlayerID != g.sente.ID || *redo2.GotePlayerID != g.gote.ID {
					t.Fatalf("second redo %+v: after two redos the sides are the first game's", redo2)
				}
				if _, err := g.o.RecordResult(g.ctx, g.recorder, redo2.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: "resignation"}); err != nil {
					t.Fatal(err)
				}
				last, res, decided, err := g.o.DecidingGame(g.ctx, gm.ID)
				if err != nil || !decided || last.ID != redo2.ID || res.Result != office.ResultGoteWin {
					t.Fatalf("deciding game %d %+v decided=%v err=%v", last.ID, res, decided, err)
				}
			})
		})
	}
}
