package kifu

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/rules"
)

// KIF (Kakinoki's format): header lines "key：value", 手合割 or a board
// diagram, then numbered moves with the origin in parentheses and times
// "( 0:16/00:00:16)", "*" comments, a terminal word, and variations
// introduced by "変化：N手".

// ReadKIF reads a KIF record from decoded text.
func ReadKIF(text string) (*Record, error) {
	return readKakinoki(text, FormatKIF)
}

// readKakinoki reads KIF or KI2; they share the header, diagram, comment
// and variation conventions and differ in how moves are written.
func readKakinoki(text string, f Format) (*Record, error) {
	rec := &Record{}
	var diagram bod
	tree := newTreeBuilder()
	inMoves := false
	var ki2 *ki2State
	if f == FormatKI2 {
		ki2 = &ki2State{}
	}
	startColor := func() rules.Color {
		if rec.Start != "" {
			return rec.StartColor()
		}
		if rec.Handicap == rules.Even {
			return rules.Sente
		}
		return rules.Gote
	}
	toMoveAt := func(ply int) rules.Color { // side making move number ply
		c := startColor()
		if ply%2 == 0 {
			return c.Opponent()
		}
		return c
	}
	finishHeader := func(line int) error {
		if inMoves {
			return nil
		}
		inMoves = true
		if diagram.used() {
			sfen, err := diagram.sfen()
			if err != nil {
				return lineErr(f, line, "%v", err)
			}
			if err := startFromSFEN(rec, sfen); err != nil {
				return lineErr(f, line, "board diagram: %v", err)
			}
		}
		start, err := rec.StartPosition()
		if err != nil {
			return lineErr(f, line, "%v", err)
		}
		tree.start = boardOf(start)
		tree.bd = tree.start
		if ki2 != nil {
			ki2.start(start)
		}
		return nil
	}
	addComment := func(c string) {
		switch {
		case !inMoves || (tree.cur == tree.main && len(tree.main.nodes) == 0 && tree.main.end == nil):
			rec.StartComments = append(rec.StartComments, c)
		case tree.cur.end != nil:
			tree.cur.end.Comments = append(tree.cur.end.Comments, c)
		case tree.last() != nil:
			n := tree.last()
			n.Comments = append(n.Comments, c)
		default:
			// A comment right after 変化：N手 belongs to the line's first
			// move, which is not read yet; keep it for that move.
			tree.pendingComments = append(tree.pendingComments, c)
		}
	}
	for i, raw := range eachLine(text) {
		lineNo := i + 1
		line := trimRightSpaces(raw)
		trimmed := trimSpaces(line)
		if inMoves && f == FormatKIF && isKIFMoveLine(trimmed) {
			// The bulk of a KIF: a numbered move. None of the cases below
			// applies to a line that starts with a digit.
			if err := readKIFMove(trimmed, lineNo, tree, toMoveAt); err != nil {
				return nil, err
			}
			continue
		}
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, "#"):
			if !inMoves {
				rec.Header.Add("", strings.TrimPrefix(trimmed, "#"))
			}
			continue
		case strings.HasPrefix(trimmed, "*"):
			addComment(strings.TrimPrefix(trimmed, "*"))
			continue
		case strings.HasPrefix(trimmed, "&"):
			addComment(trimmed)
			continue
		case strings.HasPrefix(trimmed, "手数----") || strings.HasPrefix(trimmed, "手数――"):
			if err := finishHeader(lineNo); err != nil {
				return nil, err
			}
			continue
		case strings.HasPrefix(trimmed, "変化：") || strings.HasPrefix(trimmed, "変化:"):
			if err := finishHeader(lineNo); err != nil {
				return nil, err
			}
			numText := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(trimmed, "変化："), "変化:"), "手")
			n, err := strconv.Atoi(strings.TrimSpace(numText))
			if err != nil || n < 1 {
				return nil, lineErr(f, lineNo, "変化 line %q: want 変化：<move number>手", trimmed)
			}
			if err := tree.branch(n); err != nil {
				return nil, lineErr(f, lineNo, "%v", err)
			}
			tree.rewind(n)
			if ki2 != nil {
				if err := ki2.rewind(tree); err != nil {
					return nil, lineErr(f, lineNo, "%v", err)
				}
			}
			continue
		case strings.HasPrefix(trimmed, "まで"):
			if err := finishHeader(lineNo); err != nil {
				return nil, err
			}
			if tree.cur.end == nil {
				plies := tree.nextPly() - 1
				t, err := parseSummary(trimmed, plies, toMoveAt(plies+1))
				if err != nil {
					if f == FormatKI2 {
						return nil, lineErr(f, lineNo, "%v", err)
					}
					continue // KIF: the terminal word is what counts
				}
				t.SourceLine = lineNo
				tree.cur.end = t
			}
			continue
		}
		if !inMoves {
			if ok, err := diagram.readLine(line); ok || err != nil {
				if err != nil {
					return nil, lineErr(f, lineNo, "%v", err)
				}
				continue
			}
			if key, value, ok := splitHeaderLine(trimmed); ok {
				key = canonicalKey(key)
				if key == keyHandicap {
					h, known := rules.HandicapByName(value)
					if !known && value != "その他" {
						return nil, kindErr(f, lineNo, ErrHandicap, 0, "手合割 %q is not a known handicap", value)
					}
					rec.Handicap = h
				}
				rec.Header.Add(key, value)
				continue
			}
		}
		if inMoves && strings.Contains(trimmed, "：") && !isKIFMoveLine(trimmed) && !strings.ContainsAny(trimmed, "▲△☗☖") {
			// Some programs put header lines such as 終了日時 after the
			// moves; keep them with the others.
			if key, value, ok := splitHeaderLine(trimmed); ok {
				rec.Header.Add(canonicalKey(key), value)
				continue
			}
		}
		if f == FormatKI2 {
			if err := finishHeader(lineNo); err != nil {
				return nil, err
			}
			if err := ki2.readMoves(trimmed, lineNo, tree, toMoveAt); err != nil {
				return nil, err
			}
			continue
		}
		if !isKIFMoveLine(trimmed) {
			return nil, kindErr(f, lineNo, ErrNotALine, 0, "%q is neither a header line (key：value), a comment (*) nor a numbered move", trimmed)
		}
		if err := finishHeader(lineNo); err != nil {
			return nil, err
		}
		if err := readKIFMove(trimmed, lineNo, tree, toMoveAt); err != nil {
			return nil, err
		}
	}
	if err := finishHeader(0); err != nil {
		return nil, err
	}
	rec.Main = tree.main.build()
	return rec, nil
}

