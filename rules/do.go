package rules

// Undo holds what Position.Undo needs to take a move back.
type Undo struct {
	captured Piece
	key      uint64
	applied  bool
	promoted bool
}

// Do plays m, which must be legal (or at least pseudo-legal: the right
// side's piece or a piece in hand, an empty or enemy destination). A move
// that names no piece to move is ignored, and so is its Undo, so a bad
// move cannot corrupt the position. Captured pieces go to the capturer's
// hand unpromoted (000 第5条第2項).
func (p *Position) Do(m Move) Undo {
	u := Undo{key: p.key}
	to := m.To()
	us := p.side
	if !to.Valid() {
		return u
	}
	if m.IsDrop() {
		pt := m.DropType()
		if !pt.IsHandType() || p.hand[us][pt] == 0 || p.board[to] != NoPiece {
			return u
		}
		pc := NewPiece(us, pt)
		n := p.hand[us][pt]
		p.key ^= zob.hand[us][pt][n] ^ zob.hand[us][pt][n-1] ^ zob.board[to][pc]
		p.hand[us][pt] = n - 1
		p.board[to] = pc
	} else {
		from := m.From()
		if !from.Valid() {
			return u
		}
		pc := p.board[from]
		if pc == NoPiece || pc.Color() != us {
			return u
		}
		cap := p.board[to]
		if cap != NoPiece {
			if cap.Color() == us || cap.Type() == King {
				return u
			}
			ht := cap.Type().Unpromoted()
			n := p.hand[us][ht]
			p.key ^= zob.board[to][cap] ^ zob.hand[us][ht][n] ^ zob.hand[us][ht][n+1]
			p.hand[us][ht] = n + 1
		}
		u.captured = cap
		np := pc
		if m.IsPromotion() && pc.Type().CanPromote() {
			np = NewPiece(us, pc.Type().Promoted())
			u.promoted = true
		}
		p.key ^= zob.board[from][pc] ^ zob.board[to][np]
		p.board[from] = NoPiece
		p.board[to] = np
		if pc.Type() == King {
			p.king[us] = to
		}
	}
	p.side ^= 1
	p.key ^= zob.side
	p.moveNum++
	u.applied = true
	return u
}

// Undo takes back m, which must be the last move played, with the Undo Do
// returned for it.
func (p *Position) Undo(m Move, u Undo) {
	if !u.applied {
		return
	}
	p.side ^= 1
	p.moveNum--
	us := p.side
	to := m.To()
	if m.IsDrop() {
		pt := m.DropType()
		p.board[to] = NoPiece
		p.hand[us][pt]++
	} else {
		from := m.From()
		np := p.board[to]
		pc := np
		if u.promoted {
			pc = NewPiece(us, np.Type().Unpromoted())
		}
		p.board[from] = pc
		p.board[to] = u.captured
		if u.captured != NoPiece {
			p.hand[us][u.captured.Type().Unpromoted()]--
		}
		if pc.Type() == King {
			p.king[us] = from
		}
	}
	p.key = u.key
}

// GivesCheck reports whether the legal move m checks the opponent's king.
func (p *Position) GivesCheck(m Move) bool {
	u := p.Do(m)
	if !u.applied {
		return false
	}
	c := p.InCheck()
	p.Undo(m, u)
	return c
}
