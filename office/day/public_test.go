package day_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/store"
	"kisen/store/storetest"
)

// The Swiss standings' 負 and 状況 (issue 23 §4): losses counted from the
// boards independently of the standings' own wins; 対局中 for the players
// of an undecided board, 進出圏 for the places within the qualifiers while
// rounds remain, 決勝進出 / 敗退 once the last round is in, 棄権 for a
// withdrawal.
func TestDay_SwissStandingsLossesAndStatus(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		in := f.classInput("A級", day.FormatSwiss)
		in.Rounds, in.Qualifiers = "2", "2"
		c := f.class(in)
		f.present(7, "初段", c.ID)
		f.drawRound(c.ID, 3)
		f.finishRound(c.ID)
		f.drawRound(c.ID, 4)
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		open := v.Rounds[1].Boards[0]
		st, err := v.Standings()
		if err != nil {
			t.Fatal(err)
		}
		lost := map[int64]int{}
		for _, b := range v.Rounds[0].Boards {
			if b.Winner == b.Sente {
				lost[b.Gote]++
			} else {
				lost[b.Sente]++
			}
		}
		zone := 0
		for _, l := range st.Swiss {
			if l.Losses != lost[l.PlayerID] {
				t.Errorf("%s: %d losses, the boards say %d", l.Name, l.Losses, lost[l.PlayerID])
			}
			if l.Shown != day.ShownGame {
				if l.Shown == day.ShownInZone {
					zone++
				}
				continue
			}
			if l.PlayerID == 0 {
				t.Errorf("a playing line without a player")
			}
		}
		if zone > 2 {
			t.Errorf("%d players in the zone, 2 qualify", zone)
		}
		for _, l := range st.Swiss {
			onBoard := false
			for _, b := range v.Rounds[1].Boards {
				if b.Sente == l.PlayerID || b.Gote == l.PlayerID {
					onBoard = true
				}
			}
			if onBoard != (l.Shown == day.ShownGame) {
				t.Errorf("%s: 状況 %q, on an undecided board %v", l.Name, l.Shown, onBoard)
			}
		}
		// A withdrawal mid-round is 棄権 whatever else holds.
		if _, err := f.d.Withdraw(f.ctx, f.admin, f.event.ID, open.Sente); err != nil {
			t.Fatal(err)
		}
		f.finishRound(c.ID)
		v, _ = f.d.ClassView(f.ctx, f.admin, c.ID)
		if st, err = v.Standings(); err != nil {
			t.Fatal(err)
		}
		final := 0
		for _, l := range st.Swiss {
			switch {
			case l.PlayerID == open.Sente && l.Shown != day.ShownWithdrawn:
				t.Errorf("the withdrawn player's 状況 %q", l.Shown)
			case l.Shown == day.ShownFinal:
				final++
			case l.Shown == day.ShownGame || l.Shown == day.ShownInZone:
				t.Errorf("%s: %q after the last round", l.Name, l.Shown)
			}
		}
		qs, err := v.Qualifiers()
		if err != nil {
			t.Fatal(err)
		}
		if final != 2 || len(qs) != 2 {
			t.Fatalf("%d lines 決勝進出, %d qualifiers; want 2", final, len(qs))
		}
		for _, q := range qs {
			if i := slices.IndexFunc(st.Swiss, func(l day.SwissLine) bool { return l.PlayerID == q.PlayerID }); i < 0 || st.Swiss[i].Shown != day.ShownFinal {
				t.Errorf("qualifier %s is not 決勝進出", q.Name)
			}
		}
	})
}

// A round by name lists every player of the round exactly once, in
// reading order, with the board, opponent and colour the board list says.
func TestDay_PublicRoundByName(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.class(f.classInput("B級", day.FormatPools))
		f.present(9, "初段", c.ID)
		f.drawRound(c.ID, 5)
		v, err := f.d.ClassView(f.ctx, f.admin, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		b := v.Rounds[0].Boards[0]
		if err := f.d.EnterBoardResult(f.ctx, f.admin, day.BoardResultInput{ClassID: c.ID, Round: 1, Board: b.Board, GameID: b.Last.ID, Result: office.ResultGoteWin}); err != nil {
			t.Fatal(err)
		}
		v, _ = f.d.ClassView(f.ctx, f.admin, c.ID)
		r, ok := v.PublicRound(1)
		if !ok {
			t.Fatal("round 1 not drawn")
		}
		if _, ok := v.PublicRound(2); ok {
			t.Fatal("round 2 is not drawn")
		}
		if len(r.ByName) != 9 || len(r.Byes)+2*len(r.Boards) != 9 || len(r.Byes) == 0 {
			t.Fatalf("%d by name, %d byes, %d boards", len(r.ByName), len(r.Byes), len(r.Boards))
		}
		if !slices.IsSortedFunc(r.ByName, func(a, b day.PublicByName) int { return strings.Compare(a.Reading, b.Reading) }) {
			t.Error("not in reading order")
		}
		seen := map[int64]bool{}
		for _, l := range r.ByName {
			if seen[l.PlayerID] {
				t.Errorf("%s twice", l.Name)
			}
			seen[l.PlayerID] = true
			if l.Board == 0 {
				if l.Outcome != day.OutcomeBye || !slices.ContainsFunc(r.Byes, func(s day.Seat) bool { return s.PlayerID == l.PlayerID }) {
					t.Errorf("%s: no board and not the bye", l.Name)
				}
				continue
			}
			i := slices.IndexFunc(r.Boards, func(pb day.PublicBoard) bool { return pb.Board == l.Board })
			pb := r.Boards[i]
			if me, other := pb.Sente.PlayerID, pb.Gote.PlayerID; !(me == l.PlayerID && other == l.Opponent.PlayerID || other == l.PlayerID && me == l.Opponent.PlayerID) {
				t.Errorf("%s: board %d is %s–%s, the line says against %s", l.Name, l.Board, pb.Sente.Name, pb.Gote.Name, l.Opponent.Name)
			}
			if pb.Board == b.Board {
				want := day.OutcomeLoss
				if l.PlayerID == b.Gote {
					want = day.OutcomeWin
				}
				if l.Outcome != want {
					t.Errorf("%s on the decided board: %q, want %q", l.Name, l.Outcome, want)
				}
			} else if l.Outcome != day.OutcomePlaying {
				t.Errorf("%s: %q on an open board", l.Name, l.Outcome)
			}
		}
	})
}

