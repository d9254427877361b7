package kifu

import (
	"testing"

	"kisen/rules"
)

// sameKIFMove checks that the KIF move reader (fast path first) gives
// exactly what the general notation path gives: the same move and piece,
// or the same error.
func sameKIFMove(t *testing.T, s string, prev rules.Move) {
	t.Helper()
	got, gotErr := parseKIFMoveParts(s, prev)
	want, wantErr := parseKIFMoveGeneral(s, prev)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("%q (prev %s): error %v, general path %v", s, prev.USI(), gotErr, wantErr)
	}
	if got != want {
		t.Fatalf("%q (prev %s): %s %s, general path %s %s", s, prev.USI(), got.move.USI(), got.piece.Kanji(), want.move.USI(), want.piece.Kanji())
	}
	if fast, ok := fastKIFMove(s, prev); ok && (wantErr != nil || fast != want) {
		t.Fatalf("%q: fast path accepted what the general path reads as %v %v", s, want, wantErr)
	}
}

// TestFastKIFMove_D_N_SameAsGeneralParser: the spellings KIF files use
// take the fast path, and every spelling, taken or not, reads as the
// general notation parser (D-N) reads it.
func TestFastKIFMove_D_N_SameAsGeneralParser(t *testing.T) {
	t.Parallel()
	prev := rules.NewMove(rules.NewSquare(7, 7), rules.NewSquare(7, 6), false)
	tests := []struct {
		text string
		fast bool // the fast path should take it
	}{
		{"７六歩(77)", true},
		{"76歩(77)", true},
		{"７六歩成(77)", true},
		{"７六歩不成(77)", true},
		{"７六歩生(77)", true},
		{"同　歩(77)", true},
		{"同歩(77)", true},
		{"同 　歩(77)", true},
		{"５五角打", true},
		{"１二成香(13)", true},
		{"１二成桂(24)", true},
		{"１二成銀(23)", true},
		{"１二杏(13)", true},
		{"５五龍(54)", true},
		{"５五竜(54)", true},
		{"５九王(58)", true},
		{"５九玉(58)", true},
		{"５五と(56)", true},
		{"５五馬(44)", true},
		{"▲７六歩(77)", false},
		{"７六歩右(77)", false},
		{"７六歩上(77)", false},
		{"76同歩(77)", false},
		{"７六歩 (77)", false},
		{"７六歩(07)", false},
		{"７六歩(7)", false},
		{"７六歩", false},
		{"７六成(77)", false},
		{"５五と打", false},
		{"５五角打(44)", false},
		{"０六歩(77)", false},
		{"七六歩(77)", true},
		{"", false},
		{"同", false},
		{"７", false},
	}
	for _, tc := range tests {
		sameKIFMove(t, tc.text, prev)
		sameKIFMove(t, tc.text, rules.NoMove)
		if _, ok := fastKIFMove(tc.text, prev); ok != tc.fast {
			t.Errorf("%q: fast path taken = %v, want %v", tc.text, ok, tc.fast)
		}
	}
}

// TestFastKIFMove_D_N_WrittenMovesTakeFastPath: every move of generated
// games, as the KIF writer spells it, takes the fast path and reads back
// as the move written.
func TestFastKIFMove_D_N_WrittenMovesTakeFastPath(t *testing.T) {
	t.Parallel()
	moves := 0
	for seed := range uint64(40) {
		h := rules.AllHandicaps()[seed%uint64(len(rules.AllHandicaps()))]
		rec := genRecord(seed, genOptions{handicap: h, plies: 150})
		pos := rules.NewPosition(h)
		prev := rules.NoMove
		for _, n := range rec.Main.Nodes {
			m := n.Move
			pc := pos.At(m.From())
			if m.IsDrop() {
				pc = rules.NewPiece(pos.SideToMove(), m.DropType())
			}
			text := kifMoveText(m, pc, prev)
			got, ok := fastKIFMove(text, prev)
			if !ok || got.move != m || got.piece != pc.Type() {
				t.Fatalf("%s: %q read as %s %s (fast %v), want %s", pos.SFEN(), text, got.move.USI(), got.piece.Kanji(), ok, m.USI())
			}
			sameKIFMove(t, text, prev)
			pos.Do(m)
			prev = m
			moves++
		}
	}
	if moves < 1000 {
		t.Errorf("only %d moves tried", moves)
	}
}

// FuzzKIFMoveText: for any text and previous move the KIF move reader
// agrees with the general notation parser (oracle), and never panics.
func FuzzKIFMoveText(f *testing.F) {
	for _, s := range []string{"７六歩(77)", "同　歩(76)", "５五角打", "２二角成(88)", "１二成香(13)", "76同歩(77)", "▲７六歩", "同"} {
		f.Add(s, uint32(rules.NewMove(rules.NewSquare(7, 7), rules.NewSquare(7, 6), false)))
		f.Add(s, uint32(0))
	}
	f.Fuzz(func(t *testing.T, s string, prev uint32) {
		sameKIFMove(t, s, rules.Move(prev))
	})
}
