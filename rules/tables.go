package rules

// Precomputed geometry. These tables are built once from constants and
// never written afterwards; they are lookup data, not state.

// Directions, as seen from Sente: N is towards rank 一 (Sente's forward).
// A Gote piece's directions are Sente's rotated by half a turn (d+4).
const (
	dirN = iota
	dirNE
	dirE
	dirSE
	dirS
	dirSW
	dirW
	dirNW
)

// dirDelta is (column, row) per direction; column grows towards file 1,
// row grows towards rank 九.
var dirDelta = [8][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}

// geometry holds every table move generation reads.
type geometry struct {
	neighbor  [NumSquares][8]Square        // next square in a direction, NoSquare off the board
	knightTo  [2][NumSquares][2]Square     // knight jumps per color
	stepMask  [32]uint8                    // directions a piece may step one square
	slideMask [32]uint8                    // directions a piece may slide any distance
	dirTo     [NumSquares][NumSquares]int8 // direction from a to b when on one line, else -1
}

var geo = buildGeometry()

func rotate(mask uint8) uint8 { return mask<<4 | mask>>4 }

func buildGeometry() *geometry {
	g := &geometry{}
	for s := range Square(NumSquares) {
		col, row := int(s)%9, int(s)/9
		for d := range 8 {
			c, r := col+dirDelta[d][0], row+dirDelta[d][1]
			g.neighbor[s][d] = NoSquare
			if c >= 0 && c < 9 && r >= 0 && r < 9 {
				g.neighbor[s][d] = Square(r*9 + c)
			}
		}
		for i, dc := range []int{-1, 1} {
			for c, dr := range []int{-2, 2} { // Sente jumps up, Gote down
				g.knightTo[c][s][i] = NoSquare
				cc, rr := col+dc, row+dr
				if cc >= 0 && cc < 9 && rr >= 0 && rr < 9 {
					g.knightTo[c][s][i] = Square(rr*9 + cc)
				}
			}
		}
	}
	for s := range Square(NumSquares) { // needs every neighbor filled in
		for t := range Square(NumSquares) {
			g.dirTo[s][t] = -1
		}
		for d := range 8 {
			for t := g.neighbor[s][d]; t != NoSquare; t = g.neighbor[t][d] {
				g.dirTo[s][t] = int8(d)
			}
		}
	}
	const (
		n, ne, e, se, s, sw, w, nw = 1 << dirN, 1 << dirNE, 1 << dirE, 1 << dirSE, 1 << dirS, 1 << dirSW, 1 << dirW, 1 << dirNW
		gold                       = n | ne | nw | e | w | s
		orth                       = n | e | s | w
		diag                       = ne | se | sw | nw
	)
	step := [numPieceTypes]uint8{
		Pawn: n, Silver: n | ne | nw | se | sw, Gold: gold, King: orth | diag,
		ProPawn: gold, ProLance: gold, ProKnight: gold, ProSilver: gold, Horse: orth, Dragon: diag,
	}
	slide := [numPieceTypes]uint8{Lance: n, Bishop: diag, Rook: orth, Horse: diag, Dragon: orth}
	for pt := Pawn; pt <= Dragon; pt++ {
		g.stepMask[NewPiece(Sente, pt)] = step[pt]
		g.slideMask[NewPiece(Sente, pt)] = slide[pt]
		g.stepMask[NewPiece(Gote, pt)] = rotate(step[pt])
		g.slideMask[NewPiece(Gote, pt)] = rotate(slide[pt])
	}
	return g
}
