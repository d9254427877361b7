package rules

// PieceType is a kind of piece regardless of its owner.
type PieceType uint8

const (
	NoPieceType PieceType = iota
	Pawn                  // 歩
	Lance                 // 香
	Knight                // 桂
	Silver                // 銀
	Gold                  // 金
	Bishop                // 角
	Rook                  // 飛
	King                  // 玉
	ProPawn               // と
	ProLance              // 成香
	ProKnight             // 成桂
	ProSilver             // 成銀
	Horse                 // 馬
	Dragon                // 竜
)

// numPieceTypes bounds arrays indexed by PieceType.
const numPieceTypes = 15

// handTypes are the seven kinds a player can hold, in PieceType order.
var handTypes = [...]PieceType{Pawn, Lance, Knight, Silver, Gold, Bishop, Rook}

// HandTypes lists the seven kinds a player can hold in hand, in PieceType
// order, for callers to range over (the agreed API). It is read-only by
// convention; the engine itself reads only its own copy, handTypes.
var HandTypes = handTypes

var promotedOf = [numPieceTypes]PieceType{
	Pawn: ProPawn, Lance: ProLance, Knight: ProKnight, Silver: ProSilver,
	Bishop: Horse, Rook: Dragon,
}

var unpromotedOf = [numPieceTypes]PieceType{
	Pawn: Pawn, Lance: Lance, Knight: Knight, Silver: Silver, Gold: Gold,
	Bishop: Bishop, Rook: Rook, King: King, ProPawn: Pawn, ProLance: Lance,
	ProKnight: Knight, ProSilver: Silver, Horse: Bishop, Dragon: Rook,
}

// Valid reports whether pt names a real piece type.
func (pt PieceType) Valid() bool { return pt >= Pawn && pt <= Dragon }

// CanPromote reports whether pt may promote (000 第5条第4項): pawn, lance,
// knight, silver, bishop and rook; never gold, king or a promoted piece.
func (pt PieceType) CanPromote() bool { return pt < numPieceTypes && promotedOf[pt] != NoPieceType }

// Promoted is the promoted form of pt, or pt itself when it cannot promote.
func (pt PieceType) Promoted() PieceType {
	if pt.CanPromote() {
		return promotedOf[pt]
	}
	return pt
}

// Unpromoted is the kind pt returns to when captured (pieces go to hand
// unpromoted, 000 第5条第3項).
func (pt PieceType) Unpromoted() PieceType {
	if pt < numPieceTypes {
		return unpromotedOf[pt]
	}
	return NoPieceType
}

// IsPromoted reports whether pt is a promoted piece.
func (pt PieceType) IsPromoted() bool { return pt >= ProPawn && pt <= Dragon }

// IsHandType reports whether pt can be held in hand.
func (pt PieceType) IsHandType() bool { return pt >= Pawn && pt <= Rook }

var pieceTypeNames = [numPieceTypes]string{
	"", "pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "king",
	"promoted_pawn", "promoted_lance", "promoted_knight", "promoted_silver", "horse", "dragon",
}

var pieceTypeKanji = [numPieceTypes]string{
	"", "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成香", "成桂", "成銀", "馬", "竜",
}

// String is a stable English name, e.g. "pawn", "promoted_silver".
func (pt PieceType) String() string {
	if pt < numPieceTypes {
		return pieceTypeNames[pt]
	}
	return "invalid"
}

// Kanji is the piece's Japanese name as written in records (玉, not 王).
func (pt PieceType) Kanji() string {
	if pt < numPieceTypes {
		return pieceTypeKanji[pt]
	}
	return "?"
}

// sfenLetter is the uppercase USI/SFEN letter of an unpromoted kind.
var sfenLetter = [numPieceTypes]byte{
	Pawn: 'P', Lance: 'L', Knight: 'N', Silver: 'S', Gold: 'G', Bishop: 'B', Rook: 'R', King: 'K',
}

// Piece is a piece with its owner; 0 is an empty square. The low four bits
// hold the PieceType and bit 4 the Color.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// NewPiece returns c's piece of kind pt.
func NewPiece(c Color, pt PieceType) Piece { return Piece(pt) | Piece(c&1)<<4 }

// Color is the owner (meaningless for an empty square).
func (p Piece) Color() Color { return Color(p>>4) & 1 }

// Type is the kind of piece; NoPieceType for an empty square.
func (p Piece) Type() PieceType { return PieceType(p & 15) }

// IsEmpty reports an empty square.
func (p Piece) IsEmpty() bool { return p == 0 }

// String is the SFEN spelling: "P", "+R", "k"; "." for empty.
func (p Piece) String() string {
	if p == 0 {
		return "."
	}
	pt := p.Type()
	if !pt.Valid() {
		return "?"
	}
	b := sfenLetter[pt.Unpromoted()]
	if p.Color() == Gote {
		b += 'a' - 'A'
	}
	if pt.IsPromoted() {
		return "+" + string(b)
	}
	return string(b)
}
