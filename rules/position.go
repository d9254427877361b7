package rules

// Position is a shogi position: the board, both hands, the side to move
// and the SFEN move number. The zero value is not useful; build one with
// NewPosition or ParseSFEN.
//
// A Position is not safe for concurrent use: GivesCheck and Foul try moves
// on the position itself and take them back.
type Position struct {
	board   [NumSquares]Piece
	hand    [2][8]uint8 // indexed by PieceType Pawn..Rook
	side    Color
	moveNum int
	king    [2]Square // NoSquare when a side has no king (tsume-style setups)
	key     uint64
}

// NewPosition is the starting position of handicap h (平手 for Even); an
// unknown h gives the even start. It copies a start parsed once, since
// every record read and checked begins with one.
func NewPosition(h Handicap) *Position {
	if !h.Valid() {
		h = Even
	}
	p := startPositions[h]
	return &p
}

// startPositions are the handicap starts, parsed once. Every table SFEN
// is valid (tested), so the fallback to the even start is unreachable.
var startPositions = func() (out [numHandicaps]Position) {
	for h := range Handicap(numHandicaps) {
		p, err := ParseSFEN(h.StartSFEN())
		if err != nil {
			p, _ = ParseSFEN(evenSFEN)
		}
		out[h] = *p
	}
	return out
}()

// Clone returns an independent copy.
func (p *Position) Clone() *Position {
	q := *p
	return &q
}

// At is the piece on sq (NoPiece when empty or sq is off the board).
func (p *Position) At(sq Square) Piece {
	if !sq.Valid() {
		return NoPiece
	}
	return p.board[sq]
}

// Hand is how many pieces of kind pt side c holds.
func (p *Position) Hand(c Color, pt PieceType) int {
	if !pt.IsHandType() {
		return 0
	}
	return int(p.hand[c&1][pt])
}

// SideToMove is the side whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// MoveNumber is the SFEN move number: 1 in a start position, +1 per move.
func (p *Position) MoveNumber() int { return p.moveNum }

// Key is the Zobrist key of board, hands and side to move (D-S1); two
// positions that differ only in move number share a key.
func (p *Position) Key() uint64 { return p.key }

// KingSquare is c's king's square, NoSquare when c has no king.
func (p *Position) KingSquare(c Color) Square { return p.king[c&1] }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	k := p.king[p.side]
	return k != NoSquare && p.attacked(k, p.side.Opponent())
}

// attacked reports whether any piece of color by attacks sq.
func (p *Position) attacked(sq Square, by Color) bool {
	for d := range 8 {
		od := uint8(1) << ((d + 4) & 7) // the attacker moves back towards sq
		s := geo.neighbor[sq][d]
		if s == NoSquare {
			continue
		}
		pc := p.board[s]
		if pc != NoPiece {
			if pc.Color() == by && (geo.stepMask[pc]|geo.slideMask[pc])&od != 0 {
				return true
			}
			continue
		}
		for s = geo.neighbor[s][d]; s != NoSquare; s = geo.neighbor[s][d] {
			pc = p.board[s]
			if pc != NoPiece {
				if pc.Color() == by && geo.slideMask[pc]&od != 0 {
					return true
				}
				break
			}
		}
	}
	// A knight of by attacks sq from where the opponent's knight would jump.
	kn := NewPiece(by, Knight)
	for _, s := range geo.knightTo[by^1][sq] {
		if s != NoSquare && p.board[s] == kn {
			return true
		}
	}
	return false
}
