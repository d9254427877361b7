package kifu

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"kisen/rules"
)

// CSA standard record format, V2.2 and V3.0: "V2.2"/"V3.0", N+/N- names,
// $KEY:value information, the start position (PI with the squares a
// handicap removes, or P1..P9 rows, P+/P- piece lists with 00 for hands
// and 00AL for the rest), the side to move (+/-), then moves "+7776FU"
// each followed by "T<seconds>", "'" comments and a % special move.
// Several statements may share a line, separated by commas.

var csaPieceCodes = [...]string{
	rules.Pawn: "FU", rules.Lance: "KY", rules.Knight: "KE", rules.Silver: "GI", rules.Gold: "KI",
	rules.Bishop: "KA", rules.Rook: "HI", rules.King: "OU", rules.ProPawn: "TO", rules.ProLance: "NY",
	rules.ProKnight: "NK", rules.ProSilver: "NG", rules.Horse: "UM", rules.Dragon: "RY",
}

func csaPiece(code string) (rules.PieceType, bool) {
	for pt, c := range csaPieceCodes {
		if c != "" && c == code {
			return rules.PieceType(pt), true
		}
	}
	return rules.NoPieceType, false
}

// csaKeys maps CSA $ keywords to the common header keys.
var csaKeys = map[string]string{
	"EVENT": KeyEvent, "SITE": KeyPlace, "START_TIME": KeyStart, "END_TIME": KeyEnd,
	"TIME_LIMIT": KeyTimeLimit, "TIME": KeyTimeLimit, "OPENING": KeyOpening,
	"MAX_MOVES": KeyMaxMoves, "JISHOGI": KeyJishogi, "NOTE": KeyNote,
}

// fullSet is how many of each kind one set holds (kings aside), for 00AL.
var fullSet = [...]int{rules.Pawn: 18, rules.Lance: 4, rules.Knight: 4, rules.Silver: 4, rules.Gold: 4, rules.Bishop: 2, rules.Rook: 2}

// csaSetup collects the start position statements.
type csaSetup struct {
	used  bool
	sq    [rules.NumSquares]rules.Piece
	hand  [2][8]int
	side  rules.Color
	turn  bool // the +/- line was read
	alFor int  // 0 none, 1 Sente, 2 Gote: who receives 00AL
}

func parseCSASquare(s string) (rules.Square, bool) {
	if len(s) != 2 || s[0] < '1' || s[0] > '9' || s[1] < '1' || s[1] > '9' {
		return rules.NoSquare, false
	}
	return rules.NewSquare(int(s[0]-'0'), int(s[1]-'0')), true
}

