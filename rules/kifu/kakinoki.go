package kifu

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"kisen/rules"
)

// Pieces shared by the KIF and KI2 readers and writers: header lines, the
// board diagram (BOD) for custom starts, and the closing summary
// (まで76手で後手の勝ち).

const keyHandicap = "手合割"

// splitHeaderLine splits "key：value" (full-width colon, or ASCII ":" as
// some programs write). The key holds no space; ok is false otherwise.
func splitHeaderLine(line string) (key, value string, ok bool) {
	i := strings.Index(line, "：")
	n := len("：")
	if j := strings.Index(line, ":"); j >= 0 && (i < 0 || j < i) {
		i, n = j, 1
	}
	if i <= 0 {
		return "", "", false
	}
	key = line[:i]
	if strings.ContainsAny(key, " \t　") {
		return "", "", false
	}
	return key, strings.TrimSpace(line[i+n:]), true
}

// canonicalKey maps the handicap spellings of the player keys to the
// common ones: 下手 is Sente, 上手 is Gote (Kakinoki's KIF spec).
func canonicalKey(k string) string {
	switch k {
	case "下手":
		return KeySente
	case "上手":
		return KeyGote
	case "対局日":
		return KeyStart
	}
	return k
}

// sideName is how KIF and KI2 name a side: 先手/後手, or 下手/上手 in a
// handicap game.
func sideName(c rules.Color, handicap bool) string {
	switch {
	case handicap && c == rules.Sente:
		return "下手"
	case handicap:
		return "上手"
	case c == rules.Sente:
		return "先手"
	}
	return "後手"
}

// sideOfName reads 先手/下手/▲ as Sente and 後手/上手/△ as Gote.
func sideOfName(s string) (rules.Color, bool) {
	switch s {
	case "先手", "下手", "▲", "☗":
		return rules.Sente, true
	case "後手", "上手", "△", "☖":
		return rules.Gote, true
	}
	return rules.Sente, false
}

// isHandicapRecord reports whether player keys should be 下手/上手.
func isHandicapRecord(r *Record) bool {
	return r.Start == "" && r.Handicap != rules.Even
}

// writeKakinokiHeader writes the header fields, 手合割 where the record
// had it (or first), and a BOD diagram for a custom start.
func writeKakinokiHeader(b *strings.Builder, r *Record) error {
	handicap := isHandicapRecord(r)
	wroteHandicap := false
	writeHandicap := func() error {
		wroteHandicap = true
		if r.Start == "" {
			fmt.Fprintf(b, "%s：%s\n", keyHandicap, r.Handicap.Name())
			return nil
		}
		return writeBOD(b, r)
	}
	hasHandicapField := false
	for _, f := range r.Header.Fields {
		if f.Key == keyHandicap {
			hasHandicapField = true
		}
	}
	if !hasHandicapField {
		if err := writeHandicap(); err != nil {
			return err
		}
	}
	for _, f := range r.Header.Fields {
		switch f.Key {
		case "":
			b.WriteString("#" + oneLine(f.Value) + "\n")
		case keyHandicap:
			if !wroteHandicap {
				if err := writeHandicap(); err != nil {
					return err
				}
			}
		case KeySente, KeyGote:
			c := rules.Sente
			if f.Key == KeyGote {
				c = rules.Gote
			}
			fmt.Fprintf(b, "%s：%s\n", sideName(c, handicap), f.Value)
		default:
			fmt.Fprintf(b, "%s：%s\n", f.Key, f.Value)
		}
	}
	for _, c := range r.StartComments {
		writeComment(b, c)
	}
	return nil
}

func writeComment(b *strings.Builder, c string) {
	for _, line := range splitLines(c) {
		b.WriteString("*")
		b.WriteString(line)
		b.WriteByte('\n')
	}
}

// bodPieces are the one-character names a board diagram uses.
var bodPieces = map[rune]rules.PieceType{
	'歩': rules.Pawn, '香': rules.Lance, '桂': rules.Knight, '銀': rules.Silver, '金': rules.Gold,
	'角': rules.Bishop, '飛': rules.Rook, '玉': rules.King, '王': rules.King, 'と': rules.ProPawn,
	'杏': rules.ProLance, '圭': rules.ProKnight, '全': rules.ProSilver, '馬': rules.Horse,
	'龍': rules.Dragon, '竜': rules.Dragon,
}

