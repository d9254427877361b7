package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MoveTextParts is a move text split into the six fields of 002 基本事項
// (destination, piece, relative position, motion, 成/不成/打), plus the
// optional side mark and whatever follows the move (a KIF origin "(77)").
type MoveTextParts struct {
	Color    Color // valid when HasColor
	HasColor bool  // ▲☗ (Sente) or △☖ (Gote) given
	To       Square
	Same     bool // 同: the previous move's destination
	Piece    PieceType
	Relative Relative
	Motion   Motion
	Promote  PromoteMark
	Drop     bool   // 打
	Rest     string // text after the move, untouched
}

// pieceWords maps the one-character piece names records use to kinds
// (成香, 成桂 and 成銀 are read by pieceWord). 王/玉, 竜/龍 and the
// one-character promoted names 杏 圭 全 are all accepted.
var pieceWords = []struct {
	r  rune
	pt PieceType
}{
	{'歩', Pawn}, {'香', Lance}, {'桂', Knight}, {'銀', Silver}, {'金', Gold},
	{'角', Bishop}, {'飛', Rook}, {'玉', King}, {'王', King}, {'と', ProPawn},
	{'杏', ProLance}, {'圭', ProKnight}, {'全', ProSilver},
	{'馬', Horse}, {'竜', Dragon}, {'龍', Dragon},
}

// digitValue reads one digit written as ASCII, full-width or kanji.
func digitValue(r rune) (int, bool) {
	switch {
	case r >= '1' && r <= '9':
		return int(r - '0'), true
	case r >= '１' && r <= '９':
		return int(r - '０'), true
	}
	switch r {
	case '一':
		return 1, true
	case '二':
		return 2, true
	case '三':
		return 3, true
	case '四':
		return 4, true
	case '五':
		return 5, true
	case '六':
		return 6, true
	case '七':
		return 7, true
	case '八':
		return 8, true
	case '九':
		return 9, true
	}
	return 0, false
}

// pieceWord reads the piece name at the start of s.
func pieceWord(s string) (PieceType, int) {
	r, n := utf8.DecodeRuneInString(s)
	if r == '成' {
		r2, n2 := utf8.DecodeRuneInString(s[n:])
		switch r2 {
		case '香':
			return ProLance, n + n2
		case '桂':
			return ProKnight, n + n2
		case '銀':
			return ProSilver, n + n2
		}
		return NoPieceType, 0
	}
	for _, pw := range pieceWords {
		if pw.r == r {
			return pw.pt, n
		}
	}
	return NoPieceType, 0
}

// skipSpaces drops leading ASCII and full-width spaces and tabs.
func skipSpaces(s string) string {
	for {
		switch {
		case strings.HasPrefix(s, " "), strings.HasPrefix(s, "\t"):
			s = s[1:]
		case strings.HasPrefix(s, fullWidthSpace):
			s = s[len(fullWidthSpace):]
		default:
			return s
		}
	}
}

