package rules

import (
	"strings"
	"testing"
)

func TestParseSFEN_RejectsWithReason(t *testing.T) {
	t.Parallel()
	tests := []struct{ sfen, mention string }{
		{"", "4 space-separated fields"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", "4 space-separated fields"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", "want 9 ranks"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", "rank 9: 8 squares"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R2/LNSGKGSNL b - 1", "more than 9"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1", "unknown piece letter"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1", "cannot be promoted"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", "side to move"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0", "move number"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x", "move number"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1", "not a piece that can be held"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 1P 1", "want 2..18"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b PP 1", "appears twice"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1", "19 pawns"},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P3 1", "not followed by a piece"},
		{"4k4/9/9/9/9/9/9/9/3KK4 b - 1", "two kings"},
		{"P3k4/9/9/9/9/9/9/9/4K4 b - 1", "行き所のない駒"},
		{"4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1", "二歩"},
		{"4k4/9/9/9/4R4/9/9/9/4K4 b - 1", "not to move, is in check"},
	}
	for _, tc := range tests {
		_, err := ParseSFEN(tc.sfen)
		if err == nil {
			t.Errorf("ParseSFEN(%q) accepted", tc.sfen)
			continue
		}
		if !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseSFEN(%q) error %q does not mention %q", tc.sfen, err, tc.mention)
		}
	}
}

func TestParseSFEN_RoundTripAndAccessors(t *testing.T) {
	t.Parallel()
	p := mustSFEN(t, "ln1g3+Rl/2s1k4/p1pp1p2p/4p1p2/1p7/2P1P4/PP1PS1P1P/2G2G3/LN2K3L w BG2SNPbnp 42")
	if got := p.SFEN(); got != "ln1g3+Rl/2s1k4/p1pp1p2p/4p1p2/1p7/2P1P4/PP1PS1P1P/2G2G3/LN2K3L w BG2SNPbnp 42" {
		t.Errorf("SFEN() = %s", got)
	}
	if p.SideToMove() != Gote || p.MoveNumber() != 42 {
		t.Errorf("side %s move %d", p.SideToMove(), p.MoveNumber())
	}
	if got := p.At(NewSquare(2, 1)); got != NewPiece(Sente, Dragon) {
		t.Errorf("At(21) = %s, want +R", got)
	}
	if got := p.At(NewSquare(5, 2)); got != NewPiece(Gote, King) {
		t.Errorf("At(52) = %s, want k", got)
	}
	if p.Hand(Sente, Silver) != 2 || p.Hand(Sente, Pawn) != 1 || p.Hand(Gote, Pawn) != 1 || p.Hand(Gote, Rook) != 0 {
		t.Error("hand counts wrong")
	}
	// Hands in any order are accepted and written canonically.
	q := mustSFEN(t, "4k4/9/9/9/9/9/9/9/4K4 b p2PR 1")
	if q.SFEN() != "4k4/9/9/9/9/9/9/9/4K4 b R2Pp 1" {
		t.Errorf("canonical hands: %s", q.SFEN())
	}
	if mustSFEN(t, "startpos").SFEN() != evenSFEN {
		t.Error("startpos")
	}
}

func TestKey_D_S1_IgnoresMoveNumberOnly(t *testing.T) {
	t.Parallel()
	base := mustSFEN(t, "4k4/9/9/9/9/9/9/9/4K4 b P 1")
	tests := []struct {
		sfen string
		same bool
	}{
		{"4k4/9/9/9/9/9/9/9/4K4 b P 77", true},
		{"4k4/9/9/9/9/9/9/9/4K4 w P 1", false},
		{"4k4/9/9/9/9/9/9/9/4K4 b p 1", false},
		{"4k4/9/9/9/9/9/9/9/4K4 b 2P 1", false},
		{"4k4/9/9/9/9/9/9/9/3K5 b P 1", false},
	}
	for _, tc := range tests {
		if got := mustSFEN(t, tc.sfen).Key() == base.Key(); got != tc.same {
			t.Errorf("%s: same key = %v, want %v", tc.sfen, got, tc.same)
		}
	}
}

