package rating

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
)

// State is the ratings after a set of games, ready to take more. Build one
// with NewState or Recompute; add games with Apply. A State is not safe for
// concurrent use; Clone it to keep a version.
type State struct {
	settings Settings
	roster   map[string]struct{}
	players  map[string]*player
	seen     map[string]Game   // every game accepted, rated or not
	redoneBy map[string]string // earlier game → its redo game
	skipped  map[string]Skip
	rated    int

	// Elo: the last rated game; later games must sort after it.
	last    orderKey
	hasLast bool

	// Glicko-2: the open (latest) period can still take games; closed
	// periods cannot.
	periodIndex map[string]int
	open        *openPeriod
	prevFirst   orderKey // first game of the period before the open one
	hasPrev     bool
}

type player struct {
	rating, rd, vol float64
	rated           bool
	period          int // Glicko-2: index of the last period played
	games           int
	wins, losses    int
	lastPlayed      time.Time
	history         []HistoryEntry
}

type openPeriod struct {
	key    string
	index  int
	first  orderKey
	games  []Game            // canonical order
	before map[string]player // participants as they were before the period
}

// NewState starts an empty state for a roster of player IDs.
func NewState(s Settings, players []string) (*State, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	st := &State{
		settings:    s,
		roster:      map[string]struct{}{},
		players:     map[string]*player{},
		seen:        map[string]Game{},
		redoneBy:    map[string]string{},
		skipped:     map[string]Skip{},
		periodIndex: map[string]int{},
	}
	if err := st.AddPlayers(players); err != nil {
		return nil, err
	}
	return st, nil
}

// Recompute rates all games from scratch. The order of games in the input
// does not matter: they are rated in canonical order.
func Recompute(s Settings, players []string, games []Game) (*State, error) {
	st, err := NewState(s, players)
	if err != nil {
		return nil, err
	}
	if err := st.Apply(games); err != nil {
		return nil, err
	}
	return st, nil
}

// AddPlayers extends the roster. New players are unrated until they play,
// so adding players never changes a rating.
func (st *State) AddPlayers(ids []string) error {
	var errs []error
	seen := map[string]bool{}
	for i, id := range ids {
		switch {
		case id == "":
			errs = append(errs, fmt.Errorf("players[%d]: id is empty: %w", i, ErrInvalid))
		case seen[id]:
			errs = append(errs, fmt.Errorf("players[%d]: %q appears twice: %w", i, id, ErrInvalid))
		}
		seen[id] = true
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := st.roster[id]; ok {
			continue
		}
		st.roster[id] = struct{}{}
		st.players[id] = st.unrated()
	}
	return nil
}

func (st *State) unrated() *player {
	if st.settings.Model == ModelGlicko2 {
		g := st.settings.Glicko2
		return &player{rating: g.Initial, rd: g.InitialRD, vol: g.InitialVolatility, period: -1}
	}
	return &player{rating: st.settings.Elo.Initial, period: -1}
}

// Apply rates games on top of the state. Games must not sort before rated
// games already in the state (Elo: the last rated game; Glicko-2: the open
// rating period), else the error wraps ErrOutOfOrder and the caller
// recomputes. Applying games in any number of batches gives exactly the
// ratings Recompute gives for all of them. On error the state is unchanged.
func (st *State) Apply(games []Game) error {
	p, err := st.plan(games)
	if err != nil {
		return err
	}
	if len(st.seen) == 0 && len(p.games) > 0 {
		st.seen = make(map[string]Game, len(p.games)) // a recompute: size once
	}
	for _, g := range p.games {
		st.seen[g.ID] = g
	}
	maps.Copy(st.redoneBy, p.redone)
	for _, s := range p.skips {
		st.skipped[s.Game] = s
	}
	for _, s := range p.resolved {
		st.skipped[s.Game] = s
	}
	st.rated += len(p.counted)
	if st.settings.Model == ModelElo {
		for _, g := range p.counted {
			st.rateElo(g)
		}
		if n := len(p.counted); n > 0 {
			st.last, st.hasLast = keyOf(p.counted[n-1]), true
		}
		return nil
	}
	if len(p.merge) > 0 {
		op := st.open
		for id, saved := range op.before {
			*st.players[id] = saved
		}
		op.games = append(op.games, p.merge...)
		slices.SortFunc(op.games, CompareGames)
		op.first = keyOf(op.games[0])
		st.runPeriod(op)
	}
	for _, pp := range p.periods {
		if st.open != nil {
			st.prevFirst, st.hasPrev = st.open.first, true
		}
		st.open = &openPeriod{key: pp.key, index: pp.index, first: pp.first, games: pp.games}
		st.periodIndex[pp.key] = pp.index
		st.runPeriod(st.open)
	}
	return nil
}

