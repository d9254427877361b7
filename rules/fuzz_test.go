package rules

import (
	"slices"
	"testing"
)

var fuzzSFENSeeds = []string{
	evenSFEN,
	"startpos",
	"lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
	"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
	"ln1g3+Rl/2s1k4/p1pp1p2p/4p1p2/1p7/2P1P4/PP1PS1P1P/2G2G3/LN2K3L w BG2SNPbnp 42",
	"8k/6G2/7S1/9/9/9/9/9/K8 b P 1",
	"4k4/9/9/9/9/9/9/9/4K4 b 18p 1",
	"9/9/9/9/9/9/9/9/9 b - 1",
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
	"4k4/9/9/9/4R4/9/9/9/4K4 b - 1",
}

// FuzzParseSFEN: never panics; whatever parses writes back to an SFEN
// that parses to the same position and key (round trip, idempotent).
func FuzzParseSFEN(f *testing.F) {
	for _, s := range fuzzSFENSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseSFEN(s)
		if err != nil {
			if p != nil {
				t.Fatal("error with a position")
			}
			return
		}
		out := p.SFEN()
		q, err := ParseSFEN(out)
		if err != nil {
			t.Fatalf("SFEN() output %q does not parse: %v", out, err)
		}
		if q.SFEN() != out || q.Key() != p.Key() || p.Key() != p.computeKey() {
			t.Fatalf("round trip changed the position: %q -> %q", out, q.SFEN())
		}
	})
}

// FuzzMoves plays a game chosen by the fuzzer's bytes from a seed
// position. At every step: each generated move is legal per the naive
// reference, Foul agrees, make/unmake restores position and key, and the
// incremental key equals a fresh computation.
func FuzzMoves(f *testing.F) {
	for i, s := range fuzzSFENSeeds {
		f.Add(uint8(i), []byte{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9})
		_ = s
	}
	f.Fuzz(func(t *testing.T, start uint8, choices []byte) {
		p, err := ParseSFEN(fuzzSFENSeeds[int(start)%len(fuzzSFENSeeds)])
		if err != nil {
			return
		}
		if len(choices) > 32 { // the reference is slow; keep executions short
			choices = choices[:32]
		}
		for _, c := range choices {
			moves := p.LegalMoves(nil)
			b := refFrom(p)
			if !slices.Equal(usiList(moves), usiList(b.refLegalMoves())) {
				t.Fatalf("%s: generator and reference disagree", p.SFEN())
			}
			before, key := p.SFEN(), p.Key()
			for _, m := range moves {
				if f := p.Foul(m); f != FoulNone {
					t.Fatalf("%s: generated %s but Foul says %s", before, m.USI(), f)
				}
				u := p.Do(m)
				if p.Key() != p.computeKey() {
					t.Fatalf("%s: key after %s is not the fresh key", before, m.USI())
				}
				p.Undo(m, u)
				if p.SFEN() != before || p.Key() != key {
					t.Fatalf("%s: %s/Undo left %s", before, m.USI(), p.SFEN())
				}
			}
			if len(moves) == 0 {
				return
			}
			p.Do(moves[int(c)%len(moves)])
		}
	})
}

// FuzzFoul: any 32-bit Move on any seed position is classified without a
// panic, the same way the reference classifies it, and is legal exactly
// when the generator produces it.
func FuzzFoul(f *testing.F) {
	f.Add(uint8(0), uint32(NewMove(NewSquare(7, 7), NewSquare(7, 6), false)))
	f.Add(uint8(3), uint32(NewDrop(Pawn, NewSquare(5, 5))))
	f.Add(uint8(5), uint32(NewDrop(Pawn, NewSquare(1, 2))))
	f.Add(uint8(1), uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, start uint8, raw uint32) {
		p, err := ParseSFEN(fuzzSFENSeeds[int(start)%len(fuzzSFENSeeds)])
		if err != nil {
			return
		}
		m := Move(raw)
		before := p.SFEN()
		foul := p.Foul(m)
		_ = m.USI()
		if p.SFEN() != before {
			t.Fatalf("Foul changed the position")
		}
		b := refFrom(p)
		if rf := b.refFoul(m); rf != foul {
			t.Fatalf("%s: Foul(%#x %s) = %s, reference %s", before, raw, m.USI(), foul, rf)
		}
		if gen := slices.Contains(p.LegalMoves(nil), m); gen != (foul == FoulNone) {
			t.Fatalf("%s: %s generated=%v but Foul=%s", before, m.USI(), gen, foul)
		}
		if foul == FoulNone {
			u := p.Do(m)
			p.Undo(m, u)
			if p.SFEN() != before {
				t.Fatalf("Do/Undo of %s changed the position", m.USI())
			}
		}
	})
}

// FuzzParseUSIMove: never panics; accepted moves print back the same.
func FuzzParseUSIMove(f *testing.F) {
	for _, s := range []string{"7g7f", "8h2b+", "P*5e", "", "K*5e", "9a1i+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseUSIMove(s)
		if err != nil {
			return
		}
		if m.USI() != s {
			t.Fatalf("ParseUSIMove(%q).USI() = %q", s, m.USI())
		}
	})
}