// ParseMoveTextParts splits a move text without looking at a position. It
// accepts both notation styles: ▲☗△☖ marks, full- or half-width file
// digits, kanji or Arabic ranks, 同 with or without a space (and the
// newspaper form 76同歩), 竜/龍, 王/玉, and 成, 不成 (or 生) and 打.
func ParseMoveTextParts(s string) (MoveTextParts, error) {
	var mp MoveTextParts
	mp.To = NoSquare
	orig := s
	s = skipSpaces(s)
	switch {
	case strings.HasPrefix(s, "▲"), strings.HasPrefix(s, "☗"):
		mp.Color, mp.HasColor = Sente, true
		s = s[len("▲"):]
	case strings.HasPrefix(s, "△"), strings.HasPrefix(s, "☖"), strings.HasPrefix(s, "▽"):
		mp.Color, mp.HasColor = Gote, true
		s = s[len("△"):]
	}
	if strings.HasPrefix(s, "同") {
		mp.Same = true
		s = skipSpaces(s[len("同"):])
	} else {
		f, n1 := utf8.DecodeRuneInString(s)
		r, n2 := utf8.DecodeRuneInString(s[n1:])
		file, ok1 := digitValue(f)
		rank, ok2 := digitValue(r)
		if !ok1 || !ok2 {
			return mp, fmt.Errorf("move text %q: want a destination such as 76, ７六 or 同", orig)
		}
		mp.To = NewSquare(file, rank)
		s = s[n1+n2:]
		if strings.HasPrefix(s, "同") { // 76同歩: newspapers' form (002 ※)
			mp.Same = true
			s = skipSpaces(s[len("同"):])
		}
	}
	pt, n := pieceWord(s)
	mp.Piece = pt
	s = s[n:]
	if mp.Piece == NoPieceType {
		return mp, fmt.Errorf("move text %q: want a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 竜) after the destination", orig)
	}
	for _, w := range []struct {
		word string
		rel  Relative
	}{{"右", RelativeRight}, {"左", RelativeLeft}, {"直", RelativeStraight}} {
		if strings.HasPrefix(s, w.word) {
			mp.Relative = w.rel
			s = s[len(w.word):]
			break
		}
	}
	for _, w := range []struct {
		word string
		mo   Motion
	}{{"上", MotionUp}, {"寄", MotionSide}, {"引", MotionDown}, {"行", MotionUp}} {
		if strings.HasPrefix(s, w.word) {
			mp.Motion = w.mo
			s = s[len(w.word):]
			break
		}
	}
	switch {
	case strings.HasPrefix(s, "不成"):
		mp.Promote = PromoteNo
		s = s[len("不成"):]
	case strings.HasPrefix(s, "生"):
		mp.Promote = PromoteNo
		s = s[len("生"):]
	case strings.HasPrefix(s, "成"):
		mp.Promote = PromoteYes
		s = s[len("成"):]
	case strings.HasPrefix(s, "打"):
		mp.Drop = true
		s = s[len("打"):]
	}
	if mp.Drop && (mp.Relative != RelativeNone || mp.Motion != MotionNone) {
		return mp, fmt.Errorf("move text %q: 打 cannot be combined with 右/左/直/上/寄/引", orig)
	}
	mp.Rest = s
	return mp, nil
}

// destination resolves 同 against prev.
func (mp MoveTextParts) destination(prev Square) (Square, error) {
	if !mp.Same {
		return mp.To, nil
	}
	if !prev.Valid() {
		return NoSquare, fmt.Errorf("同 but there is no previous move to refer to")
	}
	if mp.To.Valid() && mp.To != prev {
		return NoSquare, fmt.Errorf("%s同 but the previous move went to %s", mp.To, prev)
	}
	return prev, nil
}

// ParseMoveText reads a move text in either notation style against p and
// returns the legal move it names. prev is the previous move's destination
// (for 同) or NoSquare. A text that names no legal move, or several,
// returns an error saying which.
func (p *Position) ParseMoveText(s string, prev Square) (Move, error) {
	m, foul, err := p.ResolveMoveText(s, prev)
	if err != nil {
		return NoMove, err
	}
	if foul != FoulNone {
		if m.IsDrop() && p.Hand(p.SideToMove(), m.DropType()) == 0 {
			return NoMove, fmt.Errorf("move text %q: no %s of %s can move to %s and none is in hand", s, m.DropType().Kanji(), p.SideToMove(), m.To())
		}
		return NoMove, fmt.Errorf("move text %q: illegal move (%s, %s)", s, foul.Japanese(), foul)
	}
	return m, nil
}

// ResolveMoveText reads a move text like ParseMoveText but also resolves
// an illegal move when the text names exactly one piece that could make it
// (a 二歩 drop, a pinned piece moving, a pawn left unpromoted on the last
// rank …), returning the move with its Foul so that records keep fouls
// and report them. Trailing text is an error here; ParseMoveTextParts
// hands it back instead.
func (p *Position) ResolveMoveText(s string, prev Square) (Move, Foul, error) {
	mp, err := ParseMoveTextParts(s)
	if err != nil {
		return NoMove, FoulNone, err
	}
	if rest := strings.Trim(mp.Rest, " \t"+fullWidthSpace); rest != "" {
		return NoMove, FoulNone, fmt.Errorf("move text %q: unexpected %q after the move", s, rest)
	}
	return p.ResolveMoveParts(mp, prev)
}

