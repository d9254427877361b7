package day

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// ClassView is a class as its pages show it: entrants, drawn rounds with
// their boards, and player names — read in a fixed number of statements.
type ClassView struct {
	Event    store.Event
	Class    Class
	Entrants []store.DayEntrantRow
	Rounds   []RoundState
	Names    map[int64]string
	// CanDesk: the actor runs the desk (draws, reception); CanEnter: the
	// actor may enter results.
	CanDesk  bool
	CanEnter bool
}

// Round returns drawn round n; ok is false when it is not drawn.
func (v ClassView) Round(n int) (RoundState, bool) {
	if n < 1 || n > len(v.Rounds) {
		return RoundState{}, false
	}
	return v.Rounds[n-1], true
}

// NextRound is the number of the round the director would draw next.
func (v ClassView) NextRound() int { return len(v.Rounds) + 1 }

// CanDraw reports whether the last round is complete (or none is drawn)
// and the class has a preliminary.
func (v ClassView) CanDraw() bool {
	if v.Class.Format == FormatKnockout {
		return false
	}
	if v.Class.Format == FormatSwiss && len(v.Rounds) >= v.Class.Settings.Rounds {
		return false
	}
	return len(v.Rounds) == 0 || v.Rounds[len(v.Rounds)-1].Complete()
}

// PreliminaryOver reports whether a pools class's preliminary is over:
// its last round is complete and nobody is still playing, so a next draw
// would only be refused (day.err.finished). It needs the view as
// ClassView loads it (entrants and names).
func (v ClassView) PreliminaryOver() bool {
	if v.Class.Format != FormatPools || len(v.Rounds) == 0 || !v.Rounds[len(v.Rounds)-1].Complete() {
		return false
	}
	s, err := v.Standings()
	if err != nil {
		return false // the draw itself says what is wrong
	}
	return !slices.ContainsFunc(s.Pools, func(l PoolsLine) bool { return l.Status == pairing.StatusPlaying })
}

// ClassView reads a class for its pages (anyone who may see the event).
func (d *Day) ClassView(ctx context.Context, actor office.Actor, classID int64) (ClassView, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return ClassView{}, err
	}
	e, err := d.o.Event(ctx, actor, c.EventID)
	if err != nil {
		return ClassView{}, err
	}
	st, err := loadClassView(ctx, d.store, c)
	if err != nil {
		return ClassView{}, err
	}
	if err := seatOverrides(ctx, d.store, st.rounds); err != nil {
		return ClassView{}, err
	}
	v := ClassView{Event: e, Class: st.class, Entrants: st.entrants, Rounds: st.rounds, Names: st.names}
	if !actor.Anonymous() {
		v.CanDesk = d.o.RequireEventRole(ctx, actor, e.ID, deskRoles...) == nil
		v.CanEnter = v.CanDesk || d.o.RequireEventRole(ctx, actor, e.ID, resultRoles...) == nil
	}
	return v, nil
}

// PublicRoundPage is what the public round page shows: the event, the
// class, round n in words and how many rounds are drawn.
type PublicRoundPage struct {
	Event   store.Event
	Class   Class
	Round   PublicRound
	Current int // the rounds drawn (CurrentRound)
}

// PublicRoundOf is round n of a class for whoever may see the event,
// reading that round's boards and games alone (ClassView reads every
// round's): the page a player opens on a phone in every round. A round
// not drawn is office.ErrNotFound, as a class the actor may not see.
func (d *Day) PublicRoundOf(ctx context.Context, actor office.Actor, classID int64, n int) (PublicRoundPage, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return PublicRoundPage{}, err
	}
	e, err := d.o.Event(ctx, actor, c.EventID)
	if err != nil {
		return PublicRoundPage{}, err
	}
	if n < 1 {
		return PublicRoundPage{}, fmt.Errorf("round %d of class %d: %w", n, classID, office.ErrNotFound)
	}
	st, err := loadClassStateWith(ctx, d.store, c, nil, n)
	if err != nil {
		return PublicRoundPage{}, err
	}
	v := ClassView{Event: e, Class: st.class, Entrants: st.entrants, Rounds: st.rounds, Names: st.names}
	r, ok := v.PublicRound(n)
	if !ok {
		return PublicRoundPage{}, fmt.Errorf("round %d of class %d: %w", n, classID, office.ErrNotFound)
	}
	return PublicRoundPage{Event: e, Class: st.class, Round: r, Current: v.CurrentRound()}, nil
}