func (cs *csaSetup) statement(st string) error {
	cs.used = true
	switch {
	case strings.HasPrefix(st, "PI"):
		p := rules.NewPosition(rules.Even)
		for s := rules.Square(0); s < rules.NumSquares; s++ {
			cs.sq[s] = p.At(s)
		}
		rest := st[2:]
		for len(rest) > 0 {
			if len(rest) < 4 {
				return fmt.Errorf("PI line %q: want square and piece pairs like 82HI", st)
			}
			s, ok := parseCSASquare(rest[:2])
			pt, ok2 := csaPiece(rest[2:4])
			if !ok || !ok2 {
				return fmt.Errorf("PI line %q: %q is not a square and piece", st, rest[:4])
			}
			if cs.sq[s].Type() != pt {
				return fmt.Errorf("PI line %q: no %s on %s in the even start", st, rest[2:4], s)
			}
			cs.sq[s] = rules.NoPiece
			rest = rest[4:]
		}
	case len(st) >= 2 && st[1] >= '1' && st[1] <= '9':
		rank := int(st[1] - '0')
		row := st[2:]
		for file := 9; file >= 1; file-- {
			i := (9 - file) * 3
			cell := "   "
			if i < len(row) {
				cell = (row[i:] + "   ")[:3]
			}
			s := rules.NewSquare(file, rank)
			switch {
			case strings.TrimSpace(cell) == "*" || strings.TrimSpace(cell) == "":
				cs.sq[s] = rules.NoPiece
			case cell[0] == '+' || cell[0] == '-':
				pt, ok := csaPiece(cell[1:])
				if !ok {
					return fmt.Errorf("board line %q: %q is not a piece", st, cell)
				}
				c := rules.Sente
				if cell[0] == '-' {
					c = rules.Gote
				}
				cs.sq[s] = rules.NewPiece(c, pt)
			default:
				return fmt.Errorf("board line %q: %q is not a square (want \" * \", +FU, -KY …)", st, cell)
			}
		}
		if len(row) > 27 {
			return fmt.Errorf("board line %q: more than nine squares", st)
		}
	case strings.HasPrefix(st, "P+") || strings.HasPrefix(st, "P-"):
		c := rules.Sente
		if st[1] == '-' {
			c = rules.Gote
		}
		rest := st[2:]
		for len(rest) > 0 {
			if len(rest) < 4 {
				return fmt.Errorf("piece line %q: want square and piece pairs like 00FU", st)
			}
			if rest[:4] == "00AL" {
				cs.alFor = int(c) + 1
				rest = rest[4:]
				continue
			}
			pt, ok := csaPiece(rest[2:4])
			if !ok {
				return fmt.Errorf("piece line %q: %q is not a piece", st, rest[2:4])
			}
			if rest[:2] == "00" {
				if !pt.IsHandType() {
					return fmt.Errorf("piece line %q: %s cannot be in hand", st, rest[2:4])
				}
				cs.hand[c][pt]++
			} else {
				s, ok := parseCSASquare(rest[:2])
				if !ok {
					return fmt.Errorf("piece line %q: %q is not a square", st, rest[:2])
				}
				cs.sq[s] = rules.NewPiece(c, pt)
			}
			rest = rest[4:]
		}
	default:
		return fmt.Errorf("position line %q: want PI, P1..P9, P+ or P-", st)
	}
	return nil
}

