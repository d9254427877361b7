package day

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// Board is one board of a drawn round as it stands: the game created for
// it (Root), the game of its redo chain now in play or deciding it (Last),
// its result in force and whether it is decided.
type Board struct {
	Round int
	Board int
	Root  store.Game
	Last  store.Game
	// Chain is the board's games from Root to Last (a redo adds one): a
	// form's game must be one of them (issue 21).
	Chain    []int64
	InForce  store.ResultVersion
	Decided  bool
	Version  int   // Last's newest result version (0: none), what a form carries
	Winner   int64 // 0 while undecided or when nobody won
	Sente    int64 // of Last (a redo swaps colours, D-R1)
	Gote     int64
	SenteBy  string
	Furigoma string
	// Observed is the 振り駒 seen at the board (EnterBoardToss), when one
	// was entered: decided, it is the board's sente (SenteBy "observed").
	Observed *pairing.Furigoma
	// JozaOverride is the 上座 the organiser chose for one of the board's
	// games with a reason (office.OverrideJoza, POST /games/:id/seat), the
	// newest when several; 0: none (seatOverrides fills it).
	JozaOverride int64
}

// Joza is the board's 上座 player, who tosses the 振り駒 (000 第7条1, 003;
// D-Z2: the higher 段級, else the draw's order): the organiser's override
// of the board's game when there is one (docs/seating.md), else the tosser
// of the draw's simulated toss, or Sente when the board has none.
func (b Board) Joza() int64 {
	if id := b.JozaOverride; id != 0 && (id == b.Sente || id == b.Gote) {
		return id
	}
	var f pairing.Furigoma
	if b.Furigoma != "" && json.Unmarshal([]byte(b.Furigoma), &f) == nil {
		if id, err := strconv.ParseInt(f.Tosser, 10, 64); err == nil && (id == b.Sente || id == b.Gote) {
			return id
		}
	}
	return b.Sente
}

// SeatsPending reports whether the board's seats wait for the 振り駒 at
// the board: sente is decided by a toss (policy toss, or equal ranks under
// table / mixed) and no deciding toss has been recorded there. The
// simulated toss of the draw only fills the game's two seats so the game
// exists; it is not shown as 先手/後手 (issue 23 §3). A board whose
// sente is fixed by 手合割, rank or the Swiss colours, or whose toss was
// recorded (SenteBy observed), has its seats.
func (b Board) SeatsPending() bool { return b.SenteBy == pairing.SenteByFurigoma }

// RoundState is one drawn round of a class.
type RoundState struct {
	store.DayRound
	Boards []Board
	Byes   []int64
}

// Complete reports whether every board of the round is decided.
func (r RoundState) Complete() bool {
	for _, b := range r.Boards {
		if !b.Decided {
			return false
		}
	}
	return true
}

// classState is everything a class's draw, standings and board pages
// read, in a fixed number of statements whatever the class's size:
// entrants, rounds, boards, the event's game set, masters and relatives.
type classState struct {
	class    Class
	entrants []store.DayEntrantRow
	byPlayer map[int64]store.DayEntrantRow
	rounds   []RoundState
	masters  map[int64]store.MasterKey
	family   map[int64]string
	names    map[int64]string
	ranks    map[int64]string
}

func loadClassState(ctx context.Context, s *store.Store, c store.DayClass, now func() store.CivilDate) (*classState, error) {
	return loadClassStateWith(ctx, s, c, now, 0)
}

