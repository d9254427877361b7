package rules

import "fmt"

// Move is one move, encoded in 32 bits so it can say anything a record
// might say, including illegal combinations (a drop with a promotion flag,
// an impossible origin), which Position.Foul then classifies (D-X1).
//
//	bits 0-6   destination square (127: none)
//	bits 7-13  origin square (127: none); unused for drops
//	bit  14    promotion
//	bit  15    drop
//	bits 16-19 dropped piece type
//	bit  20    set on every constructed move, so Move(0) is NoMove
type Move uint32

// NoMove is the zero Move; it names no move at all.
const NoMove Move = 0

const (
	moveSquareMask = 0x7f
	moveFromShift  = 7
	movePromoteBit = 1 << 14
	moveDropBit    = 1 << 15
	moveTypeShift  = 16
	moveValidBit   = 1 << 20
)

func encodeSquare(s Square) Move {
	if !s.Valid() {
		return moveSquareMask
	}
	return Move(s)
}

func decodeSquare(v Move) Square {
	v &= moveSquareMask
	if v >= NumSquares {
		return NoSquare
	}
	return Square(v)
}

// NewMove is a board move from one square to another, promoting or not.
func NewMove(from, to Square, promote bool) Move {
	m := moveValidBit | encodeSquare(to) | encodeSquare(from)<<moveFromShift
	if promote {
		m |= movePromoteBit
	}
	return m
}

// NewDrop is a drop of a piece of kind pt from hand onto to.
func NewDrop(pt PieceType, to Square) Move {
	return moveValidBit | moveDropBit | encodeSquare(to) | encodeSquare(NoSquare)<<moveFromShift | Move(pt&15)<<moveTypeShift
}

// From is the origin square, NoSquare for a drop (or an unknown origin).
func (m Move) From() Square {
	if m&moveDropBit != 0 {
		return NoSquare
	}
	return decodeSquare(m >> moveFromShift)
}

// To is the destination square.
func (m Move) To() Square { return decodeSquare(m) }

// IsDrop reports a drop from hand.
func (m Move) IsDrop() bool { return m&moveDropBit != 0 }

// DropType is the dropped kind (NoPieceType for a board move).
func (m Move) DropType() PieceType {
	if m&moveDropBit == 0 {
		return NoPieceType
	}
	return PieceType(m>>moveTypeShift) & 15
}

// IsPromotion reports the promotion flag.
func (m Move) IsPromotion() bool { return m&movePromoteBit != 0 }

// USI is the move in USI notation: "7g7f", "8h2b+", "P*5e". Squares that
// do not exist print as "??", so every Move has a spelling.
func (m Move) USI() string {
	if m == NoMove {
		return "none"
	}
	sq := func(s Square) string {
		if !s.Valid() {
			return "??"
		}
		return s.usi()
	}
	if m.IsDrop() {
		pt := m.DropType()
		letter := "?"
		if pt.IsHandType() {
			letter = string(sfenLetter[pt])
		}
		s := letter + "*" + sq(m.To())
		if m.IsPromotion() {
			s += "+"
		}
		return s
	}
	s := sq(m.From()) + sq(m.To())
	if m.IsPromotion() {
		s += "+"
	}
	return s
}

// String is the USI spelling.
func (m Move) String() string { return m.USI() }

func parseUSISquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'0'), int(s[1]-'a')+1), true
}

// ParseUSIMove reads one USI move ("7g7f", "8h2b+", "P*5e"). It checks the
// spelling only; whether the move is legal is Position.Foul's question.
func ParseUSIMove(s string) (Move, error) {
	if len(s) == 4 && s[1] == '*' {
		pt := NoPieceType
		for _, h := range handTypes {
			if sfenLetter[h] == s[0] {
				pt = h
			}
		}
		if pt == NoPieceType {
			return NoMove, fmt.Errorf("usi move %q: %q is not a piece that can be dropped (one of P L N S G B R)", s, s[0])
		}
		to, ok := parseUSISquare(s[2:4])
		if !ok {
			return NoMove, fmt.Errorf("usi move %q: destination %q is not a square (file 1-9, rank a-i)", s, s[2:4])
		}
		return NewDrop(pt, to), nil
	}
	if len(s) != 4 && len(s) != 5 {
		return NoMove, fmt.Errorf("usi move %q: want 4 or 5 characters like 7g7f, 8h2b+ or P*5e", s)
	}
	from, ok := parseUSISquare(s[0:2])
	if !ok {
		return NoMove, fmt.Errorf("usi move %q: origin %q is not a square (file 1-9, rank a-i)", s, s[0:2])
	}
	to, ok := parseUSISquare(s[2:4])
	if !ok {
		return NoMove, fmt.Errorf("usi move %q: destination %q is not a square (file 1-9, rank a-i)", s, s[2:4])
	}
	promote := false
	if len(s) == 5 {
		if s[4] != '+' {
			return NoMove, fmt.Errorf("usi move %q: fifth character must be '+' (promotion), got %q", s, s[4])
		}
		promote = true
	}
	if from == to {
		return NoMove, fmt.Errorf("usi move %q: origin and destination are the same square", s)
	}
	return NewMove(from, to, promote), nil
}

// canonical reports whether m is exactly what NewMove or NewDrop (plus,
// possibly, the promotion flag) builds for its fields; any other bit
// pattern is a malformed move.
func (m Move) canonical() bool {
	var c Move
	if m.IsDrop() {
		c = NewDrop(m.DropType(), m.To())
	} else {
		c = NewMove(m.From(), m.To(), false)
	}
	if m.IsPromotion() {
		c |= movePromoteBit
	}
	return c == m
}