func (cs *csaSetup) sfen() (string, error) {
	if cs.alFor > 0 {
		var used [8]int
		for _, pc := range cs.sq {
			if !pc.IsEmpty() && pc.Type() != rules.King {
				used[pc.Type().Unpromoted()]++
			}
		}
		for c := range 2 {
			for pt := rules.Pawn; pt <= rules.Rook; pt++ {
				used[pt] += cs.hand[c][pt]
			}
		}
		for pt := rules.Pawn; pt <= rules.Rook; pt++ {
			if rest := fullSet[pt] - used[pt]; rest > 0 {
				cs.hand[cs.alFor-1][pt] += rest
			}
		}
	}
	var b strings.Builder
	for rank := 1; rank <= 9; rank++ {
		if rank > 1 {
			b.WriteByte('/')
		}
		empty := 0
		for file := 9; file >= 1; file-- {
			pc := cs.sq[rules.NewSquare(file, rank)]
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
	side := " b "
	if cs.side == rules.Gote {
		side = " w "
	}
	b.WriteString(side)
	hands := ""
	for c := range 2 {
		for _, pt := range []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn} {
			if n := cs.hand[c][pt]; n > 0 {
				if n > 1 {
					hands += strconv.Itoa(n)
				}
				hands += rules.NewPiece(rules.Color(c), pt).String()
			}
		}
	}
	if hands == "" {
		hands = "-"
	}
	b.WriteString(hands + " 1")
	return b.String(), nil
}

// csaMoveRe matches a move: sign, origin (00 for a drop), destination, piece.
var csaMoveRe = regexp.MustCompile(`^([+-])(\d\d)(\d\d)([A-Z]{2})$`)

// ReadCSA reads a CSA record from decoded text.
func ReadCSA(text string) (*Record, error) {
	rec := &Record{}
	var setup csaSetup
	tree := newTreeBuilder()
	started := false
	var totals [2]time.Duration
	var bd board
	var startSide rules.Color
	var lastTimed *Node // the node or terminal a T line refers to
	var lastTerminal *Terminal
	resultComment := ""
	start := func(lineNo int) error {
		if started {
			return nil
		}
		started = true
		sfen := rules.NewPosition(rules.Even).SFEN()
		if setup.used {
			if !setup.turn {
				return lineErr(FormatCSA, lineNo, "the start position needs a turn line (+ or -) before the moves")
			}
			s, err := setup.sfen()
			if err != nil {
				return lineErr(FormatCSA, lineNo, "%v", err)
			}
			sfen = s
		}
		if err := startFromSFEN(rec, sfen); err != nil {
			return lineErr(FormatCSA, lineNo, "start position: %v", err)
		}
		p, err := rec.StartPosition()
		if err != nil {
			return lineErr(FormatCSA, lineNo, "%v", err)
		}
		bd = boardOf(p)
		startSide = p.SideToMove()
		return nil
	}
	for i, raw := range splitLines(text) {
		lineNo := i + 1
		line := strings.TrimRight(raw, " \t")
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "'") {
			body := line[1:]
			switch {
			case strings.HasPrefix(body, "CSA encoding="):
			case strings.HasPrefix(body, "*"):
				c := body[1:]
				if !started || len(tree.main.nodes) == 0 && tree.main.end == nil {
					rec.StartComments = append(rec.StartComments, c)
				} else if lastTerminal != nil {
					lastTerminal.Comments = append(lastTerminal.Comments, c)
				} else {
					n := tree.last()
					n.Comments = append(n.Comments, c)
				}
			case !started && !setup.used:
				if key, value, ok := splitHeaderLine(body); ok && strings.Contains(body, "：") {
					rec.Header.Add(key, value)
				} else {
					rec.Header.Add("", body)
				}
			case strings.HasPrefix(body, csaResultComment):
				resultComment = strings.TrimPrefix(body, csaResultComment)
			default:
				// Other comments are for people; keep them with the move
				// they follow so they are not lost.
				if started && len(tree.main.nodes) > 0 {
					if lastTerminal != nil {
						lastTerminal.Comments = append(lastTerminal.Comments, body)
					} else {
						n := tree.last()
						n.Comments = append(n.Comments, body)
					}
				} else {
					rec.StartComments = append(rec.StartComments, body)
				}
			}
			continue
		}
		statements := []string{line}
		if line[0] == '+' || line[0] == '-' || line[0] == 'T' || line[0] == '%' {
			statements = strings.Split(line, ",")
		}
		for _, st := range statements {
			st = strings.TrimSpace(st)
			switch {
			case st == "":
			case st == "/":
				return nil, kindErr(FormatCSA, lineNo, ErrSeveral, 0, "the file holds several records separated by \"/\"; split it into one record per file")
			case st[0] == 'V' && !started && !setup.used:
				// Version line: V2, V2.1, V2.2 and V3.0 read the same here.
			case (strings.HasPrefix(st, "N+") || strings.HasPrefix(st, "N-")) && !started:
				key := KeySente
				if st[1] == '-' {
					key = KeyGote
				}
				rec.Header.Add(key, strings.TrimSpace(st[2:]))
			case st[0] == '$' && !started:
				k, v, ok := strings.Cut(st[1:], ":")
				if !ok || k == "" {
					return nil, lineErr(FormatCSA, lineNo, "information line %q: want $KEY:value", st)
				}
				v = strings.TrimSpace(v)
				if common, known := csaKeys[k]; known {
					rec.Header.Add(common, v)
				} else {
					rec.Header.Add("$"+k, v)
				}
			case st[0] == 'P' && !started:
				if err := setup.statement(st); err != nil {
					return nil, lineErr(FormatCSA, lineNo, "%v", err)
				}
			case (st == "+" || st == "-") && !started:
				setup.used, setup.turn = true, true
				setup.side = rules.Sente
				if st == "-" {
					setup.side = rules.Gote
				}
			case st[0] == '+' || st[0] == '-':
				if err := start(lineNo); err != nil {
					return nil, err
				}
				if lastTerminal != nil {
					return nil, kindErr(FormatCSA, lineNo, ErrAfterEnd, 0, "move %s after the special move %s", st, lastTerminal.CSAWordFor(rules.Sente))
				}
				mm := csaMoveRe.FindStringSubmatch(st)
				if mm == nil {
					return nil, lineErr(FormatCSA, lineNo, "move %q: want a sign, origin, destination and piece, e.g. +7776FU", st)
				}
				ply := tree.nextPly()
				c := rules.Sente
				if mm[1] == "-" {
					c = rules.Gote
				}
				if c != bd.toMove {
					return nil, lineErr(FormatCSA, lineNo, "move %d %s: %s is to move", ply, st, bd.toMove)
				}
				to, ok := parseCSASquare(mm[3])
				pt, ok2 := csaPiece(mm[4])
				if !ok || !ok2 {
					return nil, lineErr(FormatCSA, lineNo, "move %q: bad destination or piece", st)
				}
				var m rules.Move
				if mm[2] == "00" {
					if !pt.IsHandType() {
						return nil, lineErr(FormatCSA, lineNo, "move %q: %s cannot be dropped", st, mm[4])
					}
					m = rules.NewDrop(pt, to)
				} else {
					from, ok := parseCSASquare(mm[2])
					if !ok {
						return nil, lineErr(FormatCSA, lineNo, "move %q: bad origin %s", st, mm[2])
					}
					have := bd.at(from)
					switch {
					case have.IsEmpty():
						return nil, lineErr(FormatCSA, lineNo, "move %d %s: no piece stands on %s", ply, st, from)
					case have.Type() == pt:
						m = rules.NewMove(from, to, false)
					case have.Type().CanPromote() && have.Type().Promoted() == pt:
						m = rules.NewMove(from, to, true)
					default:
						return nil, lineErr(FormatCSA, lineNo, "move %d %s: %s stands on %s, which cannot become %s", ply, st, csaPieceCodes[have.Type()], from, mm[4])
					}
				}
				bd.play(m)
				tree.add(Node{Move: m, SourceLine: lineNo})
				lastTimed = tree.last()
			case st[0] == 'T':
				d, err := parseCSATime(st[1:])
				if err != nil {
					return nil, lineErr(FormatCSA, lineNo, "time %q: %v", st, err)
				}
				ply := tree.nextPly() - 1
				switch {
				case lastTerminal != nil:
					lastTerminal.Time, lastTerminal.HasTime = d, true
					mover := startSide
					if ply%2 == 1 {
						mover = mover.Opponent()
					}
					lastTerminal.Total = totals[mover] + d
				case lastTimed != nil:
					mover := startSide
					if ply%2 == 0 {
						mover = mover.Opponent()
					}
					totals[mover] += d
					lastTimed.Time, lastTimed.Total, lastTimed.HasTime = d, totals[mover], true
					lastTimed = nil
				default:
					return nil, lineErr(FormatCSA, lineNo, "time %q with no move before it", st)
				}
			case st[0] == '%':
				if err := start(lineNo); err != nil {
					return nil, err
				}
				if lastTerminal != nil {
					return nil, lineErr(FormatCSA, lineNo, "second special move %s", st)
				}
				if st == "%MATTA" {
					return nil, lineErr(FormatCSA, lineNo, "%%MATTA (taking back a move) is not supported in records")
				}
				t, err := newCSATerminal(st, bd.toMove)
				if err != nil {
					return nil, lineErr(FormatCSA, lineNo, "%v", err)
				}
				t.SourceLine = lineNo
				lastTerminal = t
				tree.main.end = t
				lastTimed = nil
			default:
				return nil, kindErr(FormatCSA, lineNo, ErrNotALine, 0, "%q is not a CSA statement", st)
			}
		}
	}
	if err := start(0); err != nil {
		return nil, err
	}
	if resultComment != "" && lastTerminal == nil {
		ply := tree.nextPly()
		toMove := startSide
		if ply%2 == 0 {
			toMove = toMove.Opponent()
		}
		if t, ok := newKIFTerminal(resultComment, toMove); ok {
			tree.main.end = t
		} else if n := tree.last(); n != nil {
			n.Comments = append(n.Comments, csaResultComment+resultComment)
		} else {
			rec.StartComments = append(rec.StartComments, csaResultComment+resultComment)
		}
	}
	rec.Main = tree.main.build()
	return rec, nil
}