// loadClassView is loadClassState without the lineage the draws need.
func loadClassView(ctx context.Context, s *store.Store, c store.DayClass) (*classState, error) {
	return loadClassStateWith(ctx, s, c, nil, 0)
}

// BoardResultInput is one tap on the board page: the class round and
// board, the game the row showed as the board's current one and its
// result version then, and who won.
type BoardResultInput struct {
	ClassID int64
	Round   int
	Board   int
	GameID  int64
	Version int
	Result  string // sente_win or gote_win; read only when Winner is 0
	// Winner is the player who won, one of the game's two players: the
	// board page names the winner, not a seat, so a result entered before
	// the 振り駒 is recorded, or while a toss swaps the seats, lands on
	// the right player (issue 23 §3).
	Winner int64
}

// EnterBoardResult records a board's result from the floor (directors,
// arbiters, recorders) through the one result-entry path: one
// transaction, the game row locked, the version the person saw checked (a
// *office.StaleError, HTTP 409 with the result in force, when another
// entry came first).
func (d *Day) EnterBoardResult(ctx context.Context, actor office.Actor, in BoardResultInput) error {
	return d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		// Who may enter first, then whether the game is this board's, then
		// the form (issue 21): a refused principal never hears about
		// fields, another board's or event's game is not found.
		if _, err := requireDay(ctx, tx, actor, c.EventID, resultRoles); err != nil {
			return err
		}
		root, err := boardGame(ctx, tx, c.ID, in.Round, in.Board)
		if err != nil {
			return err
		}
		if err := office.ChainHoldsIn(ctx, tx, root, in.GameID); err != nil {
			return err
		}
		result := in.Result
		if in.Winner != 0 {
			// The seats are read with the game row locked: a toss entered
			// meanwhile has either moved them already or waits.
			g, err := tx.LockGame(ctx, in.GameID)
			if err != nil {
				return err
			}
			switch in.Winner {
			case deref64(g.SentePlayerID):
				result = office.ResultSenteWin
			case deref64(g.GotePlayerID):
				result = office.ResultGoteWin
			default:
				return invalid("winner", "day.err.winner_not_on_board", nil) // not one of this board's two players
			}
		}
		if result != office.ResultSenteWin && result != office.ResultGoteWin {
			return invalid("result", "day.err.choose", nil)
		}
		_, err = office.EnterChainResultIn(ctx, tx, actor, office.ChainResultInput{RootID: root, GameID: in.GameID, Version: in.Version, Result: result, Reason: office.ReasonResignation}, d.now())
		return err
	})
}

// boardGame is the game created for a board of a class round.
func boardGame(ctx context.Context, tx *store.Store, classID int64, round, board int) (int64, error) {
	ps, err := tx.DayPairingsOfClass(ctx, classID)
	if err != nil {
		return 0, err
	}
	for _, p := range ps {
		if p.Round == round && p.Board != nil && *p.Board == board && p.GameID != nil {
			return *p.GameID, nil
		}
	}
	return 0, invalid("board", "day.err.no_board", map[string]any{"Board": board})
}

// PoolsLine is one player's line in a pools preliminary's standings.
type PoolsLine struct {
	PlayerID   int64
	Name       string
	Block      string
	Wins       int
	Losses     int
	Byes       int
	Status     string // pairing.StatusPlaying, StatusQualified, StatusOut
	Round      int    // when they qualified or went out
	BlockPlace int
	Withdrawn  bool
	Shown      string // the 状況 column: Shown* (public.go)
}

// SwissLine is one line of a Swiss class's standings, in the class's
// tie-break order.
type SwissLine struct {
	Place     int
	PlayerID  int64
	Name      string
	Wins      float64
	Losses    int // decided games lost (a forfeit counts)
	Solkoff   float64
	SB        float64
	Games     int
	Byes      int
	Withdrawn bool
	Shown     string // the 状況 column: Shown* (public.go)
}

