package pairing

import (
	"fmt"
	"math/bits"
)

// ResultKind says how a game was decided.
type ResultKind string

const (
	Played  ResultKind = "played"  // over the board (the default)
	Forfeit ResultKind = "forfeit" // 不戦: the loser did not play this game
)

// Result is the outcome of one game, named by its ID (see Game.ID).
type Result struct {
	Game   string
	Winner string
	Kind   ResultKind
}

// GameStatus is where a game stands.
type GameStatus string

const (
	StatusPending  GameStatus = "pending"  // a player is not known yet
	StatusReady    GameStatus = "ready"    // both players known, awaiting the result
	StatusDone     GameStatus = "done"     // result recorded
	StatusWalkover GameStatus = "walkover" // one side is a bye or withdrew: no game, the other advances
	StatusEmpty    GameStatus = "empty"    // nobody on either side
)

// Game is one game of a bracket. Players[i] is "" while unknown or empty.
type Game struct {
	ID      string // "R2-G3" (round 2, game 3), "3P" (third place), "C-R1-G1" (consolation)
	Round   int
	Index   int // 1-based within the round
	Players [2]string
	Status  GameStatus
	Winner  string
	Kind    ResultKind
}

// Progress is a bracket with results applied.
type Progress struct {
	Rounds [][]Game
	// Next are the games ready to be played, in bracket order (main, then
	// third place, then consolation).
	Next       []Game
	Champion   string // "" until decided
	ThirdPlace *Game
	// Consolation is the first-round losers' bracket when the event has one.
	Consolation *Progress
	// Qualifiers are the players leaving a stage cut at Bracket.Qualifiers,
	// in bracket order ("" while undecided).
	Qualifiers []string
	Finished   bool
}

// side of a game: a known player, nobody (a bye), or not yet known.
type side struct {
	id      string
	pending bool
}

var nobody = side{}

type advancer struct {
	results   map[string]Result
	at        map[string]int // game → index in the caller's results, for error messages
	used      map[string]bool
	withdrawn map[string]bool
}

// Advance applies results to a bracket and returns every game, the games
// ready to play, and the champion. A bye or a withdrawn player's opponent
// advances without a game; a forfeit is a result like any other. Results
// are checked: unknown game, a game whose players are not both known, a
// winner who is not in the game, or two results for one game are errors.
func Advance(b Bracket, results []Result, withdrawn []string) (Progress, error) {
	return advanceSides(b, results, withdrawn, nil)
}

// advanceSides is Advance where pending(slot) marks first-round slots whose
// player is not known yet (nil: all known).
func advanceSides(b Bracket, results []Result, withdrawn []string, pending func(int) bool) (Progress, error) {
	if len(b.Slots) < 2 || len(b.Slots)&(len(b.Slots)-1) != 0 {
		return Progress{}, fieldErr("slots", "%d slots is not a power of two ≥ 2", len(b.Slots))
	}
	rounds := bits.TrailingZeros(uint(len(b.Slots)))
	if q := b.Qualifiers; q > 1 {
		if q&(q-1) != 0 || q >= len(b.Slots) {
			return Progress{}, fieldErr("qualifiers", "%d is not a power of two below the bracket size %d", q, len(b.Slots))
		}
		rounds -= bits.TrailingZeros(uint(q))
	}
	a := advancer{results: map[string]Result{}, at: map[string]int{}, used: map[string]bool{}, withdrawn: map[string]bool{}}
	for _, id := range withdrawn {
		a.withdrawn[id] = true
	}
	for i, r := range results {
		if _, dup := a.results[r.Game]; dup {
			return Progress{}, fieldErr(fmt.Sprintf("results[%d].game", i), "second result for %s", r.Game)
		}
		if r.Kind != "" && r.Kind != Played && r.Kind != Forfeit {
			return Progress{}, fieldErr(fmt.Sprintf("results[%d].kind", i), "unknown kind %q (want played or forfeit)", r.Kind)
		}
		a.results[r.Game] = r
		a.at[r.Game] = i
	}
	first := make([]side, len(b.Slots))
	for i, id := range b.Slots {
		first[i] = side{id: id, pending: pending != nil && pending(i)}
		if first[i].pending {
			first[i].id = ""
		}
	}
	var p Progress
	var err error
	var semiLosers []side
	var winners []side
	p.Rounds, winners, semiLosers, err = a.knockout("", first, rounds)
	if err != nil {
		return Progress{}, err
	}
	cut := b.Qualifiers > 1
	done := true
	if cut {
		for _, w := range winners {
			p.Qualifiers = append(p.Qualifiers, w.id)
			done = done && !w.pending
		}
	} else {
		p.Champion = winners[0].id
		done = !winners[0].pending
	}
	if b.ThirdPlace && !cut && len(semiLosers) == 2 {
		g, w, err := a.game("3P", 0, 1, semiLosers[0], semiLosers[1])
		if err != nil {
			return Progress{}, err
		}
		p.ThirdPlace = &g
		done = done && !w.pending
	}
	if b.Consolation && !cut && len(b.Slots) >= 4 {
		c, err := a.consolation(p.Rounds[0])
		if err != nil {
			return Progress{}, err
		}
		p.Consolation = c
		done = done && c.Finished
	}
	for i, r := range results {
		if !a.used[r.Game] {
			return Progress{}, fieldErr(fmt.Sprintf("results[%d].game", i), "%q is not a game awaiting a result in this bracket", r.Game)
		}
	}
	for _, round := range p.Rounds {
		p.Next = appendReady(p.Next, round)
	}
	if p.ThirdPlace != nil {
		p.Next = appendReady(p.Next, []Game{*p.ThirdPlace})
	}
	if p.Consolation != nil {
		p.Next = append(p.Next, p.Consolation.Next...)
	}
	p.Finished = done
	return p, nil
}

