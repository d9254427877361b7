package kifu

import (
	"fmt"

	"kisen/rules"
)

// treeBuilder assembles a move tree as a record is read: the main line,
// then each variation (変化：N手) attached to the right move. Variations
// in KIF and KI2 come depth first, so a 変化 for ply N belongs to the
// nearest line on the path back from the line last read that holds a
// move at ply N; when that move is itself the first move of a variation,
// the new line is one more alternative to the same move.
type treeBuilder struct {
	main *bLine
	cur  *bLine
	// pendingComments were read after 変化：N手 and before its first move.
	pendingComments []string
	// start is the board before the first move; bd the board after the
	// current line's last move (KIF only needs to know what stands where).
	start, bd board
}

// rewind sets bd to the board before ply n of the current path.
func (b *treeBuilder) rewind(n int) {
	b.bd = b.start
	for i := 1; i < n; i++ {
		b.bd.play(b.moveAt(i))
	}
}

type bLine struct {
	start int // ply of the first node
	nodes []Node
	// vars[i] are the variations of nodes[i]; nil until one is read.
	vars   [][]*bLine
	end    *Terminal
	parent *bLine
}

func newTreeBuilder() *treeBuilder {
	l := &bLine{start: 1, nodes: make([]Node, 0, 128)}
	return &treeBuilder{main: l, cur: l}
}

// nextPly is the ply the next move of the current line has.
func (b *treeBuilder) nextPly() int { return b.cur.start + len(b.cur.nodes) }

func (b *treeBuilder) add(n Node) {
	b.cur.nodes = append(b.cur.nodes, n)
}

// last is the current line's last node (valid until the next add), or nil.
func (b *treeBuilder) last() *Node {
	if len(b.cur.nodes) == 0 {
		return nil
	}
	return &b.cur.nodes[len(b.cur.nodes)-1]
}

// branch starts a variation for ply n.
func (b *treeBuilder) branch(n int) error {
	for l := b.cur; l != nil; l = l.parent {
		if n < l.start || n >= l.start+len(l.nodes) {
			continue
		}
		owner := l
		if n == l.start && l.parent != nil {
			owner = l.parent
		}
		i := n - owner.start
		if owner.vars == nil {
			owner.vars = make([][]*bLine, len(owner.nodes))
		}
		for len(owner.vars) < len(owner.nodes) {
			owner.vars = append(owner.vars, nil)
		}
		nl := &bLine{start: n, parent: owner}
		owner.vars[i] = append(owner.vars[i], nl)
		b.cur = nl
		return nil
	}
	return fmt.Errorf("変化 for move %d, but no line read so far has a move %d", n, n)
}

// moveAt is the move at ply n on the path from the current line back to
// the main line (NoMove when there is none).
func (b *treeBuilder) moveAt(n int) rules.Move {
	for l := b.cur; l != nil; l = l.parent {
		if n >= l.start && n < l.start+len(l.nodes) {
			return l.nodes[n-l.start].Move
		}
	}
	return rules.NoMove
}

// path lists the moves from ply 1 to the end of the current line.
func (b *treeBuilder) path() []rules.Move {
	n := b.nextPly() - 1
	out := make([]rules.Move, n)
	for i := 1; i <= n; i++ {
		out[i-1] = b.moveAt(i)
	}
	return out
}

// build turns the tree into the record's Line values.
func (l *bLine) build() Line {
	out := Line{End: l.end, Nodes: l.nodes}
	for i, vs := range l.vars {
		for _, v := range vs {
			out.Nodes[i].Variations = append(out.Nodes[i].Variations, v.build())
		}
	}
	return out
}