// preGlicko2 is the player's rating at the start of period index: an
// unrated player starts from the settings; a rated one's deviation has
// grown for each period they sat out, φ² + n·σ² (n idle periods, the
// closed form of the paper's φ* = √(φ² + σ²) applied n times).
func (st *State) preGlicko2(p *player, index int) Glicko2Rating {
	if !p.rated {
		g := st.settings.Glicko2
		return Glicko2Rating{Rating: g.Initial, RD: g.InitialRD, Volatility: g.InitialVolatility}
	}
	r := Glicko2Rating{Rating: p.rating, RD: p.rd, Volatility: p.vol}
	if idle := index - p.period - 1; idle > 0 {
		phi := p.rd / glicko2Scale
		r.RD = math.Sqrt(phi*phi+float64(idle)*p.vol*p.vol) * glicko2Scale
	}
	return r
}

// runPeriod rates one Glicko-2 period: every participant against the
// others' pre-period ratings, results in canonical order.
func (st *State) runPeriod(op *openPeriod) {
	op.before = map[string]player{}
	pre := map[string]Glicko2Rating{}
	results := map[string][]Glicko2Result{}
	for _, g := range op.games {
		for _, id := range []string{g.Sente, g.Gote} {
			if _, ok := pre[id]; !ok {
				p := st.players[id]
				op.before[id] = *p
				pre[id] = st.preGlicko2(p, op.index)
			}
		}
		w, l := g.Winner(), g.Loser()
		results[w] = append(results[w], Glicko2Result{Opponent: pre[l], Score: 1})
		results[l] = append(results[l], Glicko2Result{Opponent: pre[w], Score: 0})
	}
	post := make(map[string]Glicko2Rating, len(pre))
	for id, r := range pre {
		post[id] = Glicko2Period(r, results[id], st.settings.Glicko2.Tau)
	}
	for _, g := range op.games {
		w, l := g.Winner(), g.Loser()
		st.players[w].record(g, true, pre[w].Rating, post[w].Rating, pre[l].Rating, pre[w].RD, post[w].RD)
		st.players[l].record(g, false, pre[l].Rating, post[l].Rating, pre[w].Rating, pre[l].RD, post[l].RD)
	}
	for id, r := range post {
		p := st.players[id]
		p.rating, p.rd, p.vol = r.Rating, r.RD, r.Volatility
		p.rated, p.period = true, op.index
	}
	// Every history entry of the period carries the period's key.
	for id := range post {
		h := st.players[id].history
		for i := len(op.before[id].history); i < len(h); i++ {
			h[i].Period = op.key
		}
	}
}

// Clone returns an independent copy of the state.
func (st *State) Clone() *State {
	c := *st
	c.roster = maps.Clone(st.roster)
	c.seen = maps.Clone(st.seen)
	c.redoneBy = maps.Clone(st.redoneBy)
	c.skipped = maps.Clone(st.skipped)
	c.periodIndex = maps.Clone(st.periodIndex)
	c.players = make(map[string]*player, len(st.players))
	for id, p := range st.players {
		q := *p
		q.history = slices.Clone(p.history)
		c.players[id] = &q
	}
	if st.open != nil {
		op := *st.open
		op.games = slices.Clone(st.open.games)
		op.before = make(map[string]player, len(st.open.before))
		for id, saved := range st.open.before {
			// Point the saved history at the copy's own array, so restoring
			// it can never write into the original state's entries.
			saved.history = c.players[id].history[:len(saved.history):len(saved.history)]
			op.before[id] = saved
		}
		c.open = &op
	}
	return &c
}
