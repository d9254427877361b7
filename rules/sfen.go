package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// maxPieces is how many of each kind a set holds (both sides, board and
// hand together); a promoted piece counts as its unpromoted kind.
var maxPieces = [8]int{Pawn: 18, Lance: 4, Knight: 4, Silver: 4, Gold: 4, Bishop: 2, Rook: 2}

// handOrder is the order SFEN writes a hand in (USI convention).
var handOrder = [...]PieceType{Rook, Bishop, Gold, Silver, Knight, Lance, Pawn}

// ParseSFEN reads a position in SFEN ("board side hands movenumber"), or
// the word "startpos" for the even start. It is strict: four fields, nine
// ranks of nine squares, known letters, no more pieces than a set holds,
// at most one king a side, no dead piece (行き所のない駒) or two unpromoted
// pawns of one side on a file (二歩), and the side not to move not in
// check. Each error names the field and what is wrong.
func ParseSFEN(s string) (*Position, error) {
	if strings.TrimSpace(s) == "startpos" {
		s = evenSFEN
	}
	fields := strings.Fields(s)
	if len(fields) != 4 {
		return nil, fmt.Errorf("sfen %q: want 4 space-separated fields (board, side, hands, move number), got %d", s, len(fields))
	}
	p := &Position{king: [2]Square{NoSquare, NoSquare}}
	if err := p.parseBoard(fields[0]); err != nil {
		return nil, fmt.Errorf("sfen board %q: %w", fields[0], err)
	}
	switch fields[1] {
	case "b":
		p.side = Sente
	case "w":
		p.side = Gote
	default:
		return nil, fmt.Errorf("sfen side to move %q: want b (sente) or w (gote)", fields[1])
	}
	if err := p.parseHands(fields[2]); err != nil {
		return nil, fmt.Errorf("sfen hands %q: %w", fields[2], err)
	}
	n, err := strconv.Atoi(fields[3])
	if err != nil || n < 1 || fields[3][0] == '+' {
		return nil, fmt.Errorf("sfen move number %q: want a positive integer", fields[3])
	}
	p.moveNum = n
	if err := p.checkSet(); err != nil {
		return nil, fmt.Errorf("sfen %q: %w", s, err)
	}
	p.key = p.computeKey()
	return p, nil
}

func (p *Position) parseBoard(b string) error {
	ranks := strings.Split(b, "/")
	if len(ranks) != 9 {
		return fmt.Errorf("want 9 ranks separated by '/', got %d", len(ranks))
	}
	for r, row := range ranks {
		col := 0
		promoted := false
		for i := 0; i < len(row); i++ {
			ch := row[i]
			switch {
			case ch >= '1' && ch <= '9':
				if promoted {
					return fmt.Errorf("rank %d: '+' must be followed by a piece letter", r+1)
				}
				if i+1 < len(row) && row[i+1] >= '0' && row[i+1] <= '9' {
					return fmt.Errorf("rank %d: two digits in a row", r+1)
				}
				col += int(ch - '0')
			case ch == '+':
				if promoted {
					return fmt.Errorf("rank %d: '++'", r+1)
				}
				promoted = true
				continue
			default:
				c, pt, ok := pieceLetter(ch)
				if !ok {
					return fmt.Errorf("rank %d: unknown piece letter %q", r+1, ch)
				}
				if promoted {
					if !pt.CanPromote() {
						return fmt.Errorf("rank %d: %q cannot be promoted", r+1, ch)
					}
					pt = pt.Promoted()
				}
				if col >= 9 {
					return fmt.Errorf("rank %d: more than 9 squares", r+1)
				}
				sq := Square(r*9 + col)
				p.board[sq] = NewPiece(c, pt)
				if pt == King {
					if p.king[c] != NoSquare {
						return fmt.Errorf("%s has two kings", c)
					}
					p.king[c] = sq
				}
				col++
			}
			promoted = false
			if col > 9 {
				return fmt.Errorf("rank %d: more than 9 squares", r+1)
			}
		}
		if promoted {
			return fmt.Errorf("rank %d: ends with '+'", r+1)
		}
		if col != 9 {
			return fmt.Errorf("rank %d: %d squares, want 9", r+1, col)
		}
	}
	return nil
}

