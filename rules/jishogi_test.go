package rules

import "testing"

func TestJishogiPoints_D_J_Counting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sfen string
		h          Handicap
		sente      int
		gote       int
	}{
		// A full set is 54 points, 27 a side.
		{"even start", evenSFEN, Even, 27, 27},
		// Pieces in hand count; promoted pieces count as their kind.
		{"hand and promotions", "4k4/9/9/9/9/9/9/9/+R+B2K4 b BG2Pr2p 1", Even, 5 + 5 + 5 + 1 + 2, 5 + 2},
		// 004's example: in 角落ち 上手 with one major and 14 minor pieces
		// has 24 points, the dropped bishop counted as 上手's.
		{"004 角落ち example", "4k4/9/9/9/9/9/9/9/4K4 b - 1", BishopHandicap, 0, 5},
		{"004 角落ち example with pieces", "4k4/9/9/9/9/9/9/9/4K4 b r4gs9p 1", BishopHandicap, 0, 24},
		{"十枚落ち credits ten pieces", "4k4/9/9/9/9/9/9/9/4K4 b - 1", TenPieces, 0, 5 + 5 + 8},
	}
	for _, tc := range tests {
		p := mustSFEN(t, tc.sfen)
		if got := p.JishogiPoints(Sente, tc.h); got != tc.sente {
			t.Errorf("%s: sente %d points, want %d", tc.name, got, tc.sente)
		}
		if got := p.JishogiPoints(Gote, tc.h); got != tc.gote {
			t.Errorf("%s: gote %d points, want %d", tc.name, got, tc.gote)
		}
	}
	// Handicap starts: 上手's total is that of a full side.
	for _, h := range AllHandicaps() {
		if got := NewPosition(h).JishogiPoints(Gote, h); got != 27 {
			t.Errorf("%s: 上手 has %d points at the start, want 27", h.Name(), got)
		}
	}
}

// Sente's king on 5b with a rook, a bishop and nine tokins in the enemy
// camp: 11 pieces, 19 points on the board; the hand makes up the rest.
const declareBoard = "9/R3K3B/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b "

// Gote's mirror image, for declarations by gote.
const declareBoardGote = "4K4/9/9/9/9/9/+p+p+p+p+p+p+p+p+p/r3k3b/9 w "

func TestDeclare_D_J3_Judgement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		sfen     string
		rule     DeclarationRule
		h        Handicap
		timeLeft bool
		ply      int
		want     DeclarationResult
		failed   string
		points   int
		inCamp   int
	}{
		{"federation: 31 wins", declareBoard + "4G8P 1", DeclarationFederation, Even, true, 200, DeclarationWin, "", 31, 11},
		{"federation: 30 is a redo", declareBoard + "4G7P 1", DeclarationFederation, Even, true, 200, DeclarationRedo, "", 30, 11},
		{"federation: 24 is a redo", declareBoard + "4GP 1", DeclarationFederation, Even, true, 200, DeclarationRedo, "", 24, 11},
		{"federation: 23 loses", declareBoard + "4G 1", DeclarationFederation, Even, true, 200, DeclarationLose, CondTooFewPoints, 23, 11},
		{"federation: no clock condition", declareBoard + "4G8P 1", DeclarationFederation, Even, false, 200, DeclarationWin, "", 31, 11},
		{"27点法: sente 28 wins", declareBoard + "4G5P 1", Declaration27, Even, true, 200, DeclarationWin, "", 28, 11},
		{"27点法: sente 27 loses", declareBoard + "4G4P 1", Declaration27, Even, true, 200, DeclarationLose, CondTooFewPoints, 27, 11},
		{"27点法: gote 27 wins", declareBoardGote + "4g4p 1", Declaration27, Even, true, 200, DeclarationWin, "", 27, 11},
		{"27点法: gote 26 loses", declareBoardGote + "4g3p 1", Declaration27, Even, true, 200, DeclarationLose, CondTooFewPoints, 26, 11},
		{"27点法: no time left loses", declareBoard + "4G8P 1", Declaration27, Even, false, 200, DeclarationLose, CondNoTimeLeft, 31, 11},
		{"move 500 reached", declareBoard + "4G8P 1", DeclarationFederation, Even, true, 500, DeclarationLose, CondNotBefore500, 31, 11},
		{"move 499 is still in time", declareBoard + "4G8P 1", DeclarationFederation, Even, true, 499, DeclarationWin, "", 31, 11},
		{"king outside the camp", "9/R7B/+P+P+P+P+P+P+P+P+P/4K4/9/9/9/9/4k4 b 4G8P 1", DeclarationFederation, Even, true, 200, DeclarationLose, CondKingNotInCamp, 31, 11},
		{"nine pieces in camp", "9/R3K3B/2+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 4G10P 1", DeclarationFederation, Even, true, 200, DeclarationLose, CondTooFewPieces, 31, 9},
		// 001/004: the declarer must NOT be in check (000's "in check" is a misprint).
		{"declarer in check", "4g4/R3K3B/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/4k4 b 3G8P 1", DeclarationFederation, Even, true, 200, DeclarationLose, CondInCheck, 30, 11},
		// 上手 (gote) in 角落ち is credited the removed bishop.
		{"角落ち: 上手 credited the bishop", declareBoardGote + "4g 1", DeclarationFederation, BishopHandicap, true, 200, DeclarationRedo, "", 28, 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mustSFEN(t, tc.sfen).Declare(tc.rule, tc.h, tc.timeLeft, tc.ply)
			if v.Result != tc.want || v.FailedCondition != tc.failed || v.Points != tc.points || v.InCamp != tc.inCamp {
				t.Errorf("got %s/%q points %d in camp %d; want %s/%q points %d in camp %d",
					v.Result, v.FailedCondition, v.Points, v.InCamp, tc.want, tc.failed, tc.points, tc.inCamp)
			}
		})
	}
}
