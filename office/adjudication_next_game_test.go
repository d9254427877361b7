package office_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"kisen/adjudication"
	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// nextGameFixture is a game between 先手 太郎 (A) and 後手 次郎 (B) that gote
// resigned after sente's 3rd move, and a third player C of the same event.
type nextGameFixture struct {
	*gameFixture
	claimed store.Game
	third   store.Player
}

func newNextGameFixture(t *testing.T, s *store.Store) *nextGameFixture {
	t.Helper()
	g := newGameFixture(t, s, "{}")
	f := &nextGameFixture{gameFixture: g, claimed: g.game()}
	var err error
	if f.third, err = g.o.CreatePlayer(g.ctx, g.admin, office.PlayerInput{Name: "三番 三郎", Reading: "さんばん さぶろう", Kind: "professional", Rank: "四段"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, f.claimed.ID, office.RecordInput{Text: resigned}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.o.EndGame(g.ctx, g.recorder, f.claimed.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
		t.Fatal(err)
	}
	g.clock.Advance(time.Hour)
	return f
}

// next creates a game of the event between sente and gote.
func (f *nextGameFixture) next(label string, sente, gote int64) store.Game {
	f.t.Helper()
	gm, err := f.o.CreateGame(f.ctx, f.admin, office.GameInput{EventID: f.event.ID, Label: label, SenteID: &sente, GoteID: &gote, AllowanceMinutes: 180})
	if err != nil {
		f.t.Fatal(err)
	}
	return gm
}

// start gives gm its first record now: the game has begun.
func (f *nextGameFixture) start(gm store.Game) time.Time {
	f.t.Helper()
	at := f.clock.Now()
	if _, _, err := f.o.SaveRecord(f.ctx, f.recorder, gm.ID, office.RecordInput{Text: "position startpos moves 7g7f"}); err != nil {
		f.t.Fatal(err)
	}
	return at
}

// claim is sente's two moves in a row (D-X1) found after the game, which
// alone makes sente lose (D-X3).
func (f *nextGameFixture) claim(over, reason string) (office.Ended, error) {
	return f.o.ClaimFoul(f.ctx, f.arbiter, f.claimed.ID, office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Ply: "3", Found: "after",
		NextGame: over, NextGameReason: reason, Version: 1})
}

// basis is the next-game basis the newest version's claim was stored with,
// read back from the stored facts.
func (f *nextGameFixture) basis() adjudication.NextGameBasis {
	f.t.Helper()
	facts, _, ok, err := f.o.LastAdjudication(f.ctx, f.claimed.ID)
	if err != nil || !ok || len(facts.Fouls) != 1 || facts.Fouls[0].NextGame == nil {
		f.t.Fatalf("stored claim: %+v ok=%v err=%v", facts.Fouls, ok, err)
	}
	return *facts.Fouls[0].NextGame
}

func TestClaimFoul_000_10_5_DerivedStartedWhenTheOffendersNextGameBegan(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newNextGameFixture(t, s)
		h := f.next("2回戦", f.third.ID, f.sente.ID) // the offender's next game
		at := f.start(h)
		f.clock.Advance(30 * time.Minute)

		ng, err := f.o.ClaimNextGame(f.ctx, f.arbiter, f.claimed.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !ng.Started || ng.Game.ID != h.ID || !ng.StartedAt.Equal(at) || ng.Sente != "三番 三郎" || ng.Gote != "先手 太郎" || ng.Game.Label != "2回戦" {
			t.Fatalf("found %+v, want game %d (三番 三郎 vs 先手 太郎, 2回戦) started %s", ng, h.ID, at)
		}
		if _, err := f.o.ClaimNextGame(f.ctx, f.recorder, f.claimed.ID); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a recorder reads the claim form's fact: %v", err)
		}

		end, err := f.claim(office.NextGameAsFound, "")
		if err != nil {
			t.Fatal(err)
		}
		// 第10条第5項: the result at the end stands although sente fouled.
		if end.Outcome.Result != adjudication.SenteWin {
			t.Fatalf("result %s, want sente_win to stand (%+v)", end.Outcome.Result, end.Outcome)
		}
		if !hasRejection(end.Outcome, "next_game_started") {
			t.Fatalf("the claim is not set aside for the next game: %+v", end.Outcome.Rejected)
		}
		b := f.basis()
		if b.Source != adjudication.NextGameDerived || !b.Found || b.GameID != strconv.FormatInt(h.ID, 10) || b.StartedAt == nil || !b.StartedAt.Equal(at) || b.Reason != "" {
			t.Fatalf("basis %+v", b)
		}
		if !b.AsOf.Equal(f.clock.Now()) {
			t.Fatalf("asked as of %s, want the claim's time %s", b.AsOf, f.clock.Now())
		}
	})
}