var bodNames = [...]string{
	rules.Pawn: "歩", rules.Lance: "香", rules.Knight: "桂", rules.Silver: "銀", rules.Gold: "金",
	rules.Bishop: "角", rules.Rook: "飛", rules.King: "玉", rules.ProPawn: "と", rules.ProLance: "杏",
	rules.ProKnight: "圭", rules.ProSilver: "全", rules.Horse: "馬", rules.Dragon: "龍",
}

// bod collects a board diagram while a KIF or KI2 header is read.
type bod struct {
	rows    [][]rules.Piece
	hands   [2]string
	hasHand [2]bool
	side    rules.Color
	sideSet bool
}

func (d *bod) used() bool { return len(d.rows) > 0 || d.hasHand[0] || d.hasHand[1] || d.sideSet }

// readLine takes one header line that belongs to a diagram; ok is false
// when the line is not part of one.
func (d *bod) readLine(line string) (bool, error) {
	trimmed := strings.TrimSpace(line)
	for _, c := range []rules.Color{rules.Sente, rules.Gote} {
		for _, prefix := range []string{sideName(c, false) + "の持駒", sideName(c, true) + "の持駒"} {
			if strings.HasPrefix(trimmed, prefix) {
				rest := strings.TrimPrefix(trimmed, prefix)
				rest = strings.TrimLeft(rest, "：:")
				d.hands[c] = strings.TrimSpace(rest)
				d.hasHand[c] = true
				return true, nil
			}
		}
	}
	switch trimmed {
	case "先手番", "下手番":
		d.side, d.sideSet = rules.Sente, true
		return true, nil
	case "後手番", "上手番":
		d.side, d.sideSet = rules.Gote, true
		return true, nil
	}
	if strings.HasPrefix(trimmed, "+---") || strings.HasPrefix(trimmed, "９ ８ ７") || strings.HasPrefix(trimmed, "手数＝") {
		return true, nil
	}
	if strings.HasPrefix(trimmed, "|") {
		row, err := parseBODRow(trimmed)
		if err != nil {
			return true, err
		}
		if len(d.rows) >= 9 {
			return true, fmt.Errorf("board diagram has more than nine ranks")
		}
		d.rows = append(d.rows, row)
		return true, nil
	}
	return false, nil
}

func parseBODRow(line string) ([]rules.Piece, error) {
	rs := []rune(strings.TrimPrefix(line, "|"))
	row := make([]rules.Piece, 0, 9)
	for i := 0; len(row) < 9; i += 2 {
		if i+1 >= len(rs) {
			return nil, fmt.Errorf("board row %q: want nine squares", line)
		}
		owner, name := rs[i], rs[i+1]
		if name == '・' {
			row = append(row, rules.NoPiece)
			continue
		}
		pt, ok := bodPieces[name]
		if !ok {
			return nil, fmt.Errorf("board row %q: %q is not a piece", line, string(name))
		}
		switch owner {
		case ' ', '^', '　':
			row = append(row, rules.NewPiece(rules.Sente, pt))
		case 'v', 'V':
			row = append(row, rules.NewPiece(rules.Gote, pt))
		default:
			return nil, fmt.Errorf("board row %q: %q before %q must be a space (先手) or v (後手)", line, string(owner), string(name))
		}
	}
	return row, nil
}

// sfen turns the diagram into an SFEN.
func (d *bod) sfen() (string, error) {
	if len(d.rows) != 9 {
		return "", fmt.Errorf("board diagram has %d ranks, want 9", len(d.rows))
	}
	var b strings.Builder
	for r, row := range d.rows {
		if r > 0 {
			b.WriteByte('/')
		}
		empty := 0
		for _, pc := range row {
			if pc.IsEmpty() {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
	}
	side := "b"
	if d.side == rules.Gote {
		side = "w"
	}
	hands := ""
	for _, c := range []rules.Color{rules.Sente, rules.Gote} {
		h, err := parseKakinokiHand(d.hands[c])
		if err != nil {
			return "", fmt.Errorf("%sの持駒: %w", sideName(c, false), err)
		}
		for _, pt := range []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn} {
			if n := h[pt]; n > 0 {
				if n > 1 {
					hands += strconv.Itoa(n)
				}
				hands += rules.NewPiece(c, pt).String()
			}
		}
	}
	if hands == "" {
		hands = "-"
	}
	return b.String() + " " + side + " " + hands + " 1", nil
}

// parseKakinokiHand reads "飛　角　金二　歩十八" or "なし".
func parseKakinokiHand(s string) (map[rules.PieceType]int, error) {
	out := map[rules.PieceType]int{}
	s = strings.TrimSpace(s)
	if s == "" || s == "なし" {
		return out, nil
	}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '　' || r == '\t' || r == '、' }) {
		rs := []rune(tok)
		pt, ok := bodPieces[rs[0]]
		if !ok || !pt.IsHandType() {
			return nil, fmt.Errorf("%q is not a piece that can be held", string(rs[0]))
		}
		n := 1
		if len(rs) > 1 {
			v, ok := kanjiCount(string(rs[1:]))
			if !ok {
				return nil, fmt.Errorf("%q: count %q is not a kanji number", tok, string(rs[1:]))
			}
			n = v
		}
		out[pt] += n
	}
	return out, nil
}