// trimSpaces drops leading and trailing ASCII white space and full-width
// spaces; unlike strings.TrimSpace it never decodes the Japanese text in
// between, which keeps reading fast.
func trimSpaces(s string) string {
	for {
		switch {
		case s != "" && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n'):
			s = s[1:]
		case strings.HasPrefix(s, "\u3000"):
			s = s[len("\u3000"):]
		default:
			return trimRightSpaces(s)
		}
	}
}

// trimRightSpaces drops trailing ASCII and full-width spaces and tabs.
func trimRightSpaces(s string) string {
	for {
		switch {
		case s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r' || s[len(s)-1] == '\n'):
			s = s[:len(s)-1]
		case strings.HasSuffix(s, "\u3000"):
			s = s[:len(s)-len("\u3000")]
		default:
			return s
		}
	}
}

// readKIFMove reads one numbered KIF line: a move or a terminal word.
func readKIFMove(line string, lineNo int, tree *treeBuilder, toMoveAt func(int) rules.Color) error {
	num, sep := 0, 0
	for sep < len(line) && line[sep] >= '0' && line[sep] <= '9' {
		if num > 1e6 {
			return kindErr(FormatKIF, lineNo, ErrMoveLine, 0, "move number in %q is too large", line)
		}
		num = num*10 + int(line[sep]-'0')
		sep++
	}
	if sep == 0 || sep == len(line) || (line[sep] != ' ' && line[sep] != '\t') {
		return kindErr(FormatKIF, lineNo, ErrMoveLine, 0, "move line %q: want <number> <move>", line)
	}
	rest := strings.TrimLeft(line[sep+1:], " \t")
	if want := tree.nextPly(); num != want {
		return kindErr(FormatKIF, lineNo, ErrMoveNumber, want, "move number %d, expected %d", num, want)
	}
	if tree.cur.end != nil {
		return kindErr(FormatKIF, lineNo, ErrAfterEnd, num, "move %d after the terminal word %s", num, tree.cur.end.Kind.KIFWord())
	}
	// A trailing "+" marks a move that has variations; the 変化 lines
	// themselves say where they go, so the mark is not needed to read.
	rest = strings.TrimSuffix(strings.TrimRight(rest, " "), "+")
	moveText, timeText := rest, ""
	if i := indexOpenSpace(rest); i >= 0 && strings.IndexByte(rest[i:], '/') >= 0 {
		moveText, timeText = rest[:i], rest[i:]
	} else if i := strings.LastIndexByte(rest, '('); i >= 0 && strings.IndexByte(rest[i:], '/') >= 0 {
		moveText, timeText = rest[:i], rest[i:]
	}
	moveText = trimSpaces(moveText)
	spent, total, hasTime, err := parseKIFTime(timeText)
	if err != nil {
		return kindErr(FormatKIF, lineNo, ErrIllegalMove, num, "move %d: %v", num, err)
	}
	word := moveText
	for i := 0; i < len(word); i++ {
		if word[i] == ' ' || word[i] == '\t' {
			word = word[:i]
			break
		}
	}
	if word != "" && !isDestinationStart(word) {
		if t, ok := newKIFTerminal(word, toMoveAt(num)); ok {
			t.Time, t.Total, t.HasTime, t.SourceLine = spent, total, hasTime, lineNo
			tree.cur.end = t
			return nil
		}
	}
	m, named, err := parseKIFMoveText(moveText, tree.moveAt(num-1))
	if err != nil {
		return kindErr(FormatKIF, lineNo, ErrIllegalMove, num, "move %d: %v", num, err)
	}
	// The origin must hold the piece the text names; whether the move is
	// legal is the rules engine's question, asked when the game is checked.
	if got := tree.bd.mover(m); got.Type() != named {
		what := "nothing"
		if !got.IsEmpty() {
			what = got.Type().Kanji()
		}
		return lineErr(FormatKIF, lineNo, "move %d %q: %s stands on %s, not %s", num, moveText, what, m.From(), named.Kanji())
	}
	tree.bd.play(m)
	n := Node{Move: m, Time: spent, Total: total, HasTime: hasTime, SourceLine: lineNo}
	n.Comments, tree.pendingComments = tree.pendingComments, nil
	tree.add(n)
	return nil
}