// loadClassStateWith reads the lineage (masters on day now(), relatives)
// only when now is not nil. With only > 0 it reads the boards and games of
// round only alone: every round is listed, the others without boards or
// byes (the public round page, which shows one round of a class that may
// have played seven).
func loadClassStateWith(ctx context.Context, s *store.Store, c store.DayClass, now func() store.CivilDate, only int) (*classState, error) {
	st := &classState{class: classOf(c), byPlayer: map[int64]store.DayEntrantRow{}, names: map[int64]string{}, ranks: map[int64]string{}}
	var err error
	if st.entrants, err = s.DayEntrantsOfClass(ctx, c.ID); err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(st.entrants))
	for _, e := range st.entrants {
		st.byPlayer[e.PlayerID] = e
		st.names[e.PlayerID] = e.Name
		st.ranks[e.PlayerID] = e.DeclaredRank
		ids = append(ids, e.PlayerID)
	}
	rounds, err := s.DayRoundsOfClass(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	var ps []store.DayPairingRow
	if only > 0 {
		ps, err = s.DayPairingsOfClassRound(ctx, c.ID, only)
	} else {
		ps, err = s.DayPairingsOfClass(ctx, c.ID)
	}
	if err != nil {
		return nil, err
	}
	var gs store.GameSet
	switch {
	case len(ps) == 0:
	case only > 0:
		gs, err = s.GameSetOfDayRound(ctx, c.ID, only)
	default:
		gs, err = s.GameSetOfEvent(ctx, c.EventID)
	}
	if err != nil {
		return nil, err
	}
	idx := map[int64]int{}
	for _, r := range rounds {
		idx[r.ID] = len(st.rounds)
		st.rounds = append(st.rounds, RoundState{DayRound: r})
	}
	observed := map[int64]pairing.Furigoma{}
	if len(ps) > 0 {
		log, err := s.DayLogOfClass(ctx, c.ID, LogToss)
		if err != nil {
			return nil, err
		}
		if observed, err = observedTosses(log); err != nil {
			return nil, err
		}
	}
	for _, p := range ps {
		i, ok := idx[p.RoundID]
		if !ok {
			return nil, fmt.Errorf("board %d of a round not in class %d", p.ID, c.ID)
		}
		r := &st.rounds[i]
		if p.GameID == nil {
			if p.ByePlayerID != nil {
				r.Byes = append(r.Byes, *p.ByePlayerID)
			}
			continue
		}
		b, err := boardOf(gs, p)
		if err != nil {
			return nil, err
		}
		observe(&b, observed)
		r.Boards = append(r.Boards, b)
	}
	if now == nil {
		return st, nil
	}
	if st.masters, err = s.MastersOn(ctx, now(), ids); err != nil {
		return nil, err
	}
	rel, err := s.RelativesAmong(ctx, ids)
	if err != nil {
		return nil, err
	}
	st.family = familyKeys(rel)
	return st, nil
}

// seatOverrides applies the organiser's 上座 overrides of the rounds'
// boards (office.OverrideJoza: an append-only row per decision, the newest
// of any game of a board's redo chain wins) in one statement, so the desk,
// the board page and the slips name the same tosser as the game page.
func seatOverrides(ctx context.Context, s *store.Store, rounds []RoundState) error {
	boards := make([][]Board, len(rounds))
	for i, r := range rounds {
		boards[i] = r.Boards
	}
	return seatOverridesOf(ctx, s, boards)
}

