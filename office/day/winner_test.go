package day_test

import (
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// Issue 23 §3: a board's result is entered as the winner's name. Before
// any toss the seats are pending (the simulated toss only filled them);
// a winner who is not one of the board's two players is refused with the
// field named and nothing written; after a toss swapped the seats, the
// same winner id lands on the other seat, so the player who won is the
// one recorded whichever seat the toss gave them.
func TestDay_BoardResultByWinnerName(t *testing.T) {
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
		b1, b2 := board(1), board(2)
		if !b1.SeatsPending() || !b2.SeatsPending() {
			t.Fatalf("before any toss: pending %v %v, want both pending", b1.SeatsPending(), b2.SeatsPending())
		}
		// A stranger (board 2's player) as board 1's winner: 422 on winner.
		err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: 1, GameID: b1.Last.ID, Winner: b2.Sente})
		if fieldCodes(err)["winner"] != "day.err.winner_not_on_board" {
			t.Fatalf("a winner from another board: %v, want a field error on winner", err)
		}
		if _, has, err := s.LatestResult(f.ctx, b1.Last.ID); err != nil || has {
			t.Fatalf("after the refused winner: result written %v (%v)", has, err)
		}
		// Board 1, no toss: the gote seat's player won.
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: 1, GameID: b1.Last.ID, Winner: b1.Gote}); err != nil {
			t.Fatal(err)
		}
		if got := board(1); !got.Decided || got.Winner != b1.Gote || got.InForce.Result != office.ResultGoteWin {
			t.Fatalf("board 1: decided %v winner %d result %q; want %d, gote_win", got.Decided, got.Winner, got.InForce.Result, b1.Gote)
		}
		// Board 2: the toss at the board gives sente to the draw's gote
		// (tosser = the draw's sente, all と); then the draw's sente wins.
		a, b := b2.Sente, b2.Gote
		if _, err := f.d.EnterBoardToss(f.ctx, f.admin, day.BoardTossInput{ClassID: c.ID, Round: 1, Board: 2, GameID: b2.Last.ID, Tosser: a, Fu: 0, To: 5}); err != nil {
			t.Fatal(err)
		}
		tossed := board(2)
		if tossed.SeatsPending() || tossed.Sente != b || tossed.Gote != a {
			t.Fatalf("after the toss: pending %v, sente %d gote %d; want seats %d, %d", tossed.SeatsPending(), tossed.Sente, tossed.Gote, b, a)
		}
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: 2, GameID: tossed.Last.ID, Winner: a}); err != nil {
			t.Fatal(err)
		}
		if got := board(2); got.Winner != a || got.InForce.Result != office.ResultGoteWin {
			t.Fatalf("board 2: winner %d result %q; want %d as gote (gote_win)", got.Winner, got.InForce.Result, a)
		}
	})
}
