package games

import (
	"strings"
	"testing"
)

func TestBoardView_StartAndLastMove(t *testing.T) {
	t.Parallel()
	moves := strings.Fields("7g7f 3c3d 8h2b+")
	cases := []struct {
		ply                 int
		wantAt              map[int]string // file*10+rank → kanji
		gote                map[int]bool
		last                int
		senteHand, goteHand string
	}{
		{0, map[int]string{77: "歩", 51: "玉", 59: "玉", 88: "角"}, map[int]bool{51: true, 59: false}, 0, "", ""},
		{1, map[int]string{76: "歩"}, map[int]bool{76: false}, 76, "", ""},
		// 角成 takes gote's bishop on 2二: sente's hand holds it, the
		// square shows 馬.
		{3, map[int]string{22: "馬", 33: "", 34: "歩"}, map[int]bool{22: false, 34: true}, 22, "角", ""},
		{99, map[int]string{22: "馬"}, nil, 22, "角", ""}, // clamped to the record
	}
	for _, c := range cases {
		v, err := NewBoardView(1, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", moves, c.ply)
		if err != nil {
			t.Fatal(err)
		}
		at := map[int]BoardSquare{}
		for _, s := range v.Squares {
			at[s.File*10+s.Rank] = s
		}
		if len(v.Squares) != 81 {
			t.Fatalf("%d squares", len(v.Squares))
		}
		for sq, k := range c.wantAt {
			if at[sq].Kanji != k && !(k == "" && !at[sq].Present) {
				t.Fatalf("ply %d: %d is %q want %q", c.ply, sq, at[sq].Kanji, k)
			}
		}
		for sq, g := range c.gote {
			if at[sq].Gote != g || (g && PieceTransform(at[sq]) == "") {
				t.Fatalf("ply %d: %d gote=%v", c.ply, sq, at[sq].Gote)
			}
		}
		for sq, s := range at {
			if s.Last != (sq == c.last) {
				t.Fatalf("ply %d: last move square %d marked=%v", c.ply, sq, s.Last)
			}
		}
		if v.SenteHand != c.senteHand || v.GoteHand != c.goteHand {
			t.Fatalf("ply %d hands %q %q", c.ply, v.SenteHand, v.GoteHand)
		}
	}
}

func BenchmarkBoardView(b *testing.B) {
	moves := strings.Fields(strings.Repeat("2h3h 8b7b 3h2h 7b8b ", 50)) // 200 plies
	for b.Loop() {
		if _, err := NewBoardView(1, "", moves, 150); err != nil {
			b.Fatal(err)
		}
	}
}
