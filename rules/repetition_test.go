package rules

import (
	"slices"
	"testing"
)

func usiMoves(t *testing.T, ss ...string) []Move {
	t.Helper()
	out := make([]Move, len(ss))
	for i, s := range ss {
		m, err := ParseUSIMove(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func repeatMoves(t *testing.T, n int, cycle ...string) []Move {
	var out []Move
	for len(out) < n {
		out = append(out, usiMoves(t, cycle...)...)
	}
	return out[:n]
}

// Kings stepping out and back: the start position recurs every 4 plies
// (plies 0, 4, 8, 12), so its 4th occurrence is at ply 12 (D-S1).
var shuffle = []string{"5i4h", "5a4b", "4h5i", "4b5a"}

func TestReplay_D_S1_FourthOccurrenceIsSennichite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		plies     int
		wantAt    int // 0: no 千日手
		wantFirst int
	}{
		{11, 0, 0},
		{12, 12, 0},
	}
	for _, tc := range tests {
		rep := Replay{Start: NewPosition(Even), Moves: repeatMoves(t, tc.plies, shuffle...)}.Run()
		if rep.Foul != nil {
			t.Fatalf("unexpected foul %+v", rep.Foul)
		}
		if tc.wantAt == 0 {
			if rep.Sennichite != nil {
				t.Errorf("%d plies: 千日手 reported at %d, want none", tc.plies, rep.Sennichite.Ply)
			}
			continue
		}
		if rep.Sennichite == nil || rep.Sennichite.Ply != tc.wantAt || rep.Sennichite.FirstPly != tc.wantFirst || rep.Sennichite.Perpetual {
			t.Errorf("%d plies: got %+v, want plain 千日手 at ply %d from ply %d", tc.plies, rep.Sennichite, tc.wantAt, tc.wantFirst)
		}
		if rep.Plies != tc.plies {
			t.Errorf("Plies = %d, want %d", rep.Plies, tc.plies)
		}
	}
}

// D-S3 (000 第8条第3項): play went on past the 4th occurrence at ply 12, so
// that 千日手 is broken and counting restarts after it. The next position
// to occur four times afresh is the one after 5i4h, at plies 13, 17, 21
// and 25.
func TestReplay_D_S3_PlayedThroughCountsAfresh(t *testing.T) {
	t.Parallel()
	rep := Replay{Moves: repeatMoves(t, 24, shuffle...)}.Run()
	if rep.Sennichite != nil || !slices.Equal(rep.PlayedThrough, []int{12}) || rep.Plies != 24 {
		t.Errorf("24 plies: sennichite %+v, played through %v, plies %d; want none, [12], 24", rep.Sennichite, rep.PlayedThrough, rep.Plies)
	}
	rep = Replay{Moves: repeatMoves(t, 25, shuffle...)}.Run()
	if rep.Sennichite == nil || rep.Sennichite.Ply != 25 || rep.Sennichite.FirstPly != 13 {
		t.Errorf("25 plies: got %+v, want 千日手 at 25 counted from 13", rep.Sennichite)
	}
}

// D-S4 (000 第10条第10項): Sente's rook checks on every move while the gote
// king steps between 1a and 1b. Depending on where the cycle starts, the
// 4th occurrence is of the position just after a check, or just after the
// check was answered; both lose for the checking side.
func TestReplay_D_S4_PerpetualCheckLoses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, start string
		moves       []string
		wantAt      int
		inCheck     bool // final position: the check is standing
	}{
		{"ends with the check given", "8k/9/6R2/9/9/9/9/9/K8 b - 1",
			append([]string{"3c3a"}, repeatUSI(12, "1a1b", "3a3b", "1b1a", "3b3a")...), 13, true},
		{"ends just after the check was answered", "6R2/8k/9/9/9/9/9/9/K8 b - 1",
			repeatUSI(12, "3a3b", "1b1a", "3b3a", "1a1b"), 12, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Replay{Start: mustSFEN(t, tc.start), Moves: usiMoves(t, tc.moves...)}.Run()
			if rep.Foul != nil {
				t.Fatalf("unexpected foul %+v", rep.Foul)
			}
			s := rep.Sennichite
			if s == nil || !s.Perpetual || s.Loser != Sente || s.Ply != tc.wantAt {
				t.Fatalf("got %+v, want perpetual check by sente at ply %d", s, tc.wantAt)
			}
			if rep.Final.InCheck() != tc.inCheck {
				t.Errorf("final position in check = %v, want %v", rep.Final.InCheck(), tc.inCheck)
			}
		})
	}
}