// Standard handicap setups, as shogi software exchanges them (e.g. the
// Sfens table of github.com/yaneurao/MyShogi); 香落ち takes 上手's left
// lance, 1一 (D-H, 004).
func TestHandicap_D_H_StartPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sfen string
		removed    int
	}{
		{"平手", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 0},
		{"香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
		{"右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
		{"角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
		{"飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 1},
		{"飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 2},
		{"二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 2},
		{"三枚落ち", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 3},
		{"四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 4},
		{"五枚落ち", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 5},
		{"左五枚落ち", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 5},
		{"六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 6},
		{"左七枚落ち", "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 7},
		{"右七枚落ち", "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 7},
		{"八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 8},
		{"十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 10},
	}
	if len(AllHandicaps()) != len(tests) {
		t.Fatalf("AllHandicaps has %d starts, want %d", len(AllHandicaps()), len(tests))
	}
	for _, tc := range tests {
		h, ok := HandicapByName(tc.name)
		if !ok {
			t.Errorf("HandicapByName(%s) not found", tc.name)
			continue
		}
		if h.Name() != tc.name || h.StartSFEN() != tc.sfen || h.EnglishName() == "" {
			t.Errorf("%s: name %s, sfen %s", tc.name, h.Name(), h.StartSFEN())
		}
		p := NewPosition(h)
		if p.SFEN() != tc.sfen {
			t.Errorf("%s: NewPosition = %s", tc.name, p.SFEN())
		}
		// The removed pieces are exactly what is missing from 上手's side.
		even := NewPosition(Even)
		var missing [numPieceTypes]int
		for s := range Square(NumSquares) {
			if pc := even.At(s); pc != NoPiece && pc.Color() == Gote && p.At(s) != pc {
				missing[pc.Type()]++
			}
		}
		removed := h.RemovedPieces()
		if len(removed) != tc.removed {
			t.Errorf("%s: %d removed pieces, want %d", tc.name, len(removed), tc.removed)
		}
		for _, pt := range removed {
			missing[pt]--
		}
		for pt, n := range missing {
			if n != 0 {
				t.Errorf("%s: RemovedPieces disagrees with the board for %s", tc.name, PieceType(pt))
			}
		}
		if h != Even && p.SideToMove() != Gote {
			t.Errorf("%s: 上手 (gote) must move first", tc.name)
		}
	}
	if _, ok := HandicapByName("九枚落ち"); ok {
		t.Error("unknown handicap name accepted")
	}
	// 香落ち removes the lance on 1一, 右香落ち the one on 9一.
	if NewPosition(LanceHandicap).At(NewSquare(1, 1)) != NoPiece || NewPosition(LanceHandicap).At(NewSquare(9, 1)) == NoPiece {
		t.Error("香落ち must remove 上手's left lance on 1一")
	}
}

func TestParseUSIMove(t *testing.T) {
	t.Parallel()
	good := map[string]Move{
		"7g7f":  NewMove(NewSquare(7, 7), NewSquare(7, 6), false),
		"8h2b+": NewMove(NewSquare(8, 8), NewSquare(2, 2), true),
		"P*5e":  NewDrop(Pawn, NewSquare(5, 5)),
		"R*1a":  NewDrop(Rook, NewSquare(1, 1)),
	}
	for s, want := range good {
		m, err := ParseUSIMove(s)
		if err != nil || m != want || m.USI() != s {
			t.Errorf("ParseUSIMove(%q) = %v, %v", s, m, err)
		}
	}
	for _, s := range []string{"", "7g", "7g7f=", "0a1a", "7j7f", "K*5e", "p*5e", "P*5j", "7g7g", "7g7f++"} {
		if _, err := ParseUSIMove(s); err == nil {
			t.Errorf("ParseUSIMove(%q) accepted", s)
		}
	}
	m := NewDrop(Gold, NewSquare(5, 5))
	if !m.IsDrop() || m.DropType() != Gold || m.From() != NoSquare || m.To() != NewSquare(5, 5) {
		t.Error("drop accessors")
	}
}

func TestSquare(t *testing.T) {
	t.Parallel()
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			s := NewSquare(f, r)
			if s.File() != f || s.Rank() != r || s.String() != string([]byte{byte('0' + f), byte('0' + r)}) {
				t.Errorf("NewSquare(%d,%d) = %v (%d,%d)", f, r, s, s.File(), s.Rank())
			}
		}
	}
	if NewSquare(0, 1) != NoSquare || NewSquare(1, 10) != NoSquare {
		t.Error("off-board squares must be NoSquare")
	}
}

func TestPieceType(t *testing.T) {
	t.Parallel()
	for _, pt := range handTypes {
		if pt.Promoted().Unpromoted() != pt {
			t.Errorf("%s round trip", pt)
		}
	}
	if Gold.CanPromote() || King.CanPromote() || Dragon.CanPromote() || !Silver.CanPromote() {
		t.Error("CanPromote")
	}
	if Gold.Promoted() != Gold || !Horse.IsPromoted() || Rook.IsPromoted() {
		t.Error("Promoted/IsPromoted")
	}
	if Sente.Opponent() != Gote || Gote.Opponent() != Sente {
		t.Error("Opponent")
	}
	pc := NewPiece(Gote, ProSilver)
	if pc.Color() != Gote || pc.Type() != ProSilver || pc.IsEmpty() || pc.String() != "+s" {
		t.Errorf("piece %v", pc)
	}
}
