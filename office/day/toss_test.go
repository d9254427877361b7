package day_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/pairing"
	"kisen/store"
	"kisen/store/storetest"
)

// D-F1..F3 at a day board: a tie (standing pieces not counted) changes
// nothing and must be tossed again by the same player; the deciding toss
// sets the seats (more と: the other player is sente) and the board's
// sente becomes "observed", while the simulated toss stays recorded on the
// pairing. After the decision, after a result, with a stale version, on a
// board whose sente the Swiss colours fix, or with more than five pieces,
// the toss is refused.
func TestDay_D_F1_D_F2_D_F3_ObservedTossAtBoard(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("一般", day.FormatSwiss)
		in.Rounds, in.Club = "3", "ignore"
		c := f.class(in)
		f.present(4, "初段", c.ID)
		f.drawRound(c.ID, 7)
		board := func(n int) day.Board {
			t.Helper()
			v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range v.Rounds[0].Boards {
				if b.Board == n {
					return b
				}
			}
			t.Fatalf("no board %d", n)
			return day.Board{}
		}
		b1 := board(1)
		a, b := b1.Sente, b1.Gote
		if b1.SenteBy != pairing.SenteByFurigoma {
			t.Fatalf("board 1 sente by %q, want the simulated toss", b1.SenteBy)
		}
		simulated := b1.Furigoma
		toss := func(n int, tosser int64, fu, to, version int) error {
			bd := board(n)
			_, err := f.d.EnterBoardToss(f.ctx, f.admin, day.BoardTossInput{ClassID: c.ID, Round: 1, Board: n, GameID: bd.Last.ID, Version: version, Tosser: tosser, Fu: fu, To: to})
			return err
		}
		// D-F2/D-F3: 2 歩, 2 と, one standing: a tie, toss again.
		if err := toss(1, a, 2, 2, 0); err != nil {
			t.Fatal(err)
		}
		if got := board(1); got.Sente != a || got.SenteBy != pairing.SenteByFurigoma || got.Observed == nil || got.Observed.Decided {
			t.Fatalf("after a tie: sente %d by %q observed %+v; want seats unchanged, undecided", got.Sente, got.SenteBy, got.Observed)
		}
		if err := toss(1, b, 3, 2, 0); fieldCodes(err)["tosser"] != "day.err.toss_same_tosser" {
			t.Fatalf("another tosser after a tie: %v", err)
		}
		if err := toss(1, a, 3, 3, 0); fieldCodes(err)["fu"] != "day.err.toss_count" {
			t.Fatalf("six pieces: %v", err)
		}
		// D-F1: 1 歩, 4 と: the other player (not the tosser) is sente.
		if err := toss(1, a, 1, 4, 0); err != nil {
			t.Fatal(err)
		}
		got := board(1)
		if got.Sente != b || got.Gote != a || got.SenteBy != pairing.SenteByObserved || !got.Observed.Decided || len(got.Observed.Tosses) != 2 {
			t.Fatalf("after the deciding toss: sente %d gote %d by %q observed %+v; want %d sente by observed", got.Sente, got.Gote, got.SenteBy, got.Observed, b)
		}
		ps, err := s.DayPairingsOfClass(f.ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Board != nil && *p.Board == 1 && (p.Furigoma != simulated || p.SenteBy != pairing.SenteByFurigoma) {
				t.Errorf("the simulated toss was overwritten: %q %s", p.SenteBy, p.Furigoma)
			}
		}
		if err := toss(1, a, 5, 0, 0); fieldCodes(err)["toss"] != "day.err.toss_decided" {
			t.Fatalf("a toss after the decision: %v", err)
		}
		// The result follows the observed seats.
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: 1, GameID: got.Last.ID, Result: office.ResultSenteWin}); err != nil {
			t.Fatal(err)
		}
		if w := board(1).Winner; w != b {
			t.Errorf("winner %d, want the observed sente %d", w, b)
		}
		// Board 2: a result entered meanwhile answers 409; after it, refused.
		b2 := board(2)
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: 2, GameID: b2.Last.ID, Result: office.ResultGoteWin}); err != nil {
			t.Fatal(err)
		}
		var stale *office.StaleError
		if err := toss(2, b2.Sente, 4, 1, 0); !errors.As(err, &stale) || !errors.Is(err, office.ErrConflict) {
			t.Fatalf("a toss with the version seen before the result: %v; want 409", err)
		}
		if err := toss(2, b2.Sente, 4, 1, 1); fieldCodes(err)["toss"] != "day.err.toss_after_result" {
			t.Fatalf("a toss after the result: %v", err)
		}
		// The Swiss draw's colours fix sente: no toss.
		in2 := f.classInput("色", day.FormatSwiss)
		in2.Rounds, in2.Club, in2.Handicap = "3", "ignore", day.HandicapBalanced
		c2 := f.class(in2)
		f.present(2, "二段", c2.ID)
		f.drawRound(c2.ID, 3)
		v2, err := f.d.ClassView(f.ctx, f.admin, c2.ID)
		if err != nil {
			t.Fatal(err)
		}
		bb := v2.Rounds[0].Boards[0]
		_, err = f.d.EnterBoardToss(f.ctx, f.admin, day.BoardTossInput{ClassID: c2.ID, Round: 1, Board: bb.Board, GameID: bb.Last.ID, Tosser: bb.Sente, Fu: 4, To: 1})
		if fieldCodes(err)["toss"] != "day.err.toss_not_by_furigoma" {
			t.Fatalf("a toss on a board the draw colours: %v", err)
		}
	})
}
