package rules

import "math/bits"

// MaxLegalMoves bounds the legal moves of any shogi position (the known
// maximum is 593); a buffer of this capacity never grows.
const MaxLegalMoves = 600

// forward is the direction a color's pawns move.
var forward = [2]int{dirN, dirS}

// LegalMoves appends every legal move of the side to move to buf: board
// moves with optional and forced promotion, and drops, excluding every
// foul of D-X1 (二歩, 行き所のない駒, 打ち歩詰め, 王手放置).
//
// Legality comes from pins and checks found once per call rather than by
// trying each move, so only king moves and a pawn drop in front of the
// enemy king cost more than a table lookup.
func (p *Position) LegalMoves(buf []Move) []Move {
	us := p.side
	them := us ^ 1
	ksq := p.king[us]

	// pinned[s] is 1+axis (d&3) of the line a pinned piece must keep to.
	var pinned [NumSquares]int8
	var target [NumSquares]bool // squares that answer a single check
	nChk := 0
	if ksq != NoSquare {
		var checker Square
		for d := range 8 {
			od := uint8(1) << ((d + 4) & 7)
			own := NoSquare
			dist := 0
			for s := geo.neighbor[ksq][d]; s != NoSquare; s = geo.neighbor[s][d] {
				dist++
				pc := p.board[s]
				if pc == NoPiece {
					continue
				}
				if pc.Color() == us {
					if own != NoSquare {
						break
					}
					own = s
					continue
				}
				if own == NoSquare {
					if (dist == 1 && geo.stepMask[pc]&od != 0) || geo.slideMask[pc]&od != 0 {
						nChk++
						checker = s
					}
				} else if geo.slideMask[pc]&od != 0 {
					pinned[own] = int8(d&3) + 1
				}
				break
			}
		}
		kn := NewPiece(them, Knight)
		for _, s := range geo.knightTo[us][ksq] {
			if s != NoSquare && p.board[s] == kn {
				nChk++
				checker = s
			}
		}
		if nChk == 1 {
			target[checker] = true
			if d := geo.dirTo[ksq][checker]; d >= 0 {
				for s := geo.neighbor[ksq][d]; s != checker; s = geo.neighbor[s][d] {
					target[s] = true
				}
			}
		}
	}

	if nChk < 2 {
		for s := range Square(NumSquares) {
			pc := p.board[s]
			if pc == NoPiece || pc.Color() != us || pc.Type() == King {
				continue
			}
			pin := pinned[s]
			for mask := geo.stepMask[pc]; mask != 0; mask &= mask - 1 {
				d := bits.TrailingZeros8(mask)
				if pin != 0 && int8(d&3)+1 != pin {
					continue
				}
				t := geo.neighbor[s][d]
				if t == NoSquare {
					continue
				}
				if q := p.board[t]; q != NoPiece && q.Color() == us {
					continue
				}
				if nChk == 1 && !target[t] {
					continue
				}
				buf = appendMove(buf, us, pc.Type(), s, t)
			}
			for mask := geo.slideMask[pc]; mask != 0; mask &= mask - 1 {
				d := bits.TrailingZeros8(mask)
				if pin != 0 && int8(d&3)+1 != pin {
					continue
				}
				for t := geo.neighbor[s][d]; t != NoSquare; t = geo.neighbor[t][d] {
					q := p.board[t]
					if q != NoPiece && q.Color() == us {
						break
					}
					if nChk == 0 || target[t] {
						buf = appendMove(buf, us, pc.Type(), s, t)
					}
					if q != NoPiece {
						break
					}
				}
			}
			if pc.Type() == Knight && pin == 0 { // a knight cannot stay on a pin line
				for _, t := range geo.knightTo[us][s] {
					if t == NoSquare {
						continue
					}
					if q := p.board[t]; q != NoPiece && q.Color() == us {
						continue
					}
					if nChk == 1 && !target[t] {
						continue
					}
					buf = appendMove(buf, us, Knight, s, t)
				}
			}
		}
	}

	if ksq != NoSquare {
		// Lift the king so sliders see through its old square.
		king := p.board[ksq]
		p.board[ksq] = NoPiece
		for d := range 8 {
			t := geo.neighbor[ksq][d]
			if t == NoSquare {
				continue
			}
			if q := p.board[t]; q != NoPiece && q.Color() == us {
				continue
			}
			if !p.attacked(t, them) {
				buf = append(buf, NewMove(ksq, t, false))
			}
		}
		p.board[ksq] = king
	}

	if nChk < 2 {
		buf = p.appendDrops(buf, nChk == 1, &target)
	}
	return buf
}

// appendMove adds the move from s to t, with promotion when the origin or
// the destination is in the zone (000 第5条第4項), and without it unless
// the piece would be left with no move (行き所のない駒, 000 第10条第1項二).
func appendMove(buf []Move, us Color, pt PieceType, s, t Square) []Move {
	if pt.CanPromote() && (inCamp(us, s) || inCamp(us, t)) {
		buf = append(buf, NewMove(s, t, true))
		if deadOn(us, pt, t) {
			return buf
		}
	}
	return append(buf, NewMove(s, t, false))
}

// appendDrops adds every legal drop; in check only onto target squares.
func (p *Position) appendDrops(buf []Move, inCheck bool, target *[NumSquares]bool) []Move {
	us := p.side
	var kinds [7]PieceType
	nk := 0
	for pt := Pawn; pt <= Rook; pt++ {
		if p.hand[us][pt] > 0 {
			kinds[nk] = pt
			nk++
		}
	}
	if nk == 0 {
		return buf
	}
	var pawnOnFile [9]bool // 二歩: files holding one of our unpromoted pawns
	mates := NoSquare      // where a pawn drop would check the enemy king
	if p.hand[us][Pawn] > 0 {
		pawn := NewPiece(us, Pawn)
		for s, pc := range p.board {
			if pc == pawn {
				pawnOnFile[s%9] = true
			}
		}
		if ek := p.king[us^1]; ek != NoSquare {
			mates = geo.neighbor[ek][forward[us^1]]
		}
	}
	for t := range Square(NumSquares) {
		if p.board[t] != NoPiece || (inCheck && !target[t]) {
			continue
		}
		rr := relRank(us, t)
		for _, pt := range kinds[:nk] {
			switch pt {
			case Pawn:
				if rr == 1 || pawnOnFile[t%9] {
					continue
				}
				if t == mates && p.pawnDropMates(t) { // 打ち歩詰め, 000 第10条第1項三
					continue
				}
			case Lance:
				if rr == 1 {
					continue
				}
			case Knight:
				if rr <= 2 {
					continue
				}
			}
			buf = append(buf, NewDrop(pt, t))
		}
	}
	return buf
}

// pawnDropMates reports whether dropping a pawn on t (which checks the
// enemy king) leaves the enemy without a legal move. The pawn checks from
// an adjacent square, so no drop can answer it and this does not recurse
// into another pawn-drop test.
func (p *Position) pawnDropMates(t Square) bool {
	m := NewDrop(Pawn, t)
	u := p.Do(m)
	has := p.hasLegalMove()
	p.Undo(m, u)
	return !has
}

// hasLegalMove reports whether the side to move has any legal move.
func (p *Position) hasLegalMove() bool {
	var tmp [MaxLegalMoves]Move
	return len(p.LegalMoves(tmp[:0])) > 0
}

// IsCheckmate reports whether the side to move has no legal move; in shogi
// that side has lost, in check or not (000 第6条第1項).
func (p *Position) IsCheckmate() bool { return !p.hasLegalMove() }
