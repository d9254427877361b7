package rules

// Color is a side: Sente (先手, ▲/☗) moves up the board towards rank 1,
// Gote (後手, △/☖) moves down towards rank 9. In handicap starts the
// handicap giver (上手) plays Gote and moves first; the receiver (下手)
// plays Sente (000 第3条, 003).
type Color uint8

const (
	Sente Color = 0
	Gote  Color = 1
)

// Opponent is the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String is "sente" or "gote".
func (c Color) String() string {
	if c == Gote {
		return "gote"
	}
	return "sente"
}