// indexOpenSpace is strings.Index(s, "( "), where a KIF time begins,
// without the general substring search (the line is short and ASCII
// bytes never occur inside a multi-byte character).
func indexOpenSpace(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '(' && s[i+1] == ' ' {
			return i
		}
	}
	return -1
}

// isDestinationStart reports text that begins like a move (a digit or 同),
// so the terminal-word lookup can be skipped.
func isDestinationStart(s string) bool {
	return strings.HasPrefix(s, "同") || (s[0] >= '1' && s[0] <= '9') ||
		(len(s) >= 3 && s[0] == 0xef && s[1] == 0xbc && s[2] >= 0x91 && s[2] <= 0x99)
}

// parseKIFMoveText reads "７六歩(77)", "同　歩(76)", "５五角打", "２二角成(88)".
func parseKIFMoveText(s string, prevMove rules.Move) (rules.Move, rules.PieceType, error) {
	m, err := parseKIFMoveParts(s, prevMove)
	return m.move, m.piece, err
}

type namedMove struct {
	move  rules.Move
	piece rules.PieceType
}

func parseKIFMoveParts(s string, prevMove rules.Move) (namedMove, error) {
	if nm, ok := fastKIFMove(s, prevMove); ok {
		return nm, nil
	}
	return parseKIFMoveGeneral(s, prevMove)
}

