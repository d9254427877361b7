package pairing

import "fmt"

// The colours of a Swiss round (colours: balance): who takes sente, and
// the colour rules a seat breaks — no third game in a row on one side, and
// the event's balance: sente−gote within ±2 along the way and within ±1
// after the class's last round (issue 23 §6, docs/swiss.md).

// balanceLimit is how far past level sente−gote may go after this round's
// game: 2 before the class's last round, 1 in it. With one game left a
// player at ±2 needs the other seat, which the last round's limit forces,
// so ±1 at the end stays within reach from any point ±2 allows.
func (s *swissState) balanceLimit() int {
	switch {
	case s.req.widerBalance:
		return 2
	case s.req.strictBalance:
		return 1
	case s.req.Round < s.req.Settings.Rounds:
		return 2
	}
	return 1
}

// breaks reports whether player p taking sente (seat +1) or gote (−1)
// breaks a colour rule: a third game in a row on that side, or a sente−gote
// count past the round's limit (balanceLimit) on that side (a player
// already past it, from an old or relaxed history, keeps the rule by the
// seat that brings them back). The streak counts games only: a bye or a
// round away neither ends it nor adds to it.
func (s *swissState) breaks(p, seat int) bool {
	return s.colour[p]*seat >= s.balanceLimit() || s.run[p]*seat >= 2
}

// seats decides who is sente: the side that breaks fewer colour rules
// (docs/swiss.md); when both sides break as many, colourOrder.
func (s *swissState) seats(a, b int) (sente, gote int) {
	if s.req.softColours {
		return s.colourOrder(a, b)
	}
	ab := b2i(s.breaks(a, 1)) + b2i(s.breaks(b, -1))
	ba := b2i(s.breaks(b, 1)) + b2i(s.breaks(a, -1))
	switch {
	case ab < ba:
		return a, b
	case ba < ab:
		return b, a
	}
	return s.colourOrder(a, b)
}

// colourClash is what pairing a with b costs the colours once seats has
// picked sente: players whose colour rule breaks, players pushed past
// sente−gote ±1 (strong: a preference below the score differences, as ±2
// is allowed before the last round) and level players who get last round's
// colour again (weak).
func (s *swissState) colourClash(a, b int) (broken, strong, weak int) {
	se, go_ := s.seats(a, b)
	broken = int(b2i(s.breaks(se, 1)) + b2i(s.breaks(go_, -1)))
	if s.colour[se] >= 1 {
		strong++
	}
	if s.colour[go_] <= -1 {
		strong++
	}
	if s.colour[se] == 0 && s.last[se] == 1 {
		weak++
	}
	if s.colour[go_] == 0 && s.last[go_] == -1 {
		weak++
	}
	return broken, strong, weak
}

// colourOrder decides who is sente: the player whose sente−gote count is
// lower; when equal, the one who was gote last; when still equal, the
// higher score, then the initial order gives the upper seat its preference
// (alternation from its last colour, sente in round 1).
func (s *swissState) colourOrder(a, b int) (sente, gote int) {
	if s.colour[a] != s.colour[b] {
		if s.colour[a] < s.colour[b] {
			return a, b
		}
		return b, a
	}
	if s.last[a] != s.last[b] {
		if s.last[a] < s.last[b] {
			return a, b
		}
		return b, a
	}
	up, down := a, b
	if s.upper(b, a) {
		up, down = b, a
	}
	if s.last[up] == 1 {
		return down, up
	}
	return up, down
}

// upper reports whether a sits above b: higher score, then initial order.
func (s *swissState) upper(a, b int) bool {
	if s.score[a] != s.score[b] {
		return s.score[a] > s.score[b]
	}
	return s.order[a] < s.order[b]
}

// colourBreaks lists the colour rule player p breaks by taking seat (+1
// sente, −1 gote) on board, by id and name: the third game in a row first.
func (s *swissState) colourBreaks(p, seat, board int) []SwissColourBreak {
	if !s.breaks(p, seat) {
		return nil
	}
	pl := s.players[p]
	name := pl.Name
	if name == "" {
		name = pl.ID
	}
	side := "sente"
	if seat < 0 {
		side = "gote"
	}
	b := SwissColourBreak{ID: pl.ID, Name: name, Board: board, Colour: side}
	if s.run[p]*seat >= 2 {
		b.Rule = RuleSwissThirdInARow
		b.Message = fmt.Sprintf("%s is %s on board %d: game %d in a row as %s", name, side, board, s.run[p]*seat+1, side)
	} else {
		b.Rule, b.Limit = RuleSwissBalance, s.balanceLimit()
		when := "before the class's last round"
		if s.req.Round >= s.req.Settings.Rounds {
			when = "in the class's last round"
		}
		b.Message = fmt.Sprintf("%s is %s on board %d: sente−gote becomes %+d, past ±%d %s", name, side, board, s.colour[p]+seat, b.Limit, when)
	}
	return []SwissColourBreak{b}
}
