package rules

import "strings"

// NotationStyle selects how MoveText spells a move in the federation's
// notation (棋譜の表記方法, seed 002).
type NotationStyle uint8

const (
	// StyleRecord is the printed-record style: side mark, full-width file
	// digit and kanji rank, 同 followed by a full-width space:
	// "▲５二金右", "△同　銀".
	StyleRecord NotationStyle = iota
	// StyleCompact is the federation's own recording style (002 記入例:
	// all Arabic numerals) without a side mark: "52金右", "同銀".
	StyleCompact
)

// Motion is the 動作 word of a move (002 駒の動作): 上, 寄 or 引, judged
// from the mover's side of the board.
type Motion uint8

const (
	MotionNone Motion = iota
	MotionUp          // 上: one rank or more towards the enemy
	MotionSide        // 寄: sideways along a rank
	MotionDown        // 引: one rank or more back
)

// Relative is the 相対位置 word of a move (002 駒の相対位置): 右, 左, or
// 直 for a gold-like piece or silver stepping straight up.
type Relative uint8

const (
	RelativeNone Relative = iota
	RelativeRight
	RelativeLeft
	RelativeStraight // 直
)

// PromoteMark is the 成/不成 word of a move text.
type PromoteMark uint8

const (
	PromoteUnmarked PromoteMark = iota
	PromoteYes                  // 成
	PromoteNo                   // 不成
)

const (
	fullWidthDigits = "０１２３４５６７８９"
	kanjiNumerals   = "〇一二三四五六七八九"
	fullWidthSpace  = "　"
)

var (
	motionWords   = [...]string{MotionUp: "上", MotionSide: "寄", MotionDown: "引"}
	relativeWords = [...]string{RelativeRight: "右", RelativeLeft: "左", RelativeStraight: "直"}
)

// String is the kanji: 上, 寄, 引 ("" for none).
func (m Motion) String() string {
	if int(m) < len(motionWords) {
		return motionWords[m]
	}
	return ""
}

// String is the kanji: 右, 左, 直 ("" for none).
func (r Relative) String() string {
	if int(r) < len(relativeWords) {
		return relativeWords[r]
	}
	return ""
}

// FullWidthDigit is the full-width digit for 0..9 ("７"); "?" otherwise.
func FullWidthDigit(n int) string {
	if n < 0 || n > 9 {
		return "?"
	}
	return string([]rune(fullWidthDigits)[n])
}

// KanjiNumeral is the kanji numeral for 0..9 ("六"); "?" otherwise.
func KanjiNumeral(n int) string {
	if n < 0 || n > 9 {
		return "?"
	}
	return string([]rune(kanjiNumerals)[n])
}

// SquareText spells a square in record style: full-width file digit and
// kanji rank, "７六".
func SquareText(s Square) string {
	if !s.Valid() {
		return "??"
	}
	return FullWidthDigit(s.File()) + KanjiNumeral(s.Rank())
}

// SideMark is ▲ for Sente and △ for Gote.
func SideMark(c Color) string {
	if c == Gote {
		return "△"
	}
	return "▲"
}

// englishPieceNames are the names the UI shows next to the kanji.
var englishPieceNames = [numPieceTypes]string{
	"", "Pawn", "Lance", "Knight", "Silver", "Gold", "Bishop", "Rook", "King",
	"Tokin", "Promoted lance", "Promoted knight", "Promoted silver", "Horse", "Dragon",
}

// EnglishName is the piece's usual English name ("Tokin", "Dragon").
func (pt PieceType) EnglishName() string {
	if pt < numPieceTypes {
		return englishPieceNames[pt]
	}
	return ""
}

// forwardOf is how far a move goes towards c's enemy (positive: up).
func forwardOf(c Color, from, to Square) int {
	if c == Sente {
		return from.Rank() - to.Rank()
	}
	return to.Rank() - from.Rank()
}

// rightness places a square on the mover's left–right axis: larger is
// further to the mover's right. Sente's right is file 1, Gote's is file 9.
func rightness(c Color, s Square) int {
	if c == Sente {
		return -s.File()
	}
	return s.File()
}

// MotionOf is the 動作 of a board move by c (002 駒の動作).
func MotionOf(c Color, from, to Square) Motion {
	switch f := forwardOf(c, from, to); {
	case f > 0:
		return MotionUp
	case f < 0:
		return MotionDown
	}
	return MotionSide
}

// usesStraight reports the kinds for which 002 writes 直 (金, 銀 and the
// promoted minor pieces that move like a gold: と, 成香, 成桂, 成銀).
func usesStraight(pt PieceType) bool {
	switch pt {
	case Gold, Silver, ProPawn, ProLance, ProKnight, ProSilver:
		return true
	}
	return false
}