// parseKIFMoveGeneral reads any spelling the notation parser accepts and
// says what is wrong with the rest.
func parseKIFMoveGeneral(s string, prevMove rules.Move) (namedMove, error) {
	mp, err := rules.ParseMoveTextParts(s)
	if err != nil {
		return namedMove{}, err
	}
	to := mp.To
	if mp.Same {
		if prevMove == rules.NoMove {
			return namedMove{}, fmt.Errorf("%q: 同 but there is no previous move", s)
		}
		to = prevMove.To()
	}
	if !to.Valid() {
		return namedMove{}, fmt.Errorf("%q: no destination", s)
	}
	rest := trimSpaces(mp.Rest)
	if mp.Drop {
		if rest != "" {
			return namedMove{}, fmt.Errorf("%q: unexpected %q after 打", s, rest)
		}
		if !mp.Piece.IsHandType() {
			return namedMove{}, fmt.Errorf("%q: a %s cannot be dropped", s, mp.Piece.Kanji())
		}
		return namedMove{rules.NewDrop(mp.Piece, to), mp.Piece}, nil
	}
	if len(rest) != 4 || rest[0] != '(' || rest[3] != ')' || !isDigits(rest[1:3]) || rest[1] == '0' || rest[2] == '0' {
		return namedMove{}, fmt.Errorf("%q: want the origin square in parentheses, e.g. (77), or 打", s)
	}
	from := rules.NewSquare(int(rest[1]-'0'), int(rest[2]-'0'))
	return namedMove{rules.NewMove(from, to, mp.Promote == rules.PromoteYes), mp.Piece}, nil
}

// parseKIFTime reads "( 0:16/00:00:16)": this move's minutes:seconds and
// the cumulative hours:minutes:seconds.
func parseKIFTime(s string) (spent, total time.Duration, ok bool, err error) {
	s = trimSpaces(s)
	if s == "" {
		return 0, 0, false, nil
	}
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return 0, 0, false, fmt.Errorf("time %q: want ( m:ss/hh:mm:ss)", s)
	}
	inner := trimSpaces(s[1 : len(s)-1])
	a, b, _ := strings.Cut(inner, "/")
	if spent, err = parseClock(trimSpaces(a)); err != nil {
		return 0, 0, false, fmt.Errorf("time %q: %v", s, err)
	}
	if trimSpaces(b) != "" {
		if total, err = parseClock(trimSpaces(b)); err != nil {
			return 0, 0, false, fmt.Errorf("time %q: %v", s, err)
		}
	}
	return spent, total, true, nil
}

// parseClock reads "m:ss" or "h:mm:ss" (fields may be space padded).
func parseClock(s string) (time.Duration, error) {
	var d time.Duration
	fields, v, digits := 0, 0, 0
	end := func() bool {
		if digits == 0 || (fields > 0 && v >= 60) {
			return false
		}
		d = d*60 + time.Duration(v)
		fields++
		v, digits = 0, 0
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if v > 1e6 {
				return 0, fmt.Errorf("%q is not m:ss or h:mm:ss", s)
			}
			v = v*10 + int(c-'0')
			digits++
		case c == ':':
			if !end() {
				return 0, fmt.Errorf("%q is not m:ss or h:mm:ss", s)
			}
		case c == ' ' && digits == 0:
		default:
			return 0, fmt.Errorf("%q is not m:ss or h:mm:ss", s)
		}
	}
	if !end() || fields < 2 || fields > 3 {
		return 0, fmt.Errorf("%q is not m:ss or h:mm:ss", s)
	}
	return d * time.Second, nil
}

func formatKIFTime(spent, total time.Duration) string {
	s := int64(spent / time.Second)
	t := int64(total / time.Second)
	return fmt.Sprintf("(%2d:%02d/%02d:%02d:%02d)", s/60, s%60, t/3600, t/60%60, t%60)
}

