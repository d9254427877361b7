package rules

// Zobrist keys for Position.Key: board, hands and side to move (D-S1: the
// same position is the same board, the same pieces in hand and the same
// side to move; the move number is deliberately left out).

// maxHand is the largest count of one kind a hand can hold (18 pawns).
const maxHand = 18

type zobristKeys struct {
	board [NumSquares][32]uint64
	hand  [2][8][maxHand + 1]uint64
	side  uint64
}

var zob = buildZobrist()

// splitmix64 is a tiny fixed-seed generator so keys are the same in every
// run and every process (keys may be stored and compared across runs).
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func buildZobrist() *zobristKeys {
	z := &zobristKeys{}
	rng := splitmix64(0x4b6973656e) // "Kisen"
	for s := range NumSquares {
		for p := range 32 {
			z.board[s][p] = rng.next()
		}
	}
	for c := range 2 {
		for pt := range 8 {
			for n := 1; n <= maxHand; n++ {
				z.hand[c][pt][n] = rng.next()
			}
		}
	}
	z.side = rng.next()
	return z
}

// computeKey recomputes the key from scratch; Do and Undo keep it
// incrementally, and tests compare the two.
func (p *Position) computeKey() uint64 {
	var k uint64
	for s, pc := range p.board {
		if pc != NoPiece {
			k ^= zob.board[s][pc]
		}
	}
	for c := range 2 {
		for pt := Pawn; pt <= Rook; pt++ {
			k ^= zob.hand[c][pt][p.hand[c][pt]]
		}
	}
	if p.side == Gote {
		k ^= zob.side
	}
	return k
}