// relativeOf is the 右/左/直 word for the piece on from among others, all
// of kind pt and able to reach to. Gold-like pieces and silvers are placed
// against the destination file, with 直 for a straight step up (002 例
// 2D, 2E, 3A–3C). 竜 and 馬 never use 直 and are placed against the other
// piece (002 竜 D, E; 馬 A), which is also right for every other kind.
func relativeOf(c Color, pt PieceType, from, to Square, others []Square) Relative {
	if usesStraight(pt) {
		switch {
		case from.File() == to.File():
			if MotionOf(c, from, to) == MotionUp {
				return RelativeStraight
			}
			return RelativeNone
		case rightness(c, from) > rightness(c, to):
			return RelativeRight
		default:
			return RelativeLeft
		}
	}
	right, left := true, true
	for _, o := range others {
		if o == from {
			continue
		}
		if rightness(c, o) >= rightness(c, from) {
			right = false
		}
		if rightness(c, o) <= rightness(c, from) {
			left = false
		}
	}
	switch {
	case right && !left:
		return RelativeRight
	case left && !right:
		return RelativeLeft
	}
	return RelativeNone
}

// Disambiguation chooses the words 002 adds when several pieces of kind pt
// can reach to: the motion alone when it is unique; otherwise the relative
// position alone when that is unique (or 直); otherwise both (002 例 3B
// 「88と左上」, 3C 「28銀左引」). cands holds the origins of every piece of
// that kind able to reach to, from included.
func Disambiguation(c Color, pt PieceType, from, to Square, cands []Square) (Relative, Motion) {
	if len(cands) <= 1 {
		return RelativeNone, MotionNone
	}
	mo := MotionOf(c, from, to)
	sameMotion := 0
	for _, o := range cands {
		if MotionOf(c, o, to) == mo {
			sameMotion++
		}
	}
	if sameMotion <= 1 {
		return RelativeNone, mo
	}
	if pt == Dragon || pt == Horse {
		// 002 竜/馬: motion first, then 右/左 between the pieces that
		// share the motion; never 直.
		var peers []Square
		for _, o := range cands {
			if MotionOf(c, o, to) == mo {
				peers = append(peers, o)
			}
		}
		if rel := relativeOf(c, pt, from, to, peers); rel != RelativeNone {
			return rel, MotionNone
		}
		return RelativeNone, mo
	}
	rel := relativeOf(c, pt, from, to, cands)
	if rel == RelativeStraight {
		return rel, MotionNone
	}
	if rel == RelativeNone {
		return RelativeNone, mo
	}
	sameSide := 0
	for _, o := range cands {
		if relativeOf(c, pt, o, to, cands) == rel {
			sameSide++
		}
	}
	if sameSide <= 1 {
		return rel, MotionNone
	}
	return rel, mo
}

// promotionPossible reports whether a board move of pt by c from one
// square to another could promote: it starts or ends in c's promotion
// zone (000 第5条第4項).
func promotionPossible(c Color, pt PieceType, from, to Square) bool {
	return pt.CanPromote() && (inCamp(c, from) || inCamp(c, to))
}

// boardCandidates lists the origins of c's pieces of kind pt that have a
// legal move to to, each once.
func boardCandidates(legal []Move, p *Position, pt PieceType, to Square) []Square {
	var out []Square
	for _, lm := range legal {
		if lm.IsDrop() || lm.To() != to || p.At(lm.From()).Type() != pt {
			continue
		}
		from := lm.From()
		dup := false
		for _, o := range out {
			if o == from {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, from)
		}
	}
	return out
}

// MoveText spells m, played in p, in the federation's notation (002): the
// destination (or 同 when m lands on prev, the previous move's
// destination), the piece, the 右/左/直 and 上/寄/引 words when several
// pieces of that kind can reach the square, 成/不成 whenever promotion was
// possible (成 even when forced), and 打 only when a piece on the board
// could also reach the square (002, 004 打). prev is NoSquare for the
// first move. m need not be legal: an illegal move gets the same words
// computed against the legal alternatives, so a foul can be reported in
// the notation the players used.
func (p *Position) MoveText(m Move, prev Square, style NotationStyle) string {
	var b strings.Builder
	c := p.SideToMove()
	if style == StyleRecord {
		b.WriteString(SideMark(c))
	}
	to := m.To()
	switch {
	case to == prev && to.Valid():
		b.WriteString("同")
		if style == StyleRecord {
			b.WriteString(fullWidthSpace)
		}
	case style == StyleRecord:
		b.WriteString(SquareText(to))
	default:
		b.WriteString(to.String())
	}
	legal := p.LegalMoves(make([]Move, 0, 128))
	if m.IsDrop() {
		pt := m.DropType()
		b.WriteString(kanjiOrUnknown(pt))
		if len(boardCandidates(legal, p, pt, to)) > 0 {
			b.WriteString("打")
		}
		return b.String()
	}
	from := m.From()
	piece := p.At(from)
	pt := piece.Type()
	b.WriteString(kanjiOrUnknown(pt))
	if piece.IsEmpty() {
		return b.String()
	}
	mover := piece.Color()
	cands := boardCandidates(legal, p, pt, to)
	if !containsSquare(cands, from) {
		cands = append(cands, from)
	}
	rel, mo := Disambiguation(mover, pt, from, to, cands)
	b.WriteString(rel.String())
	b.WriteString(mo.String())
	switch {
	case m.IsPromotion():
		b.WriteString("成")
	case promotionPossible(mover, pt, from, to):
		b.WriteString("不成")
	}
	return b.String()
}

func kanjiOrUnknown(pt PieceType) string {
	if pt.Valid() {
		return pt.Kanji()
	}
	return "駒"
}

func containsSquare(list []Square, s Square) bool {
	for _, o := range list {
		if o == s {
			return true
		}
	}
	return false
}