// kanjiCount reads 一..十八 (and Arabic digits).
func kanjiCount(s string) (int, bool) {
	if v, err := strconv.Atoi(s); err == nil && v > 0 {
		return v, true
	}
	digits := "一二三四五六七八九"
	n := 0
	rs := []rune(s)
	if len(rs) == 0 {
		return 0, false
	}
	if rs[0] == '十' {
		n = 10
		rs = rs[1:]
	}
	if len(rs) == 1 {
		i := strings.IndexRune(digits, rs[0])
		if i < 0 {
			return 0, false
		}
		n += i/len("一") + 1
	} else if len(rs) > 1 {
		return 0, false
	}
	return n, n > 0
}

func kanjiCountText(n int) string {
	digits := []string{"", "一", "二", "三", "四", "五", "六", "七", "八", "九"}
	if n >= 10 {
		return "十" + digits[n-10]
	}
	return digits[n]
}

// writeBOD writes the start position as a board diagram.
func writeBOD(b *strings.Builder, r *Record) error {
	p, err := r.StartPosition()
	if err != nil {
		return err
	}
	hand := func(c rules.Color) string {
		var parts []string
		for _, pt := range []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn} {
			if n := p.Hand(c, pt); n > 0 {
				s := bodNames[pt]
				if n > 1 {
					s += kanjiCountText(n)
				}
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			return "なし"
		}
		return strings.Join(parts, "　")
	}
	fmt.Fprintf(b, "後手の持駒：%s\n", hand(rules.Gote))
	b.WriteString("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n")
	for rank := 1; rank <= 9; rank++ {
		b.WriteString("|")
		for file := 9; file >= 1; file-- {
			pc := p.At(rules.NewSquare(file, rank))
			switch {
			case pc.IsEmpty():
				b.WriteString(" ・")
			case pc.Color() == rules.Gote:
				b.WriteString("v" + bodNames[pc.Type()])
			default:
				b.WriteString(" " + bodNames[pc.Type()])
			}
		}
		b.WriteString("|" + rules.KanjiNumeral(rank) + "\n")
	}
	b.WriteString("+---------------------------+\n")
	fmt.Fprintf(b, "先手の持駒：%s\n", hand(rules.Sente))
	if p.SideToMove() == rules.Gote {
		b.WriteString("後手番\n")
	}
	return nil
}

// startFromSFEN sets the record's start: a standard start becomes its
// handicap name, anything else stays an SFEN.
func startFromSFEN(r *Record, sfen string) error {
	p, err := rules.ParseSFEN(sfen)
	if err != nil {
		return err
	}
	canon := p.SFEN()
	for _, h := range rules.AllHandicaps() {
		if sameStart(canon, h.StartSFEN()) {
			r.Handicap, r.Start = h, ""
			return nil
		}
	}
	r.Handicap, r.Start = rules.Even, canon
	return nil
}

// sameStart compares SFENs without the move number.
func sameStart(a, b string) bool {
	trim := func(s string) string {
		f := strings.Fields(s)
		if len(f) >= 3 {
			return strings.Join(f[:3], " ")
		}
		return s
	}
	return trim(a) == trim(b)
}

var summaryRe = regexp.MustCompile(`^まで(\d+)手で(.*)$`)