func pieceLetter(ch byte) (Color, PieceType, bool) {
	c := Sente
	if ch >= 'a' && ch <= 'z' {
		c = Gote
		ch -= 'a' - 'A'
	}
	for pt := Pawn; pt <= King; pt++ {
		if sfenLetter[pt] == ch {
			return c, pt, true
		}
	}
	return Sente, NoPieceType, false
}

func (p *Position) parseHands(h string) error {
	if h == "-" {
		return nil
	}
	if h == "" {
		return fmt.Errorf("empty; write '-' for no pieces in hand")
	}
	var seen [2][8]bool
	for i := 0; i < len(h); {
		n := 1
		if h[i] >= '0' && h[i] <= '9' {
			j := i
			for j < len(h) && h[j] >= '0' && h[j] <= '9' {
				j++
			}
			v, err := strconv.Atoi(h[i:j])
			if err != nil || v < 2 || v > maxHand || h[i] == '0' {
				return fmt.Errorf("count %q: want 2..18 (a single piece has no count)", h[i:j])
			}
			if j == len(h) {
				return fmt.Errorf("count %q is not followed by a piece letter", h[i:j])
			}
			n, i = v, j
		}
		c, pt, ok := pieceLetter(h[i])
		if !ok || pt == King {
			return fmt.Errorf("%q is not a piece that can be held (P L N S G B R, lowercase for gote)", h[i])
		}
		if seen[c][pt] {
			return fmt.Errorf("%q appears twice", h[i])
		}
		seen[c][pt] = true
		p.hand[c][pt] = uint8(n)
		i++
	}
	return nil
}

// checkSet rejects positions no game can reach in ways that would break
// the rules engine's assumptions.
func (p *Position) checkSet() error {
	var count [8]int
	var pawnFile [2][9]bool
	for s, pc := range p.board {
		if pc == NoPiece {
			continue
		}
		sq := Square(s)
		pt, c := pc.Type(), pc.Color()
		if base := pt.Unpromoted(); base != King {
			count[base]++
		}
		if deadOn(c, pt, sq) {
			return fmt.Errorf("%s %s on %s can never move (行き所のない駒)", c, pt, sq)
		}
		if pt == Pawn {
			if pawnFile[c][s%9] {
				return fmt.Errorf("%s has two unpromoted pawns on file %d (二歩)", c, sq.File())
			}
			pawnFile[c][s%9] = true
		}
	}
	for c := range 2 {
		for pt := Pawn; pt <= Rook; pt++ {
			count[pt] += int(p.hand[c][pt])
		}
	}
	for pt := Pawn; pt <= Rook; pt++ {
		if count[pt] > maxPieces[pt] {
			return fmt.Errorf("%d %ss on board and in hand, a set has %d", count[pt], pt, maxPieces[pt])
		}
	}
	if k := p.king[p.side^1]; k != NoSquare && p.attacked(k, p.side) {
		return fmt.Errorf("%s, not to move, is in check", p.side^1)
	}
	return nil
}

// SFEN writes the position in canonical SFEN (hands in R B G S N L P
// order, sente's first; "-" for empty hands).
func (p *Position) SFEN() string {
	var b strings.Builder
	for r := range 9 {
		if r > 0 {
			b.WriteByte('/')
		}
		empty := 0
		for c := range 9 {
			pc := p.board[r*9+c]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
	}
	if p.side == Sente {
		b.WriteString(" b ")
	} else {
		b.WriteString(" w ")
	}
	any := false
	for c := range 2 {
		for _, pt := range handOrder {
			n := p.hand[c][pt]
			if n == 0 {
				continue
			}
			any = true
			if n > 1 {
				b.WriteString(strconv.Itoa(int(n)))
			}
			b.WriteString(NewPiece(Color(c), pt).String())
		}
	}
	if !any {
		b.WriteByte('-')
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.moveNum))
	return b.String()
}