func TestClaimFoul_000_10_5_DerivedStartedWhenTheClaimantsNextGameBegan(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newNextGameFixture(t, s)
		h := f.next("2回戦", f.gote.ID, f.third.ID) // the opponent's (claimant's) next game
		f.start(h)
		end, err := f.claim(office.NextGameAsFound, "")
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome.Result != adjudication.SenteWin || f.basis().GameID != strconv.FormatInt(h.ID, 10) {
			t.Fatalf("result %s basis %+v, want the result to stand on game %d", end.Outcome.Result, f.basis(), h.ID)
		}
	})
}

func TestClaimFoul_000_10_5_DerivedNotStarted(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newNextGameFixture(t, s)
		f.next("2回戦", f.third.ID, f.sente.ID) // scheduled, not begun
		// A game of neither player that has begun is no next game.
		stranger, err := f.o.CreatePlayer(f.ctx, f.admin, office.PlayerInput{Name: "四番 四郎", Reading: "よんばん しろう", Kind: "professional", Rank: "四段"})
		if err != nil {
			t.Fatal(err)
		}
		f.start(f.next("2回戦", f.third.ID, stranger.ID))
		// A game marked as begun after the claim's time is not begun yet.
		later := f.next("3回戦", f.sente.ID, stranger.ID)
		if err := s.MarkGameStarted(f.ctx, later.ID, f.clock.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}

		ng, err := f.o.ClaimNextGame(f.ctx, f.arbiter, f.claimed.ID)
		if err != nil || ng.Started {
			t.Fatalf("found %+v (%v), want nothing begun", ng, err)
		}
		end, err := f.claim(office.NextGameAsFound, "")
		if err != nil {
			t.Fatal(err)
		}
		// 第10条第3項: found after the game, the offender loses.
		if end.Outcome.Result != adjudication.GoteWin {
			t.Fatalf("result %s, want gote_win (%+v)", end.Outcome.Result, end.Outcome)
		}
		if b := f.basis(); b.Source != adjudication.NextGameDerived || b.Found || b.GameID != "" || b.StartedAt != nil {
			t.Fatalf("basis %+v", b)
		}
	})
}

func TestClaimFoul_000_10_5_RedoGameIsNotTheNextGame(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		gm := g.game()
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, gm.ID, office.RecordInput{Text: shuffle()}); err != nil {
			t.Fatal(err)
		}
		end, err := g.o.EndGame(g.ctx, g.arbiter, gm.ID, office.EndInput{Kind: "sennichite", RemainingSente: "50", RemainingGote: "120"})
		if err != nil || end.Redo == nil {
			t.Fatalf("no redo game: %v", err)
		}
		// The 指し直し局 begins an hour later (D-R1: the same game).
		g.clock.Advance(time.Hour)
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, end.Redo.ID, office.RecordInput{Text: "position startpos moves 7g7f"}); err != nil {
			t.Fatal(err)
		}
		g.clock.Advance(time.Minute)
		ng, err := g.o.ClaimNextGame(g.ctx, g.arbiter, gm.ID)
		if err != nil || ng.Started {
			t.Fatalf("found %+v (%v): the redo game counted as the next game", ng, err)
		}
		// Sente's two moves in a row, found after the 千日手, lose the game.
		claim, err := g.o.ClaimFoul(g.ctx, g.arbiter, gm.ID, office.FoulClaimInput{Kind: "two_moves", Offender: "sente", Ply: "3", Found: "after", Version: 1})
		if err != nil {
			t.Fatal(err)
		}
		if claim.Outcome.Result != adjudication.GoteWin {
			t.Fatalf("result %s, want gote_win: the redo game is not the next game (%+v)", claim.Outcome.Result, claim.Outcome)
		}
	})
}

func TestClaimFoul_000_10_5_OverrideNeedsAReason(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newNextGameFixture(t, s)
		h := f.next("2回戦", f.third.ID, f.sente.ID)
		f.start(h)
		count := func() (int, int) {
			hist, err := s.ResultHistory(f.ctx, f.claimed.ID)
			if err != nil {
				t.Fatal(err)
			}
			adj, err := s.GameAdjudications(f.ctx, f.claimed.ID)
			if err != nil {
				t.Fatal(err)
			}
			return len(hist), len(adj)
		}
		h0, a0 := count()
		for _, over := range []string{office.NextGameNotStarted, office.NextGameStarted} {
			_, err := f.claim(over, "  ")
			if got := fieldCodes(err); got["next_game_reason"] != "adjudication.err.next_game_reason" {
				t.Fatalf("override %s without a reason: %v (%v)", over, got, err)
			}
			var v *office.ValidationError
			if !errors.As(err, &v) {
				t.Fatalf("override %s without a reason is not a validation error (422): %v", over, err)
			}
		}
		if _, err := f.claim("maybe", "理由"); fieldCodes(err)["next_game"] != "adjudication.err.next_game" {
			t.Fatalf("an unknown override: %v", err)
		}
		if h1, a1 := count(); h1 != h0 || a1 != a0 {
			t.Fatalf("a refused claim wrote: versions %d→%d, facts %d→%d", h0, h1, a0, a1)
		}

		// With a reason the arbiter's value decides, and the log keeps
		// what was found beside it.
		end, err := f.claim(office.NextGameNotStarted, "次の対局の開始前に申し出があった")
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome.Result != adjudication.GoteWin {
			t.Fatalf("result %s, want gote_win under the override", end.Outcome.Result)
		}
		b := f.basis()
		if b.Source != adjudication.NextGameOverridden || !b.Found || b.GameID != strconv.FormatInt(h.ID, 10) || b.Reason != "次の対局の開始前に申し出があった" {
			t.Fatalf("basis %+v", b)
		}
		if h1, a1 := count(); h1 != h0+1 || a1 != a0+1 {
			t.Fatalf("the claim appended versions %d→%d, facts %d→%d; want one each", h0, h1, a0, a1)
		}
		bases, err := f.o.ClaimBases(f.ctx, f.claimed.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(bases) != 1 || bases[end.Result.ID].Source != adjudication.NextGameOverridden || bases[end.Result.ID].Started ||
			bases[end.Result.ID].NextGameID != h.ID {
			t.Fatalf("ruling log %+v, want version %d overridden to not started", bases, end.Result.ID)
		}
	})
}

