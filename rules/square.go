package rules

import "strconv"

// Square is one of the 81 board squares, or NoSquare. Internally squares
// are numbered in SFEN reading order: rank 一 first, file 9 to file 1
// within a rank, so index = (rank-1)*9 + (9-file).
type Square int8

// NoSquare marks the absence of a square (the origin of a drop).
const NoSquare Square = -1

// NumSquares is the number of board squares.
const NumSquares = 81

// NewSquare returns the square at file (筋, 1..9) and rank (段, 1..9), or
// NoSquare when either is out of range.
func NewSquare(file, rank int) Square {
	if file < 1 || file > 9 || rank < 1 || rank > 9 {
		return NoSquare
	}
	return Square((rank-1)*9 + (9 - file))
}

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s >= 0 && s < NumSquares }

// File is 1..9 (0 for NoSquare).
func (s Square) File() int {
	if !s.Valid() {
		return 0
	}
	return 9 - int(s)%9
}

// Rank is 1..9 (0 for NoSquare).
func (s Square) Rank() int {
	if !s.Valid() {
		return 0
	}
	return int(s)/9 + 1
}

// String is file then rank in Arabic numerals, as records write it (002):
// "76". NoSquare is "00", the origin CSA gives drops.
func (s Square) String() string {
	if !s.Valid() {
		return "00"
	}
	return strconv.Itoa(s.File()) + strconv.Itoa(s.Rank())
}

// usi is the USI spelling: file digit, rank letter ("7g").
func (s Square) usi() string {
	return string([]byte{byte('0' + s.File()), byte('a' + s.Rank() - 1)})
}

// inCamp reports whether s lies in the three ranks farthest from c: c's
// promotion zone and, for a king, the enemy camp (000 第5条第4項, 第9条).
func inCamp(c Color, s Square) bool {
	if c == Sente {
		return s < 27
	}
	return s >= 54
}

// relRank is s's rank counted from c's far side: 1 is the last rank c's
// pieces can reach, where pawns and lances would be dead.
func relRank(c Color, s Square) int {
	if c == Sente {
		return int(s)/9 + 1
	}
	return 9 - int(s)/9
}

// deadOn reports whether an unpromoted piece of kind pt owned by c would
// have no further move on s (行き所のない駒, 000 第10条第1項二).
func deadOn(c Color, pt PieceType, s Square) bool {
	switch pt {
	case Pawn, Lance:
		return relRank(c, s) == 1
	case Knight:
		return relRank(c, s) <= 2
	}
	return false
}