// summaryLine is the closing line Kakinoki writes after the moves.
func summaryLine(t *Terminal, plies int, toMove rules.Color, handicap bool) string {
	res := t.Result(toMove)
	winner := ""
	loser := ""
	switch res.Outcome {
	case OutcomeSenteWin:
		winner, loser = sideName(rules.Sente, handicap), sideName(rules.Gote, handicap)
	case OutcomeGoteWin:
		winner, loser = sideName(rules.Gote, handicap), sideName(rules.Sente, handicap)
	}
	var what string
	switch t.Kind {
	case EndResign:
		what = winner + "の勝ち"
	case EndCheckmate:
		what = "詰みにより" + winner + "の勝ち"
	case EndTimeUp:
		what = "時間切れにより" + winner + "の勝ち"
	case EndIllegalMove, EndIllegalAction:
		what = loser + "の反則負け"
	case EndDeclareWin:
		what = "入玉宣言により" + winner + "の勝ち"
	case EndForfeitWin:
		what = winner + "の不戦勝"
	case EndForfeitLoss:
		what = loser + "の不戦敗"
	default:
		what = t.Kind.KIFWord()
	}
	return fmt.Sprintf("まで%d手で%s", plies, what)
}

// parseSummary reads a closing line; plies is the number of moves read and
// toMove the side to move after them.
func parseSummary(line string, plies int, toMove rules.Color) (*Terminal, error) {
	m := summaryRe.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return nil, fmt.Errorf("closing line %q: want まで<N>手で…", line)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n != plies {
		return nil, fmt.Errorf("closing line %q counts %s moves but the record has %d", line, m[1], plies)
	}
	what := m[2]
	side := func(suffix string) (rules.Color, bool) {
		i := strings.Index(what, suffix)
		if i < len("先手") {
			return rules.Sente, false
		}
		return sideOfName(what[i-len("先手") : i])
	}
	switch {
	case strings.Contains(what, "千日手"):
		return &Terminal{Kind: EndSennichite}, nil
	case strings.Contains(what, "持将棋"):
		return &Terminal{Kind: EndJishogi}, nil
	case strings.Contains(what, "中断"):
		return &Terminal{Kind: EndAbort}, nil
	case strings.Contains(what, "不詰"):
		return &Terminal{Kind: EndNoMate}, nil
	case strings.Contains(what, "反則負け"):
		loser, ok := side("の反則負け")
		if !ok {
			return nil, fmt.Errorf("closing line %q: say whose 反則負け", line)
		}
		if loser == toMove {
			return &Terminal{Kind: EndIllegalMove}, nil
		}
		return &Terminal{Kind: EndIllegalAction, Loser: loser}, nil
	case strings.Contains(what, "不戦勝"):
		w, ok := side("の不戦勝")
		if !ok || w != toMove {
			return nil, fmt.Errorf("closing line %q: the side to move (%s) must be the one winning by default", line, sideName(toMove, false))
		}
		return &Terminal{Kind: EndForfeitWin}, nil
	case strings.Contains(what, "不戦敗"):
		l, ok := side("の不戦敗")
		if !ok || l != toMove {
			return nil, fmt.Errorf("closing line %q: the side to move (%s) must be the one losing by default", line, sideName(toMove, false))
		}
		return &Terminal{Kind: EndForfeitLoss}, nil
	case strings.HasSuffix(what, "の勝ち"):
		w, ok := side("の勝ち")
		if !ok {
			return nil, fmt.Errorf("closing line %q: say who won (先手/後手/下手/上手)", line)
		}
		kind := EndResign
		switch {
		case strings.Contains(what, "詰"):
			kind = EndCheckmate
		case strings.Contains(what, "時間切れ") || strings.Contains(what, "切れ負け"):
			kind = EndTimeUp
		case strings.Contains(what, "入玉") || strings.Contains(what, "宣言"):
			kind = EndDeclareWin
		case strings.Contains(what, "反則"):
			return &Terminal{Kind: EndIllegalAction, Loser: w.Opponent()}, nil
		}
		// Resignation, mate and time are the loss of the side to move; a
		// declaration is the win of the side to move.
		if (kind == EndDeclareWin) != (w == toMove) {
			return nil, fmt.Errorf("closing line %q: after %d moves %s is to move, which does not fit", line, plies, sideName(toMove, false))
		}
		return &Terminal{Kind: kind}, nil
	}
	return nil, fmt.Errorf("closing line %q: unknown result", line)
}
