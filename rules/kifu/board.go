package kifu

import "kisen/rules"

// board follows pieces through a record without judging legality, so
// writers can name the moving piece (KIF "歩", CSA "FU") even for a
// record that ends with an impossible move. The rules engine judges the
// moves; this only needs to know what stands where.
type board struct {
	sq     [rules.NumSquares]rules.Piece
	toMove rules.Color
}

func boardOf(p *rules.Position) board {
	var b board
	for s := rules.Square(0); s < rules.NumSquares; s++ {
		b.sq[s] = p.At(s)
	}
	b.toMove = p.SideToMove()
	return b
}

// at is the piece on s (NoPiece off the board).
func (b *board) at(s rules.Square) rules.Piece {
	if !s.Valid() {
		return rules.NoPiece
	}
	return b.sq[s]
}

// mover is the piece m moves, before any promotion.
func (b *board) mover(m rules.Move) rules.Piece {
	if m.IsDrop() {
		return rules.NewPiece(b.toMove, m.DropType())
	}
	return b.at(m.From())
}

// play makes m on the board and returns the piece that moved.
func (b *board) play(m rules.Move) rules.Piece {
	pc := b.mover(m)
	if !m.IsDrop() && m.From().Valid() {
		b.sq[m.From()] = rules.NoPiece
	}
	after := pc
	if m.IsPromotion() && !pc.IsEmpty() {
		after = rules.NewPiece(pc.Color(), pc.Type().Promoted())
	}
	if m.To().Valid() {
		b.sq[m.To()] = after
	}
	b.toMove = b.toMove.Opponent()
	return pc
}