// DayViews reads every class as ClassView does, and a draft day is not
// found for the public.
func TestDay_DayViewsMatchClassViews(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		a := f.class(f.classInput("A級", day.FormatSwiss))
		b := f.class(f.classInput("B級", day.FormatPools))
		f.present(10, "初段", a.ID)
		f.present(8, "初段", b.ID)
		f.drawRound(a.ID, 1)
		// Board 1 of round 1 is a 千日手: a redo game decides it, and a
		// second redo stays open on board 2 of round 2 (the round page
		// follows each board's chain, read for that round alone).
		redoOn := func(round int, decide bool) {
			v, err := f.d.ClassView(f.ctx, f.admin, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			bd := v.Rounds[round-1].Boards[0]
			if _, err := f.o.RecordResult(f.ctx, f.admin, bd.Root.ID, office.ResultInput{Result: office.ResultRedo, Reason: "sennichite"}); err != nil {
				t.Fatal(err)
			}
			redo, err := f.o.CreateRedoGameFromRemaining(f.ctx, f.admin, bd.Root.ID, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if decide {
				if _, err := f.o.RecordResult(f.ctx, f.admin, redo.ID, office.ResultInput{Result: office.ResultGoteWin, Reason: office.ReasonResignation}); err != nil {
					t.Fatal(err)
				}
			}
		}
		redoOn(1, true)
		f.finishRound(a.ID)
		f.drawRound(a.ID, 2)
		redoOn(2, false)
		f.drawRound(b.ID, 3)
		if _, _, err := f.d.DayViews(f.ctx, office.Actor{}, f.event.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("the public reads a draft day: %v", err)
		}
		_, views, err := f.d.DayViews(f.ctx, f.admin, f.event.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(views) != 2 {
			t.Fatalf("%d classes", len(views))
		}
		for _, got := range views {
			want, err := f.d.ClassView(f.ctx, f.admin, got.Class.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Entrants) != len(want.Entrants) || len(got.Rounds) != len(want.Rounds) {
				t.Fatalf("%s: %d entrants %d rounds, ClassView %d %d", got.Class.Name, len(got.Entrants), len(got.Rounds), len(want.Entrants), len(want.Rounds))
			}
			gs, _ := got.Standings()
			ws, _ := want.Standings()
			if !slices.Equal(gs.Swiss, ws.Swiss) || !slices.Equal(gs.Pools, ws.Pools) {
				t.Errorf("%s: the standings differ", got.Class.Name)
			}
			for n := 1; n <= len(got.Rounds); n++ {
				gr, _ := got.PublicRound(n)
				wr, _ := want.PublicRound(n)
				if !slices.Equal(gr.Boards, wr.Boards) || !slices.Equal(gr.ByName, wr.ByName) {
					t.Errorf("%s round %d differs", got.Class.Name, n)
				}
				// The round page reads round n alone and says the same.
				rp, err := f.d.PublicRoundOf(f.ctx, f.admin, got.Class.ID, n)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(rp.Round.Boards, wr.Boards) || !slices.Equal(rp.Round.ByName, wr.ByName) || !slices.Equal(rp.Round.Byes, wr.Byes) ||
					rp.Round.Complete != wr.Complete || rp.Current != want.CurrentRound() {
					t.Errorf("%s round %d: the round page differs from ClassView", got.Class.Name, n)
				}
			}
			if _, err := f.d.PublicRoundOf(f.ctx, f.admin, got.Class.ID, len(got.Rounds)+1); !errors.Is(err, office.ErrNotFound) {
				t.Errorf("%s: a round not drawn: %v", got.Class.Name, err)
			}
			if _, err := f.d.PublicRoundOf(f.ctx, office.Actor{}, got.Class.ID, 1); !errors.Is(err, office.ErrNotFound) {
				t.Errorf("%s: the public reads a round of a draft day: %v", got.Class.Name, err)
			}
		}
		// The chains are there to follow: round 1's first board decided by
		// its redo game, round 2's first in its redo.
		wa, err := f.d.ClassView(f.ctx, f.admin, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		r1, _ := wa.PublicRound(1)
		r2, _ := wa.PublicRound(2)
		if !r1.Boards[0].Decided || r1.Boards[0].Winner == 0 || !r2.Boards[0].Redo {
			t.Errorf("redo chains: round 1 board %+v, round 2 board %+v", r1.Boards[0], r2.Boards[0])
		}
	})
}