// seatOverridesOf is seatOverrides for boards given as slices (each board
// is updated in place).
func seatOverridesOf(ctx context.Context, s *store.Store, boards [][]Board) error {
	of := map[int64]*Board{}
	var ids []int64
	for _, row := range boards {
		for j := range row {
			b := &row[j]
			for _, id := range b.Chain {
				of[id] = b
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	ovs, err := s.SeatOverridesOf(ctx, ids)
	if err != nil {
		return err
	}
	for _, ov := range ovs { // oldest first
		if b := of[ov.GameID]; b != nil && (ov.JozaID == b.Sente || ov.JozaID == b.Gote) {
			b.JozaOverride = ov.JozaID
		}
	}
	return nil
}

// observe applies the 振り駒 seen at the board, when one was entered: a
// deciding toss makes the board's sente "observed".
func observe(b *Board, observed map[int64]pairing.Furigoma) {
	if f, ok := observed[b.Root.ID]; ok {
		b.Observed = &f
		if f.Decided {
			b.SenteBy, b.Furigoma = pairing.SenteByObserved, mustJSON(f)
		}
	}
}

// observedOfEvent reads and replays every toss observed at a day's boards
// (one statement).
func observedOfEvent(ctx context.Context, s *store.Store, eventID int64) (map[int64]pairing.Furigoma, error) {
	log, err := s.DayLogOfEventAction(ctx, eventID, LogToss)
	if err != nil {
		return nil, err
	}
	return observedTosses(log)
}

// seatsPendingIn reports whether the board of game rootID, whose sente
// was chosen senteBy, still waits for its toss (Board.SeatsPending),
// reading the class's observed tosses only when a 振り駒 decides it.
func seatsPendingIn(ctx context.Context, s *store.Store, classID, rootID int64, senteBy string) (bool, error) {
	if senteBy != pairing.SenteByFurigoma {
		return false, nil
	}
	log, err := s.DayLogOfClass(ctx, classID, LogToss)
	if err != nil {
		return false, err
	}
	observed, err := observedTosses(log)
	if err != nil {
		return false, err
	}
	b := Board{Root: store.Game{ID: rootID}, SenteBy: senteBy}
	observe(&b, observed)
	return b.SeatsPending(), nil
}

// boardOf reads one board from the game set.
func boardOf(gs store.GameSet, p store.DayPairingRow) (Board, error) {
	root, ok := gs.Games[*p.GameID]
	if !ok {
		return Board{}, fmt.Errorf("game %d of a board: %w", *p.GameID, store.ErrNotFound)
	}
	last, eff, decided, err := office.DecidingIn(gs, root.ID)
	if err != nil {
		return Board{}, err
	}
	b := Board{Round: p.Round, Board: deref(p.Board), Root: root, Last: last, InForce: eff, Decided: decided, SenteBy: p.SenteBy, Furigoma: p.Furigoma}
	b.Chain = []int64{root.ID}
	for g := root; g.ID != last.ID && len(b.Chain) < 1000; {
		redos := gs.Redos(g.ID)
		if len(redos) == 0 {
			break
		}
		g = redos[0]
		b.Chain = append(b.Chain, g.ID)
	}
	if v, ok := gs.Latest(last.ID); ok {
		b.Version = v.Version
	}
	b.Sente, b.Gote = deref64(last.SentePlayerID), deref64(last.GotePlayerID)
	if decided {
		switch eff.Result {
		case office.ResultSenteWin:
			b.Winner = b.Sente
		case office.ResultGoteWin:
			b.Winner = b.Gote
		}
	}
	return b, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// familyKeys groups relatives (union of the registry's pairs) and names
// each group by its smallest player id.
func familyKeys(rel []store.PlayerRelative) map[int64]string {
	parent := map[int64]int64{}
	var find func(int64) int64
	find = func(x int64) int64 {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, r := range rel {
		a, b := find(r.PlayerAID), find(r.PlayerBID)
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	out := map[int64]string{}
	for x := range parent {
		out[x] = "f" + strconv.FormatInt(find(x), 10)
	}
	return out
}

// pid and idOf convert between player ids and the draws' string ids.
func pid(id int64) string { return strconv.FormatInt(id, 10) }

func idOf(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// masterOf is a player's 師匠 in the draws' terms: a registered master by
// player id (so 師弟 between two entrants is seen), a teacher by key.
func (st *classState) masterOf(id int64) string {
	k, ok := st.masters[id]
	if !ok {
		return ""
	}
	if p, ok := strings.CutPrefix(string(k), "p:"); ok {
		return p
	}
	return string(k)
}

// previous reports whether the last drawn round is complete; its number.
func (st *classState) lastRound() (RoundState, bool) {
	if len(st.rounds) == 0 {
		return RoundState{}, false
	}
	return st.rounds[len(st.rounds)-1], true
}

// relativeBoard is a board's number within its class round (1..k), which
// the draws work in.
func (st *classState) relativeBoard(board int) int {
	return board - st.class.Settings.FirstBoard + 1
}

// poolsRequest builds the pools draw's request from the class so far.
// Round 1 draws the checked-in entrants; later rounds every player of the
// earlier rounds (a withdrawn one is still paired and forfeits, so a block
// keeps its shape) and no one else.
func (st *classState) poolsRequest(seed uint64) (pairing.PoolsRequest, error) {
	s := st.class.Settings
	req := pairing.PoolsRequest{Wins: s.Wins, Losses: s.Losses, Mode: pairing.PoolMode(s.PoolMode), Relations: s.poolsRelations(), Seed: seed}
	seen := map[int64]bool{}
	add := func(id int64) {
		if seen[id] {
			return
		}
		seen[id] = true
		req.Players = append(req.Players, pairing.PoolPlayer{ID: pid(id), Name: st.names[id], Club: st.byPlayer[id].Affiliation, Master: st.masterOf(id), Family: st.family[id]})
	}
	for _, r := range st.rounds {
		for _, b := range r.Boards {
			if !b.Decided {
				return req, invalid("round", "day.err.round_open", map[string]any{"N": r.Number})
			}
			if b.Winner == 0 {
				return req, invalid("round", "day.err.no_winner", map[string]any{"N": r.Number, "Board": b.Board})
			}
			add(b.Sente)
			add(b.Gote)
			req.Games = append(req.Games, pairing.PoolGame{Round: r.Number, Board: st.relativeBoard(b.Board), Players: [2]string{pid(deref64(b.Root.SentePlayerID)), pid(deref64(b.Root.GotePlayerID))}, Winner: pid(b.Winner)})
		}
		for _, id := range r.Byes {
			add(id)
			req.Byes = append(req.Byes, pairing.PoolBye{Round: r.Number, Player: pid(id)})
		}
	}
	// Only round 1 takes new players: pairing.DrawPools replays every
	// round and refuses a player who was in none of the earlier ones (no
	// game, no bye), in either mode. A late arrival after round 1 may be
	// moved to a Swiss class, which takes them.
	if len(st.rounds) == 0 {
		for _, e := range st.entrants {
			if drawable(e.DayEntrant) {
				add(e.PlayerID)
			}
		}
	}
	if len(st.rounds) > 0 && s.PoolMode == string(pairing.PoolBlocks) {
		if err := jsonInto(st.rounds[0].Blocks, &req.Blocks); err != nil {
			return req, fmt.Errorf("blocks of class %d: %w", st.class.ID, err)
		}
	}
	return req, nil
}

// swissRequest builds the Swiss draw's request for round n. Withdrawn and
// no-longer-checked-in players keep their games for the standings but are
// not drawn; with decidedOnly, undecided boards are left out (standings
// while a round is played).
func (st *classState) swissRequest(seed uint64, n int, decidedOnly bool) (pairing.SwissRequest, error) {
	s := st.class.Settings
	req := pairing.SwissRequest{Settings: pairing.SwissSettings{Rounds: s.Rounds, Relations: s.swissRelations(), BalanceColours: s.Handicap == HandicapBalanced, Tiebreaks: s.tiebreaks()}, Round: n, Seed: seed}
	seen := map[int64]bool{}
	add := func(id int64) {
		if seen[id] {
			return
		}
		seen[id] = true
		e := st.byPlayer[id]
		req.Players = append(req.Players, pairing.SwissPlayer{ID: pid(id), Name: st.names[id], Rank: st.ranks[id], Club: e.Affiliation, Family: st.family[id], Master: st.masterOf(id), Withdrawn: !drawable(e.DayEntrant)})
	}
	for _, r := range st.rounds {
		var sr pairing.SwissRound
		for _, b := range r.Boards {
			add(b.Sente)
			add(b.Gote)
			if !b.Decided {
				if decidedOnly {
					continue
				}
				return req, invalid("round", "day.err.round_open", map[string]any{"N": r.Number})
			}
			var res pairing.GameResult
			switch b.InForce.Result {
			case office.ResultSenteWin:
				res = pairing.SenteWins
			case office.ResultGoteWin:
				res = pairing.GoteWins
			default:
				if decidedOnly {
					continue
				}
				return req, invalid("round", "day.err.no_winner", map[string]any{"N": r.Number, "Board": b.Board})
			}
			sr.Games = append(sr.Games, pairing.SwissGame{Board: st.relativeBoard(b.Board), Sente: pid(b.Sente), Gote: pid(b.Gote), Result: res})
		}
		for _, id := range r.Byes {
			add(id)
			sr.Bye = pid(id)
		}
		req.History = append(req.History, sr)
	}
	for _, e := range st.entrants {
		if drawable(e.DayEntrant) {
			add(e.PlayerID)
		}
	}
	return req, nil
}

func jsonInto(raw string, v any) error {
	if raw == "" {
		return nil
	}
	return json.Unmarshal([]byte(raw), v)
}