// WriteKIF writes r as KIF (UTF-8; see EncodeShiftJIS for .kif files
// read by older programs).
func WriteKIF(r *Record) (string, error) {
	var b strings.Builder
	if err := writeKakinokiHeader(&b, r); err != nil {
		return "", err
	}
	start, err := r.StartPosition()
	if err != nil {
		return "", err
	}
	b.WriteString("手数----指手---------消費時間--\n")
	bd := boardOf(start)
	w := kifWriter{b: &b}
	if err := w.line(r.Main, 1, bd, rules.NoMove); err != nil {
		return "", err
	}
	if r.Main.End != nil {
		plies := len(r.Main.Nodes)
		toMove := start.SideToMove()
		if plies%2 == 1 {
			toMove = toMove.Opponent()
		}
		b.WriteString(summaryLine(r.Main.End, plies, toMove, isHandicapRecord(r)))
		b.WriteByte('\n')
	}
	if err := w.variations(r.Main, 1, bd, rules.NoMove); err != nil {
		return "", err
	}
	return b.String(), nil
}

type kifWriter struct {
	b *strings.Builder
}

// line writes a line's moves; bd is the board before its first move.
func (w *kifWriter) line(l Line, ply int, bd board, prev rules.Move) error {
	for i, n := range l.Nodes {
		pc := bd.play(n.Move)
		if !pc.Type().Valid() {
			return fmt.Errorf("KIF: move %d (%s) starts from an empty square; KIF cannot name the piece", ply+i, n.Move)
		}
		text := kifMoveText(n.Move, pc, prev)
		mark := ""
		if len(n.Variations) > 0 {
			mark = "+"
		}
		w.moveLine(ply+i, text, n.HasTime, n.Time, n.Total, mark)
		for _, c := range n.Comments {
			writeComment(w.b, c)
		}
		prev = n.Move
	}
	if t := l.End; t != nil {
		toMove := bd.toMove
		w.moveLine(ply+len(l.Nodes), t.KIFWordFor(toMove), t.HasTime, t.Time, t.Total, "")
		for _, c := range t.Comments {
			writeComment(w.b, c)
		}
	}
	return nil
}

// variations writes the 変化 of l depth first, the last branch point
// first, so a reader finds each one's parent on its way back (see
// treeBuilder.branch).
func (w *kifWriter) variations(l Line, ply int, bd board, prev rules.Move) error {
	boards := make([]board, len(l.Nodes))
	prevs := make([]rules.Move, len(l.Nodes))
	for i, n := range l.Nodes {
		boards[i] = bd
		prevs[i] = prev
		bd.play(n.Move)
		prev = n.Move
	}
	for i := len(l.Nodes) - 1; i >= 0; i-- {
		for _, v := range l.Nodes[i].Variations {
			fmt.Fprintf(w.b, "\n変化：%d手\n", ply+i)
			if err := w.line(v, ply+i, boards[i], prevs[i]); err != nil {
				return err
			}
			if err := w.variations(v, ply+i, boards[i], prevs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *kifWriter) moveLine(ply int, text string, hasTime bool, spent, total time.Duration, mark string) {
	if hasTime {
		pad := 14 - displayWidth(text)
		if pad < 1 {
			pad = 1
		}
		fmt.Fprintf(w.b, "%4d %s%s%s%s\n", ply, text, strings.Repeat(" ", pad), formatKIFTime(spent, total), mark)
		return
	}
	fmt.Fprintf(w.b, "%4d %s%s\n", ply, text, mark)
}

// displayWidth counts full-width characters as two columns.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if r < 0x80 {
			w++
		} else {
			w += 2
		}
	}
	return w
}

// kifMoveText spells a move the KIF way: destination (or 同　), the
// moving piece, 成 when promoting, then the origin "(77)" or 打.
// Kakinoki's spec writes no 不成.
func kifMoveText(m rules.Move, pc rules.Piece, prev rules.Move) string {
	var s strings.Builder
	if prev != rules.NoMove && prev.To() == m.To() {
		s.WriteString("同　")
	} else {
		s.WriteString(rules.SquareText(m.To()))
	}
	s.WriteString(pc.Type().Kanji())
	if m.IsDrop() {
		s.WriteString("打")
		return s.String()
	}
	if m.IsPromotion() {
		s.WriteString("成")
	}
	from := m.From()
	fmt.Fprintf(&s, "(%d%d)", from.File(), from.Rank())
	return s.String()
}
