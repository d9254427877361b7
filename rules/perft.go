package rules

// Perft counts the leaf positions of the legal-move tree depth plies deep
// (depth 0 is 1). The last ply is bulk-counted: at depth 1 the number of
// legal moves is the answer, without playing them.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, MaxLegalMoves)
	}
	return p.perft(depth, bufs)
}

func (p *Position) perft(depth int, bufs [][]Move) uint64 {
	moves := p.LegalMoves(bufs[depth-1][:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := p.Do(m)
		n += p.perft(depth-1, bufs)
		p.Undo(m, u)
	}
	return n
}

// PerftDivide is Perft split by root move: the leaf count below each
// legal move of the side to move, in generation order.
func (p *Position) PerftDivide(depth int) []DivideEntry {
	moves := p.LegalMoves(nil)
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		u := p.Do(m)
		out = append(out, DivideEntry{Move: m, Nodes: p.Perft(depth - 1)})
		p.Undo(m, u)
	}
	return out
}

// DivideEntry is one root move and its leaf count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}