// Standings is a class's standings from the results in force.
type Standings struct {
	Pools []PoolsLine
	Swiss []SwissLine
}

// Standings computes a class's standings (pools: record and
// qualified/out; Swiss: wins and the class's tie-breaks) from the boards
// decided so far.
func (v ClassView) Standings() (Standings, error) {
	var out Standings
	if len(v.Rounds) == 0 {
		return out, nil
	}
	st := &classState{class: v.Class, entrants: v.Entrants, rounds: v.Rounds, names: v.Names, byPlayer: map[int64]store.DayEntrantRow{}, ranks: map[int64]string{}}
	for _, e := range v.Entrants {
		st.byPlayer[e.PlayerID] = e
		st.ranks[e.PlayerID] = e.DeclaredRank
	}
	seed, _ := strconv.ParseUint(v.Rounds[0].Seed, 10, 64)
	switch v.Class.Format {
	case FormatPools:
		req, err := st.poolsStandingsRequest(seed)
		if err != nil {
			return out, err
		}
		_, lines, err := pairing.CheckPools(req)
		if err != nil {
			return out, err
		}
		pairing.SortPoolStandings(lines) // the order of kisen standings pools
		for _, l := range lines {
			id := idOf(l.ID)
			out.Pools = append(out.Pools, PoolsLine{PlayerID: id, Name: v.Names[id], Block: l.Block, Wins: l.Record.Wins, Losses: l.Record.Losses, Byes: l.Byes,
				Status: l.Status, Round: l.Round, BlockPlace: l.BlockPlace, Withdrawn: st.byPlayer[id].Withdrawn()})
		}
	case FormatSwiss:
		req, err := st.swissRequest(seed, len(v.Rounds), true)
		if err != nil {
			return out, err
		}
		lines, err := pairing.SwissStandings(req)
		if err != nil {
			return out, err
		}
		for _, l := range lines {
			id := idOf(l.ID)
			out.Swiss = append(out.Swiss, SwissLine{Place: l.Rank, PlayerID: id, Name: v.Names[id], Wins: l.Wins, Solkoff: l.Solkoff, SB: l.SB, Games: l.Games, Byes: l.Byes, Withdrawn: st.byPlayer[id].Withdrawn()})
		}
	}
	v.fillShown(&out)
	return out, nil
}

// poolsStandingsRequest is the pools request of the decided boards only.
func (st *classState) poolsStandingsRequest(seed uint64) (pairing.PoolsRequest, error) {
	open := *st
	open.rounds = nil
	for _, r := range st.rounds {
		rr := r
		rr.Boards = nil
		for _, b := range r.Boards {
			if b.Decided && b.Winner != 0 {
				rr.Boards = append(rr.Boards, b)
			}
		}
		open.rounds = append(open.rounds, rr)
	}
	req, err := open.poolsRequest(seed)
	if err != nil {
		return req, err
	}
	// Everyone drawn in round 1 stays in the standings, decided or not.
	for _, r := range st.rounds {
		for _, b := range r.Boards {
			for _, id := range []int64{deref64(b.Root.SentePlayerID), deref64(b.Root.GotePlayerID)} {
				if !hasPoolPlayer(req.Players, pid(id)) {
					e := st.byPlayer[id]
					req.Players = append(req.Players, pairing.PoolPlayer{ID: pid(id), Name: st.names[id], Club: e.Affiliation})
				}
			}
		}
	}
	return req, nil
}

func hasPoolPlayer(ps []pairing.PoolPlayer, id string) bool {
	for _, p := range ps {
		if p.ID == id {
			return true
		}
	}
	return false
}

// Qualifier is a player who goes on to the class's final knockout, with
// what the final's draw needs to spread them (issue 14 item 4): the pools
// block and place in it (1 for a 2-0 block winner), or the Swiss place.
type Qualifier struct {
	PlayerID int64
	Name     string
	Block    string // pools blocks mode
	Place    int    // block place (pools) or standings place (Swiss)
}

