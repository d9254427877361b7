package rules

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPerft5 is perft(5) from the even start on one goroutine, with
// bulk counting at the last ply. Target: under 1 s per op.
func BenchmarkPerft5(b *testing.B) {
	p := NewPosition(Even)
	for b.Loop() {
		if n := p.Perft(5); n != 19861490 {
			b.Fatalf("perft(5) = %d", n)
		}
	}
}

// crowdedMiddlegame has many pieces on the board and in both hands.
const crowdedMiddlegame = "ln1g3+Rl/2s1k4/p1pp1p2p/4p1p2/1p7/2P1P4/PP1PS1P1P/2G2G3/LN2K3L w BG2SNPbnp 42"

// BenchmarkLegalMoves measures one full legal-move generation on a crowded
// middlegame position with drops for both sides.
func BenchmarkLegalMoves(b *testing.B) {
	p := mustSFEN(b, crowdedMiddlegame)
	buf := make([]Move, 0, MaxLegalMoves)
	n := 0
	for b.Loop() {
		n = len(p.LegalMoves(buf[:0]))
	}
	b.ReportMetric(float64(n), "moves/op")
}

// benchGame is a seeded random legal game of the given length.
func benchGame(tb testing.TB, plies int) Replay {
	rng := rand.New(rand.NewPCG(7, 11))
	for {
		p := NewPosition(Even)
		start := p.Clone()
		var moves []Move
		rep := NewRepetition(p)
		for len(moves) < plies {
			legal := p.LegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			p.Do(m)
			if _, ok := rep.Push(p, p.InCheck()); ok {
				break
			}
			moves = append(moves, m)
		}
		if len(moves) == plies {
			return Replay{Start: start, Moves: moves}
		}
	}
}

// BenchmarkReplay120 checks a 120-ply game: every move's legality and
// foul class, check detection and repetition. Target: 20,000 games/s.
func BenchmarkReplay120(b *testing.B) {
	g := benchGame(b, 120)
	for b.Loop() {
		if r := g.Run(); r.Plies != 120 || r.Foul != nil {
			b.Fatalf("replay stopped at %d: %+v", r.Plies, r.Foul)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkParseSFEN(b *testing.B) {
	for b.Loop() {
		if _, err := ParseSFEN(crowdedMiddlegame); err != nil {
			b.Fatal(err)
		}
	}
}