// csaResultComment marks the comment in which the CSA writer keeps a
// terminal word CSA has no command for (不戦勝, 不戦敗).
const csaResultComment = "終局："

func parseCSATime(s string) (time.Duration, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1e7 || math.IsNaN(v) {
		return 0, fmt.Errorf("want seconds, e.g. T12 or T12.345")
	}
	return time.Duration(math.Round(v*1000)) * time.Millisecond, nil
}

func formatCSATime(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

var (
	csaTimeV3 = regexp.MustCompile(`^\d+(\.\d+)?\+\d+(\.\d+)?\+\d+(\.\d+)?$`)
	csaTimeV2 = regexp.MustCompile(`^\d+:\d+\+\d+$`)
)

// WriteCSA writes r as CSA V3.0 (UTF-8). CSA has no variations: only the
// main line is written (see Losses).
func WriteCSA(r *Record) (string, error) {
	start, err := r.StartPosition()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("'CSA encoding=UTF-8\nV3.0\n")
	for _, f := range r.Header.Fields {
		switch f.Key {
		case KeySente:
			fmt.Fprintf(&b, "N+%s\n", oneLine(f.Value))
		case KeyGote:
			fmt.Fprintf(&b, "N-%s\n", oneLine(f.Value))
		}
	}
	for _, f := range r.Header.Fields {
		v := oneLine(f.Value)
		switch f.Key {
		case KeySente, KeyGote, keyHandicap:
		case "":
			fmt.Fprintf(&b, "'%s\n", v)
		case KeyTimeLimit:
			switch {
			case csaTimeV3.MatchString(v):
				fmt.Fprintf(&b, "$TIME:%s\n", v)
			case csaTimeV2.MatchString(v):
				fmt.Fprintf(&b, "$TIME_LIMIT:%s\n", v)
			default:
				fmt.Fprintf(&b, "'%s：%s\n", f.Key, v)
			}
		case KeyStart, KeyEnd:
			name := "START_TIME"
			if f.Key == KeyEnd {
				name = "END_TIME"
			}
			fmt.Fprintf(&b, "$%s:%s\n", name, csaDate(v))
		default:
			if strings.HasPrefix(f.Key, "$") {
				fmt.Fprintf(&b, "%s:%s\n", f.Key, v)
				continue
			}
			written := false
			for csaKey, common := range csaKeys {
				if common == f.Key && csaKey != "TIME" && csaKey != "TIME_LIMIT" {
					fmt.Fprintf(&b, "$%s:%s\n", csaKey, v)
					written = true
					break
				}
			}
			if !written {
				fmt.Fprintf(&b, "'%s：%s\n", f.Key, v)
			}
		}
	}
	writeCSAPosition(&b, r, start)
	for _, c := range r.StartComments {
		writeCSAComment(&b, c)
	}
	bd := boardOf(start)
	for _, n := range r.Main.Nodes {
		c := "+"
		if bd.toMove == rules.Gote {
			c = "-"
		}
		pc := bd.play(n.Move)
		if pc.IsEmpty() || !pc.Type().Valid() {
			return "", fmt.Errorf("CSA: move %s starts from an empty square", n.Move)
		}
		after := pc.Type()
		if n.Move.IsPromotion() {
			after = after.Promoted()
		}
		from := "00"
		if !n.Move.IsDrop() {
			from = n.Move.From().String()
		}
		fmt.Fprintf(&b, "%s%s%s%s\n", c, from, n.Move.To().String(), csaPieceCodes[after])
		if n.HasTime {
			fmt.Fprintf(&b, "T%s\n", formatCSATime(n.Time))
		}
		for _, cm := range n.Comments {
			writeCSAComment(&b, cm)
		}
	}
	if t := r.Main.End; t != nil {
		if w := t.CSAWordFor(bd.toMove); w != "" {
			b.WriteString(w + "\n")
			if t.HasTime {
				fmt.Fprintf(&b, "T%s\n", formatCSATime(t.Time))
			}
		} else {
			fmt.Fprintf(&b, "'%s%s\n", csaResultComment, t.KIFWordFor(bd.toMove))
		}
		for _, cm := range t.Comments {
			writeCSAComment(&b, cm)
		}
	}
	return b.String(), nil
}

func writeCSAComment(b *strings.Builder, c string) {
	for _, line := range splitLines(c) {
		fmt.Fprintf(b, "'*%s\n", line)
	}
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ")
}

// csaDate drops a KIF weekday "(火)" so the date reads as CSA's
// YYYY/MM/DD HH:MM:SS.
func csaDate(s string) string {
	if _, ok := parseRecordTime(s); !ok {
		return s
	}
	if i := strings.IndexAny(s, "(（"); i >= 0 {
		if j := strings.IndexAny(s[i:], ")）"); j >= 0 {
			end := i + j + len(")")
			if s[i+j] != ')' {
				end = i + j + len("）")
			}
			return strings.TrimSpace(strings.TrimSpace(s[:i]) + " " + strings.TrimSpace(s[end:]))
		}
	}
	return s
}

// writeCSAPosition writes PI (with the squares a handicap removes) for a
// standard start, or the full board, hands and turn for a custom one.
func writeCSAPosition(b *strings.Builder, r *Record, start *rules.Position) {
	if r.Start == "" {
		even := rules.NewPosition(rules.Even)
		b.WriteString("PI")
		for s := rules.Square(0); s < rules.NumSquares; s++ {
			if pc := even.At(s); !pc.IsEmpty() && start.At(s).IsEmpty() {
				fmt.Fprintf(b, "%s%s", s, csaPieceCodes[pc.Type()])
			}
		}
		b.WriteByte('\n')
	} else {
		for rank := 1; rank <= 9; rank++ {
			fmt.Fprintf(b, "P%d", rank)
			for file := 9; file >= 1; file-- {
				pc := start.At(rules.NewSquare(file, rank))
				switch {
				case pc.IsEmpty():
					b.WriteString(" * ")
				case pc.Color() == rules.Sente:
					b.WriteString("+" + csaPieceCodes[pc.Type()])
				default:
					b.WriteString("-" + csaPieceCodes[pc.Type()])
				}
			}
			b.WriteByte('\n')
		}
		for _, c := range []rules.Color{rules.Sente, rules.Gote} {
			var hand strings.Builder
			for _, pt := range []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn} {
				for i := 0; i < start.Hand(c, pt); i++ {
					hand.WriteString("00" + csaPieceCodes[pt])
				}
			}
			if hand.Len() > 0 {
				sign := "+"
				if c == rules.Gote {
					sign = "-"
				}
				fmt.Fprintf(b, "P%s%s\n", sign, hand.String())
			}
		}
	}
	if start.SideToMove() == rules.Gote {
		b.WriteString("-\n")
	} else {
		b.WriteString("+\n")
	}
}