// ResolveMoveParts finds the move named by already split parts; see
// ResolveMoveText.
func (p *Position) ResolveMoveParts(mp MoveTextParts, prev Square) (Move, Foul, error) {
	to, err := mp.destination(prev)
	if err != nil {
		return NoMove, FoulNone, err
	}
	text := mp.describe(to)
	c := p.SideToMove()
	if mp.HasColor && mp.Color != c {
		return NoMove, FoulNone, fmt.Errorf("move %s: marked for %s but %s is to move", text, mp.Color, c)
	}
	pt := mp.Piece
	legal := p.LegalMoves(make([]Move, 0, 128))
	if !mp.Drop {
		if m, ok, err := p.pickBoardMove(legal, mp, to, text); err != nil || ok {
			return m, FoulNone, err
		}
	}
	// A drop: written with 打, or without it when no piece on the board
	// could reach the square (002, 004 打).
	if mp.Drop || (mp.Relative == RelativeNone && mp.Motion == MotionNone && mp.Promote == PromoteUnmarked && pt.IsHandType() && p.Hand(c, pt) > 0) {
		if !pt.IsHandType() {
			return NoMove, FoulNone, fmt.Errorf("move %s: a %s cannot be dropped", text, pt.Kanji())
		}
		m := NewDrop(pt, to)
		for _, lm := range legal {
			if lm == m {
				return m, FoulNone, nil
			}
		}
		return m, p.Foul(m), nil
	}
	// No legal move fits: look for the one piece that could at least make
	// the move on an empty board path, so the foul can be classified.
	var found []Move
	for sq := Square(0); sq < NumSquares; sq++ {
		pc := p.At(sq)
		if pc.IsEmpty() || pc.Color() != c || pc.Type() != pt || !p.notationReach(sq, to) {
			continue
		}
		m := NewMove(sq, to, mp.Promote == PromoteYes)
		if mp.matches(c, pt, sq, to, p.pseudoOrigins(pt, to)) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], p.Foul(found[0]), nil
	case 0:
		if pt.IsHandType() && mp.Relative == RelativeNone && mp.Motion == MotionNone && mp.Promote == PromoteUnmarked {
			// Nothing on the board could have made it: a drop, even of a
			// piece not in hand (an impossible move, classified as such).
			m := NewDrop(pt, to)
			return m, p.Foul(m), nil
		}
		return NoMove, FoulNone, fmt.Errorf("move %s: no %s of %s can move to %s", text, pt.Kanji(), c, to)
	}
	return NoMove, FoulNone, fmt.Errorf("move %s is ambiguous: %s", text, originList(found))
}

// pickBoardMove finds the legal board move that mp names; ok is false when
// no legal board move fits (the caller then tries a drop or a foul).
func (p *Position) pickBoardMove(legal []Move, mp MoveTextParts, to Square, text string) (Move, bool, error) {
	c := p.SideToMove()
	pt := mp.Piece
	cands := boardCandidates(legal, p, pt, to)
	if len(cands) == 0 {
		return NoMove, false, nil
	}
	var found []Move
	for _, lm := range legal {
		if lm.IsDrop() || lm.To() != to || p.At(lm.From()).Type() != pt {
			continue
		}
		if !mp.matches(c, pt, lm.From(), to, cands) {
			continue
		}
		switch mp.Promote {
		case PromoteYes:
			if !lm.IsPromotion() {
				continue
			}
		case PromoteNo:
			if lm.IsPromotion() {
				continue
			}
		case PromoteUnmarked:
			// Without 成/不成 prefer the plain move; a forced promotion
			// (the only legal version) is still accepted.
			if lm.IsPromotion() && containsMove(legal, NewMove(lm.From(), to, false)) {
				continue
			}
		}
		found = append(found, lm)
	}
	switch len(found) {
	case 1:
		return found[0], true, nil
	case 0:
		return NoMove, false, nil
	}
	return NoMove, false, fmt.Errorf("move %s is ambiguous: %s; add 右/左/直 or 上/寄/引", text, originList(found))
}

