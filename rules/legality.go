package rules

// Fast legality and check detection for a replay. Foul and InCheck each
// walk all eight lines out of a king; a replay that already knows whether
// the side to move is in check needs neither walk for most moves:
//
//   - not in check, a board move by a piece other than the king can only
//     expose its own king by leaving a line between the king and an enemy
//     slider (a pin); only then is the move tried on the board;
//   - not in check, a drop cannot expose the king at all;
//   - a king move asks whether its destination is attacked, with the king
//     lifted so sliders see through its old square;
//   - in check, the move is tried on the board as before.
//
// After a move, the only lines to the enemy king that changed are those
// through the origin (a discovered check) and the destination (a direct
// check), plus a knight's jump onto the destination; every other attack
// would have meant the side that just moved was in check before it moved,
// which no valid position allows (ParseSFEN rejects it, D-X1). The replay
// verifies that premise at its start and otherwise falls back to InCheck.

// checkKnown says what a caller knows about the side to move's king.
type checkKnown uint8

const (
	checkUnknown checkKnown = iota // work it out when needed
	checkNo                        // not in check
	checkYes                       // in check
)

func knownCheck(inCheck bool) checkKnown {
	if inCheck {
		return checkYes
	}
	return checkNo
}

// exposesKing reports whether the pseudo-legal m leaves the mover's king
// attacked (王手放置, 000 第10条第1項四). It gives the same answer as
// leavesKingAttacked, trying the move only when a cheap test cannot rule
// the exposure out.
func (p *Position) exposesKing(m Move, chk checkKnown) bool {
	us := p.side
	ksq := p.king[us]
	if ksq == NoSquare {
		return false
	}
	if chk == checkUnknown {
		chk = knownCheck(p.attacked(ksq, us^1))
	}
	if chk == checkYes {
		return p.leavesKingAttacked(m)
	}
	if m.IsDrop() {
		return false // an extra piece only blocks lines
	}
	from := m.From()
	if from == ksq {
		// Lift the king so a slider checking along the line it leaves
		// is seen on the far side.
		king := p.board[ksq]
		p.board[ksq] = NoPiece
		bad := p.attacked(m.To(), us^1)
		p.board[ksq] = king
		return bad
	}
	if p.pinnedTowards(ksq, from, us) {
		return p.leavesKingAttacked(m)
	}
	return false
}

// pinnedTowards reports whether the piece on from stands alone between
// us's king on ksq and an enemy slider that moves along that line: moving
// it may uncover the king, so the move must be tried.
func (p *Position) pinnedTowards(ksq, from Square, us Color) bool {
	d := geo.dirTo[ksq][from]
	if d < 0 {
		return false
	}
	for s := geo.neighbor[ksq][d]; s != from; s = geo.neighbor[s][d] {
		if p.board[s] != NoPiece {
			return false
		}
	}
	od := uint8(1) << ((d + 4) & 7) // the slider moves back towards the king
	for s := geo.neighbor[from][d]; s != NoSquare; s = geo.neighbor[s][d] {
		if pc := p.board[s]; pc != NoPiece {
			return pc.Color() != us && geo.slideMask[pc]&od != 0
		}
	}
	return false
}

// checkedAfter reports whether m, just played with Do, checks the side
// now to move. It assumes that side was not in check before m (a valid
// position; see the file comment) and looks only at the lines m changed.
func (p *Position) checkedAfter(m Move) bool {
	ksq := p.king[p.side]
	if ksq == NoSquare {
		return false
	}
	by := p.side ^ 1
	to := m.To()
	if d := geo.dirTo[ksq][to]; d >= 0 {
		if p.lineAttacks(ksq, int(d), by) {
			return true
		}
	} else if pc := p.board[to]; pc == NewPiece(by, Knight) {
		k := geo.knightTo[by^1][ksq] // where a knight of by attacks ksq from
		if k[0] == to || k[1] == to {
			return true
		}
	}
	if m.IsDrop() {
		return false
	}
	if d := geo.dirTo[ksq][m.From()]; d >= 0 && d != geo.dirTo[ksq][to] {
		return p.lineAttacks(ksq, int(d), by)
	}
	return false
}

// lineAttacks reports whether the first piece out from sq in direction d
// belongs to by and attacks sq along that line.
func (p *Position) lineAttacks(sq Square, d int, by Color) bool {
	od := uint8(1) << ((d + 4) & 7)
	s := geo.neighbor[sq][d]
	if s == NoSquare {
		return false
	}
	if pc := p.board[s]; pc != NoPiece {
		return pc.Color() == by && (geo.stepMask[pc]|geo.slideMask[pc])&od != 0
	}
	for s = geo.neighbor[s][d]; s != NoSquare; s = geo.neighbor[s][d] {
		if pc := p.board[s]; pc != NoPiece {
			return pc.Color() == by && geo.slideMask[pc]&od != 0
		}
	}
	return false
}
