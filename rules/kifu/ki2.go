package kifu

import (
	"fmt"
	"strings"

	"kisen/rules"
)

// KI2: the same header as KIF, then moves in the federation's notation
// (▲７六歩　△３四歩 …, seed 002) with no origin squares and no times, and
// a closing line (まで76手で後手の勝ち). Reading a move needs the position,
// so the reader plays the game as it goes.

// ReadKI2 reads a KI2 record from decoded text.
func ReadKI2(text string) (*Record, error) {
	return readKakinoki(text, FormatKI2)
}

// ki2State is the position the KI2 reader has reached.
type ki2State struct {
	startPos *rules.Position
	pos      *rules.Position
	// stuck is the ply of an impossible move after which the position is
	// undefined (0 when none).
	stuck int
}

func (k *ki2State) start(p *rules.Position) {
	k.startPos = p.Clone()
	k.pos = p.Clone()
}

// rewind replays the path to the start of the variation just opened.
func (k *ki2State) rewind(tree *treeBuilder) error {
	k.pos = k.startPos.Clone()
	k.stuck = 0
	for i, m := range tree.path() {
		if !playable(k.pos.Foul(m)) {
			return fmt.Errorf("変化 follows an impossible move at ply %d", i+1)
		}
		k.pos.Do(m)
	}
	return nil
}

// playable reports fouls after which the position is still well defined,
// so the game can be followed past them (and the foul reported).
func playable(f rules.Foul) bool {
	switch f {
	case rules.FoulNone, rules.FoulNifu, rules.FoulDeadPiece, rules.FoulUchifuzume, rules.FoulIgnoredCheck:
		return true
	}
	return false
}

// splitKI2Moves cuts a line at each side mark; "同　銀" keeps its space.
func splitKI2Moves(line string) []string {
	var out []string
	start := -1
	for i, r := range line {
		if r == '▲' || r == '△' || r == '☗' || r == '☖' || r == '▽' {
			if start >= 0 {
				out = append(out, strings.TrimSpace(line[start:i]))
			}
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.TrimSpace(line[start:]))
	}
	return out
}

// readMoves reads one KI2 move line (or a terminal word on its own).
func (k *ki2State) readMoves(line string, lineNo int, tree *treeBuilder, toMoveAt func(int) rules.Color) error {
	tokens := splitKI2Moves(line)
	if len(tokens) == 0 || !strings.HasPrefix(strings.TrimSpace(line), tokens[0]) {
		word := strings.TrimSpace(line)
		if t, ok := newKIFTerminal(word, toMoveAt(tree.nextPly())); ok && tree.cur.end == nil {
			t.SourceLine = lineNo
			tree.cur.end = t
			return nil
		}
		return kindErr(FormatKI2, lineNo, ErrNotALine, 0, "%q is neither a header line, a comment nor moves starting with ▲ or △", line)
	}
	for _, tok := range tokens {
		ply := tree.nextPly()
		if tree.cur.end != nil {
			return kindErr(FormatKI2, lineNo, ErrAfterEnd, 0, "move %s after the closing word", tok)
		}
		if k.stuck > 0 {
			return lineErr(FormatKI2, lineNo, "move %d %s follows an impossible move at ply %d; the position is undefined", ply, tok, k.stuck)
		}
		// A terminal word written as a move (▲投了).
		if t, ok := newKIFTerminal(strings.TrimLeft(tok, "▲△☗☖▽"), toMoveAt(ply)); ok {
			t.SourceLine = lineNo
			tree.cur.end = t
			continue
		}
		prev := rules.NoSquare
		if pm := tree.moveAt(ply - 1); pm != rules.NoMove {
			prev = pm.To()
		}
		m, foul, err := k.pos.ResolveMoveText(tok, prev)
		if err != nil {
			return kindErr(FormatKI2, lineNo, ErrIllegalMove, ply, "move %d: %v", ply, err)
		}
		n := Node{Move: m, SourceLine: lineNo}
		n.Comments, tree.pendingComments = tree.pendingComments, nil
		tree.add(n)
		if playable(foul) {
			k.pos.Do(m)
		} else {
			k.stuck = ply
		}
	}
	return nil
}

// WriteKI2 writes r as KI2. Times cannot be written (KI2 has none).
func WriteKI2(r *Record) (string, error) {
	var b strings.Builder
	if err := writeKakinokiHeader(&b, r); err != nil {
		return "", err
	}
	start, err := r.StartPosition()
	if err != nil {
		return "", err
	}
	w := ki2Writer{b: &b, handicap: isHandicapRecord(r)}
	if err := w.line(r.Main, 1, start, rules.NoSquare); err != nil {
		return "", err
	}
	if err := w.variations(r.Main, 1, start, rules.NoSquare); err != nil {
		return "", err
	}
	return b.String(), nil
}

type ki2Writer struct {
	b        *strings.Builder
	handicap bool
}

const ki2MovesPerLine = 6

func (w *ki2Writer) line(l Line, ply int, pos *rules.Position, prev rules.Square) error {
	side0 := pos.SideToMove()
	pos = pos.Clone()
	onLine := 0
	endLine := func() {
		if onLine > 0 {
			w.b.WriteByte('\n')
			onLine = 0
		}
	}
	for i, n := range l.Nodes {
		if i > 0 && !playable(pos.Foul(l.Nodes[i-1].Move)) {
			return fmt.Errorf("KI2: cannot write move %d: it follows an impossible move at ply %d", ply+i, ply+i-1)
		}
		if i > 0 {
			pos.Do(l.Nodes[i-1].Move)
		}
		text := pos.MoveText(n.Move, prev, rules.StyleRecord)
		if onLine > 0 {
			w.b.WriteString("  ")
		}
		w.b.WriteString(text)
		onLine++
		if onLine == ki2MovesPerLine || len(n.Comments) > 0 {
			endLine()
		}
		for _, c := range n.Comments {
			writeComment(w.b, c)
		}
		prev = n.Move.To()
	}
	endLine()
	if t := l.End; t != nil {
		plies := ply - 1 + len(l.Nodes)
		toMove := side0
		if len(l.Nodes)%2 == 1 {
			toMove = toMove.Opponent()
		}
		w.b.WriteString(summaryLine(t, plies, toMove, w.handicap))
		w.b.WriteByte('\n')
		for _, c := range t.Comments {
			writeComment(w.b, c)
		}
	}
	return nil
}

func (w *ki2Writer) variations(l Line, ply int, pos *rules.Position, prev rules.Square) error {
	positions := make([]*rules.Position, len(l.Nodes))
	prevs := make([]rules.Square, len(l.Nodes))
	cur := pos.Clone()
	for i, n := range l.Nodes {
		positions[i] = cur.Clone()
		prevs[i] = prev
		if i+1 < len(l.Nodes) && !playable(cur.Foul(n.Move)) {
			break
		}
		cur.Do(n.Move)
		prev = n.Move.To()
	}
	for i := len(l.Nodes) - 1; i >= 0; i-- {
		if positions[i] == nil {
			continue
		}
		for _, v := range l.Nodes[i].Variations {
			fmt.Fprintf(w.b, "\n変化：%d手\n", ply+i)
			if err := w.line(v, ply+i, positions[i], prevs[i]); err != nil {
				return err
			}
			if err := w.variations(v, ply+i, positions[i], prevs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}