// Qualifiers lists the class's qualifiers so far: pools players who
// reached N wins (withdrawn ones left out), or the top Settings.Qualifiers
// of a Swiss class's standings once its last round is complete. For a
// knockout-only class it is every checked-in entrant.
func (v ClassView) Qualifiers() ([]Qualifier, error) {
	var out []Qualifier
	switch v.Class.Format {
	case FormatKnockout:
		for _, e := range v.Entrants {
			if drawable(e.DayEntrant) {
				out = append(out, Qualifier{PlayerID: e.PlayerID, Name: e.Name})
			}
		}
		return out, nil
	}
	st, err := v.Standings()
	if err != nil {
		return nil, err
	}
	for _, l := range st.Pools {
		if l.Status == pairing.StatusQualified && !l.Withdrawn {
			out = append(out, Qualifier{PlayerID: l.PlayerID, Name: l.Name, Block: l.Block, Place: l.BlockPlace})
		}
	}
	if v.Class.Format == FormatSwiss && len(v.Rounds) == v.Class.Settings.Rounds && v.Rounds[len(v.Rounds)-1].Complete() {
		for _, l := range st.Swiss {
			if l.Withdrawn {
				continue
			}
			if len(out) == v.Class.Settings.Qualifiers {
				break
			}
			out = append(out, Qualifier{PlayerID: l.PlayerID, Name: l.Name, Place: l.Place})
		}
	}
	return out, nil
}

// ClassRound is one class's round n on the event-wide board page.
type ClassRound struct {
	Class Class
	Round RoundState
	Names map[int64]string
}

// EventRound reads round n of every class of a day that has drawn it, for
// a desk that enters results of several classes playing at once — in a
// fixed number of statements whatever the number of classes and players.
// canEnter says whether the actor may enter results.
func (d *Day) EventRound(ctx context.Context, actor office.Actor, eventID int64, n int) (e store.Event, out []ClassRound, canEnter bool, err error) {
	if e, err = d.o.Event(ctx, actor, eventID); err != nil {
		return e, nil, false, err
	}
	if ok, err := d.store.IsDayEvent(ctx, eventID); err != nil || !ok {
		if err == nil {
			err = notDay(eventID)
		}
		return e, nil, false, err
	}
	canEnter = !actor.Anonymous() && d.o.RequireEventRole(ctx, actor, eventID, resultRoles...) == nil
	classes, err := classesIn(ctx, d.store, eventID)
	if err != nil {
		return e, nil, false, err
	}
	rounds, err := d.store.DayRoundsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, false, err
	}
	ps, err := d.store.DayPairingsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, false, err
	}
	entrants, err := d.store.DayEntrantsOfEvent(ctx, eventID)
	if err != nil {
		return e, nil, false, err
	}
	var gs store.GameSet
	observed := map[int64]pairing.Furigoma{}
	if len(ps) > 0 {
		if gs, err = d.store.GameSetOfEvent(ctx, eventID); err != nil {
			return e, nil, false, err
		}
		if observed, err = observedOfEvent(ctx, d.store, eventID); err != nil {
			return e, nil, false, err
		}
	}
	names := map[int64]string{}
	for _, en := range entrants {
		names[en.PlayerID] = en.Name
	}
	byClass := map[int64]*ClassRound{}
	for _, r := range rounds {
		if r.Number != n {
			continue
		}
		for _, c := range classes {
			if c.ID == r.ClassID {
				byClass[c.ID] = &ClassRound{Class: c, Round: RoundState{DayRound: r}, Names: names}
			}
		}
	}
	for _, p := range ps {
		cr, ok := byClass[p.ClassID]
		if !ok || p.Round != n {
			continue
		}
		if p.GameID == nil {
			if p.ByePlayerID != nil {
				cr.Round.Byes = append(cr.Round.Byes, *p.ByePlayerID)
			}
			continue
		}
		b, err := boardOf(gs, p)
		if err != nil {
			return e, nil, false, err
		}
		observe(&b, observed)
		cr.Round.Boards = append(cr.Round.Boards, b)
	}
	for _, c := range classes {
		if cr, ok := byClass[c.ID]; ok {
			out = append(out, *cr)
		}
	}
	boards := make([][]Board, len(out))
	for i := range out {
		boards[i] = out[i].Round.Boards
	}
	if err := seatOverridesOf(ctx, d.store, boards); err != nil {
		return e, nil, false, err
	}
	return e, out, canEnter, nil
}