// matches reports whether the 右/左/直 and 上/寄/引 words of mp fit the
// piece on from, among the pieces on cands that can reach to.
func (mp MoveTextParts) matches(c Color, pt PieceType, from, to Square, cands []Square) bool {
	if mp.Motion != MotionNone && MotionOf(c, from, to) != mp.Motion {
		return false
	}
	if mp.Relative == RelativeNone {
		return true
	}
	if pt == Dragon || pt == Horse {
		var peers []Square
		for _, o := range cands {
			if mp.Motion == MotionNone || MotionOf(c, o, to) == mp.Motion {
				peers = append(peers, o)
			}
		}
		return relativeOf(c, pt, from, to, peers) == mp.Relative
	}
	return relativeOf(c, pt, from, to, cands) == mp.Relative
}

// pseudoOrigins lists the side to move's pieces of kind pt that reach to
// along an open path, legal or not.
func (p *Position) pseudoOrigins(pt PieceType, to Square) []Square {
	var out []Square
	c := p.SideToMove()
	for sq := Square(0); sq < NumSquares; sq++ {
		pc := p.At(sq)
		if !pc.IsEmpty() && pc.Color() == c && pc.Type() == pt && p.notationReach(sq, to) {
			out = append(out, sq)
		}
	}
	return out
}

func (mp MoveTextParts) describe(to Square) string {
	var b strings.Builder
	if mp.Same {
		b.WriteString("同")
	} else {
		b.WriteString(to.String())
	}
	b.WriteString(kanjiOrUnknown(mp.Piece))
	b.WriteString(mp.Relative.String())
	b.WriteString(mp.Motion.String())
	switch {
	case mp.Promote == PromoteYes:
		b.WriteString("成")
	case mp.Promote == PromoteNo:
		b.WriteString("不成")
	case mp.Drop:
		b.WriteString("打")
	}
	return b.String()
}

func containsMove(list []Move, m Move) bool {
	for _, o := range list {
		if o == m {
			return true
		}
	}
	return false
}

func originList(ms []Move) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		parts = append(parts, "from "+m.From().String())
	}
	return strings.Join(parts, ", ")
}

// notationSteps are one-square moves for Sente as (file, rank) deltas; Gote's
// are the same mirrored. Rank -1 is forward for Sente.
var notationSteps = [numPieceTypes][][2]int{
	Pawn:      {{0, -1}},
	Knight:    {{1, -2}, {-1, -2}},
	Silver:    {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}},
	Gold:      notationGoldDirs,
	King:      {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}},
	ProPawn:   notationGoldDirs,
	ProLance:  notationGoldDirs,
	ProKnight: notationGoldDirs,
	ProSilver: notationGoldDirs,
	Horse:     {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
	Dragon:    {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
}

var notationGoldDirs = [][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}

// notationSlides are the lines a ranging piece moves along (Sente's view).
var notationSlides = [numPieceTypes][][2]int{
	Lance:  {{0, -1}},
	Bishop: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	Rook:   {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
	Horse:  {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	Dragon: {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
}

// notationReach reports whether the piece on from moves to to by its movement
// with an open path (000 第4条), ignoring checks and what stands on to.
func (p *Position) notationReach(from, to Square) bool {
	pc := p.At(from)
	if pc.IsEmpty() || !pc.Type().Valid() || from == to {
		return false
	}
	sign := 1
	if pc.Color() == Gote {
		sign = -1
	}
	df := to.File() - from.File()
	dr := to.Rank() - from.Rank()
	for _, d := range notationSteps[pc.Type()] {
		if d[0]*sign == df && d[1]*sign == dr {
			return true
		}
	}
	for _, d := range notationSlides[pc.Type()] {
		f, r := from.File(), from.Rank()
		for {
			f += d[0] * sign
			r += d[1] * sign
			sq := NewSquare(f, r)
			if !sq.Valid() {
				break
			}
			if sq == to {
				return true
			}
			if !p.At(sq).IsEmpty() {
				break
			}
		}
	}
	return false
}