func appendReady(out []Game, games []Game) []Game {
	for _, g := range games {
		if g.Status == StatusReady {
			out = append(out, g)
		}
	}
	return out
}

// knockout plays rounds over the given first-round sides. It returns the
// games by round, the sides that come out of the last round, and the losers
// of the last round when it is the final (for a third-place game).
func (a *advancer) knockout(prefix string, sides []side, rounds int) ([][]Game, []side, []side, error) {
	var all [][]Game
	var losers []side
	for r := 1; r <= rounds; r++ {
		next := make([]side, len(sides)/2)
		games := make([]Game, len(sides)/2)
		var roundLosers []side
		for g := range games {
			id := fmt.Sprintf("%sR%d-G%d", prefix, r, g+1)
			game, w, err := a.game(id, r, g+1, sides[2*g], sides[2*g+1])
			if err != nil {
				return nil, nil, nil, err
			}
			games[g], next[g] = game, w
			roundLosers = append(roundLosers, loserOf(game, sides[2*g], sides[2*g+1]))
		}
		all = append(all, games)
		sides = next
		if r == rounds-1 {
			losers = roundLosers
		}
	}
	return all, sides, losers, nil
}

// loserOf is the player who lost a decided game over the board (or by
// forfeit); nobody for byes and walkovers, pending while undecided.
func loserOf(g Game, x, y side) side {
	switch g.Status {
	case StatusDone:
		if g.Winner == x.id {
			return y
		}
		return x
	case StatusPending, StatusReady:
		return side{pending: true}
	}
	return nobody
}

// game resolves one game from its two sides.
func (a *advancer) game(id string, round, index int, x, y side) (Game, side, error) {
	g := Game{ID: id, Round: round, Index: index}
	if !x.pending {
		g.Players[0] = x.id
	}
	if !y.pending {
		g.Players[1] = y.id
	}
	if x.pending || y.pending {
		g.Status = StatusPending
		return g, side{pending: true}, nil
	}
	if x.id != "" && y.id != "" {
		if r, ok := a.results[id]; ok {
			if r.Winner != x.id && r.Winner != y.id {
				return Game{}, nobody, fieldErr(fmt.Sprintf("results[%d].winner", a.at[id]), "%q is not a player of %s (%s, %s)", r.Winner, id, x.id, y.id)
			}
			a.used[id] = true
			g.Status, g.Winner, g.Kind = StatusDone, r.Winner, r.Kind
			if g.Kind == "" {
				g.Kind = Played
			}
			return g, side{id: r.Winner}, nil
		}
	}
	// A withdrawn player (棄権) counts as nobody from here on.
	if a.withdrawn[x.id] {
		x = nobody
	}
	if a.withdrawn[y.id] {
		y = nobody
	}
	switch {
	case x.id == "" && y.id == "":
		g.Status = StatusEmpty
		return g, nobody, nil
	case x.id == "" || y.id == "":
		g.Status = StatusWalkover
		g.Winner = x.id + y.id
		return g, side{id: g.Winner}, nil
	}
	g.Status = StatusReady
	return g, side{pending: true}, nil
}

// consolation is the first-round losers' bracket: the loser of round-1 game
// k takes consolation slot k (a bye when that game was not played), and the
// consolation bracket runs like the main one, its game IDs prefixed "C-".
// Only losers over the board (or by forfeit) enter; the consolation winner
// is Champion of the returned Progress.
func (a *advancer) consolation(round1 []Game) (*Progress, error) {
	sides := make([]side, len(round1))
	for k, g := range round1 {
		switch g.Status {
		case StatusDone:
			loser := g.Players[0]
			if loser == g.Winner {
				loser = g.Players[1]
			}
			sides[k] = side{id: loser}
		case StatusPending, StatusReady:
			sides[k] = side{pending: true}
		}
	}
	rounds := bits.TrailingZeros(uint(len(sides)))
	games, winners, _, err := a.knockout("C-", sides, rounds)
	if err != nil {
		return nil, err
	}
	c := &Progress{Rounds: games, Champion: winners[0].id, Finished: !winners[0].pending}
	for _, round := range games {
		c.Next = appendReady(c.Next, round)
	}
	return c, nil
}