// Claims stored with the arbiter's checkbox (facts with next_game_started
// and no basis) keep deciding as before when the game is decided again.
func TestClaimFoul_000_10_5_CheckboxClaimsStillDecide(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newNextGameFixture(t, s)
		last, ok, err := s.LatestGameAdjudication(f.ctx, f.claimed.ID)
		if err != nil || !ok {
			t.Fatal(err)
		}
		facts, err := adjudication.ParseGame([]byte(last.Facts))
		if err != nil {
			t.Fatal(err)
		}
		sente := adjudication.Sente
		facts.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulTwoMoves, Offender: &sente, Ply: 3, Found: adjudication.FoundAfter, NextGameStarted: true}}
		old := `{"result":"sente_win","reason":"resignation"}`
		rv := &store.GameResult{GameID: f.claimed.ID, Result: office.ResultSenteWin, Reason: office.ReasonResignation, Outcome: old, EnteredBy: f.arbiter.UserID, EnteredAt: f.clock.Now()}
		if err := s.AppendResult(f.ctx, rv); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddGameAdjudication(f.ctx, &store.GameAdjudication{GameID: f.claimed.ID, ResultID: rv.ID, Facts: string(data), CreatedAt: f.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		// A second claim with nothing begun, one that cannot count (D-X4:
		// 待った after the game): the old claim still stands aside for its
		// ticked box, so sente's two moves do not turn the result.
		end, err := f.o.ClaimFoul(f.ctx, f.arbiter, f.claimed.ID, office.FoulClaimInput{Kind: "matta", Offender: "gote", Ply: "2", Found: "after", Version: rv.Version})
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome.Result != adjudication.SenteWin || !hasRejection(end.Outcome, "next_game_started") {
			t.Fatalf("result %s, want sente_win with the checkbox claim set aside (%+v)", end.Outcome.Result, end.Outcome)
		}
		bases, err := f.o.ClaimBases(f.ctx, f.claimed.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := bases[rv.ID]; ok || len(bases) != 1 {
			t.Fatalf("log %+v: the checkbox claim has no basis, the new one has", bases)
		}
	})
}

func hasRejection(o adjudication.Outcome, code string) bool {
	for _, r := range o.Rejected {
		if r.Code == code {
			return true
		}
	}
	return false
}

// The next game is next in time (000 第10条第5項): a later-round game
// played before the postponed claimed game began is not it.
func TestClaimFoul_000_10_5_AGamePlayedBeforeThePostponedGameIsNotNext(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		g := newGameFixture(t, s, "{}")
		claimed := g.game()
		f := &nextGameFixture{gameFixture: g, claimed: claimed}
		var err error
		if f.third, err = g.o.CreatePlayer(g.ctx, g.admin, office.PlayerInput{Name: "三番 三郎", Reading: "さんばん さぶろう", Kind: "professional", Rank: "四段"}); err != nil {
			t.Fatal(err)
		}
		// Round 2 is played first; the claimed round-1 game was postponed.
		f.start(f.next("2回戦", f.third.ID, f.sente.ID))
		g.clock.Advance(24 * time.Hour)
		if _, _, err := g.o.SaveRecord(g.ctx, g.recorder, claimed.ID, office.RecordInput{Text: resigned}); err != nil {
			t.Fatal(err)
		}
		if _, err := g.o.EndGame(g.ctx, g.recorder, claimed.ID, office.EndInput{Kind: "resign", By: "gote"}); err != nil {
			t.Fatal(err)
		}
		g.clock.Advance(time.Hour)
		end, err := f.claim(office.NextGameAsFound, "")
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome.Result != adjudication.GoteWin || f.basis().Found {
			t.Fatalf("result %s basis %+v: a game played before the claimed one counted as next", end.Outcome.Result, f.basis())
		}
	})
}
