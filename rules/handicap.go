package rules

// Handicap is a starting setup: 平手 (Even) or one of the handicap
// (駒落ち) starts. In every handicap start the giver (上手) is Gote in SFEN
// and moves first (003); the pieces removed are the giver's.
type Handicap uint8

const (
	Even             Handicap = iota // 平手
	LanceHandicap                    // 香落ち: the left lance, 上手's 1一 (D-H, 004)
	RightLance                       // 右香落ち: the lance on 9一
	BishopHandicap                   // 角落ち
	RookHandicap                     // 飛車落ち
	RookLance                        // 飛香落ち
	TwoPieces                        // 二枚落ち
	ThreePieces                      // 三枚落ち
	FourPieces                       // 四枚落ち
	FivePieces                       // 五枚落ち (right knight, 8一, goes)
	LeftFivePieces                   // 左五枚落ち (left knight, 2一, goes)
	SixPieces                        // 六枚落ち
	LeftSevenPieces                  // 左七枚落ち (left silver, 3一, goes)
	RightSevenPieces                 // 右七枚落ち (right silver, 7一, goes)
	EightPieces                      // 八枚落ち
	TenPieces                        // 十枚落ち
	numHandicaps
)

type handicapInfo struct {
	name, english, sfen string
	removed             []PieceType
}

const evenSFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

// handicapTable lists each start with the giver's removed pieces. Files are
// counted from Sente's side, so 上手's left is file 1.
var handicapTable = [numHandicaps]handicapInfo{
	Even:             {"平手", "Even", evenSFEN, nil},
	LanceHandicap:    {"香落ち", "Lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Lance}},
	RightLance:       {"右香落ち", "Right lance", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Lance}},
	BishopHandicap:   {"角落ち", "Bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Bishop}},
	RookHandicap:     {"飛車落ち", "Rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook}},
	RookLance:        {"飛香落ち", "Rook and lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Lance}},
	TwoPieces:        {"二枚落ち", "Two pieces", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop}},
	ThreePieces:      {"三枚落ち", "Three pieces", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance}},
	FourPieces:       {"四枚落ち", "Four pieces", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance}},
	FivePieces:       {"五枚落ち", "Five pieces", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight}},
	LeftFivePieces:   {"左五枚落ち", "Left five pieces", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight}},
	SixPieces:        {"六枚落ち", "Six pieces", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight, Knight}},
	LeftSevenPieces:  {"左七枚落ち", "Left seven pieces", "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight, Knight, Silver}},
	RightSevenPieces: {"右七枚落ち", "Right seven pieces", "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight, Knight, Silver}},
	EightPieces:      {"八枚落ち", "Eight pieces", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight, Knight, Silver, Silver}},
	TenPieces:        {"十枚落ち", "Ten pieces", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", []PieceType{Rook, Bishop, Lance, Lance, Knight, Knight, Silver, Silver, Gold, Gold}},
}

// HandicapByName finds a start by its Japanese name (平手, 香落ち, …).
func HandicapByName(jp string) (Handicap, bool) {
	for h := range numHandicaps {
		if handicapTable[h].name == jp {
			return h, true
		}
	}
	return Even, false
}

// AllHandicaps lists every start, 平手 first.
func AllHandicaps() []Handicap {
	out := make([]Handicap, 0, numHandicaps)
	for h := range numHandicaps {
		out = append(out, h)
	}
	return out
}

// Valid reports whether h names a known start.
func (h Handicap) Valid() bool { return h < numHandicaps }

// Name is the Japanese name, e.g. 香落ち; "" for an unknown value.
func (h Handicap) Name() string {
	if !h.Valid() {
		return ""
	}
	return handicapTable[h].name
}

// EnglishName is the English name, e.g. "Lance".
func (h Handicap) EnglishName() string {
	if !h.Valid() {
		return ""
	}
	return handicapTable[h].english
}

// String is the Japanese name.
func (h Handicap) String() string { return h.Name() }

// StartSFEN is the starting position. In handicap starts the side to move
// is "w": the giver moves first.
func (h Handicap) StartSFEN() string {
	if !h.Valid() {
		return evenSFEN
	}
	return handicapTable[h].sfen
}

// RemovedPieces lists the giver's pieces taken off the board; jishogi
// counting credits them to 上手 (D-J, 004).
func (h Handicap) RemovedPieces() []PieceType {
	if !h.Valid() {
		return nil
	}
	return append([]PieceType(nil), handicapTable[h].removed...)
}