func repeatUSI(n int, cycle ...string) []string {
	var out []string
	for len(out) < n {
		out = append(out, cycle...)
	}
	return out[:n]
}

// A perpetual check stops the replay even with moves after it: it is a
// foul (D-X1), not a draw that play can break.
func TestReplay_D_S4_PerpetualStopsReplay(t *testing.T) {
	t.Parallel()
	moves := usiMoves(t, repeatUSI(20, "3a3b", "1b1a", "3b3a", "1a1b")...)
	rep := Replay{Start: mustSFEN(t, "6R2/8k/9/9/9/9/9/9/K8 b - 1"), Moves: moves}.Run()
	if rep.Sennichite == nil || !rep.Sennichite.Perpetual || rep.Plies != 12 {
		t.Errorf("got %+v after %d plies, want perpetual at 12", rep.Sennichite, rep.Plies)
	}
}

// When the checking series started after the first occurrence, not every
// move of the window was a check: a plain 千日手 (004, last answer).
func TestRepetition_D_S4_WindowStartsAtFirstOccurrence(t *testing.T) {
	t.Parallel()
	p := mustSFEN(t, "6R2/8k/9/9/9/9/9/9/K8 b - 1")
	r := NewRepetition(p)
	// Sente first shuffles its king (no check), returning to the start;
	// then checks forever. The start position's occurrences are at plies
	// 0, 4, 8, 12; the window (plies 1..12) holds the quiet king moves.
	moves := usiMoves(t, "9i9h", "1b1c", "9h9i", "1c1b",
		"3a3b", "1b1a", "3b3a", "1a1b", "3a3b", "1b1a", "3b3a", "1a1b")
	var got SennichiteAt
	found := false
	for _, m := range moves {
		if !p.IsLegal(m) {
			t.Fatalf("%s illegal in %s", m.USI(), p.SFEN())
		}
		p.Do(m)
		if at, ok := r.Push(p, p.InCheck()); ok {
			got, found = at, true
		}
	}
	if !found || got.Ply != 12 || got.FirstPly != 0 || got.Perpetual {
		t.Errorf("got %+v (found %v), want plain 千日手 at ply 12", got, found)
	}
}

func TestReplay_D_X1_StopsAtFirstFoul(t *testing.T) {
	t.Parallel()
	// Sente trades into a bishop in hand, drops it, wins a pawn with it,
	// then drops that pawn on file 7 where its own pawn stands: 二歩.
	moves := usiMoves(t, "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "1c1d", "4e3d", "9c9d", "P*7e", "1d1e")
	rep := Replay{Moves: moves}.Run()
	if rep.Foul == nil || rep.Foul.Ply != 9 || rep.Foul.Kind != FoulNifu || rep.Foul.By != Sente {
		t.Fatalf("foul = %+v, want 二歩 by sente at ply 9", rep.Foul)
	}
	if rep.Plies != 8 || rep.Final.MoveNumber() != 9 || len(rep.Checks) != 8 {
		t.Errorf("plies %d, final move number %d, checks %d; want 8, 9, 8", rep.Plies, rep.Final.MoveNumber(), len(rep.Checks))
	}
}

// The tracker takes the check flags as given, so the window rule can be
// tested on its own: the kings' shuffle from the start, with checks
// claimed for one side, for both, or for all but one move.
func TestRepetition_D_S4_WindowRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		checks    func(ply int) bool // did move number ply give check?
		perpetual bool
		loser     Color
	}{
		{"no checks: plain", func(int) bool { return false }, false, Sente},
		{"every gote move checks: gote loses", func(ply int) bool { return ply%2 == 0 }, true, Gote},
		{"every sente move checks: sente loses", func(ply int) bool { return ply%2 == 1 }, true, Sente},
		{"both sides always check: plain, no single side to blame", func(int) bool { return true }, false, Sente},
		{"one sente move in the window was quiet: plain", func(ply int) bool { return ply%2 == 1 && ply != 5 }, false, Sente},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPosition(Even)
			r := NewRepetition(p)
			for i, m := range repeatMoves(t, 12, shuffle...) {
				p.Do(m)
				at, ok := r.Push(p, tc.checks(i+1))
				if ok != (i+1 == 12) {
					t.Fatalf("ply %d: 千日手 reported = %v", i+1, ok)
				}
				if !ok {
					continue
				}
				if at.Perpetual != tc.perpetual || (at.Perpetual && at.Loser != tc.loser) {
					t.Errorf("got %+v, want perpetual=%v loser=%s", at, tc.perpetual, tc.loser)
				}
			}
		})
	}
}
