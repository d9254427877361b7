package pairing

import (
	"fmt"
	"slices"
	"strings"
)

// N勝通過M敗失格: a preliminary (予選) in which a player leaves on reaching
// Wins wins (qualified, 通過) or Losses losses (out, 失格). Each round pairs
// the remaining players with equal records. See docs/pools.md.

const (
	// PoolBlocks is the classic 2勝通過2敗失格 by blocks of four (and three)
	// drawn by lot; each block yields exactly two qualifiers.
	PoolBlocks PoolMode = "blocks"
	// PoolRecords pairs the whole class by (wins, losses) each round, with
	// no blocks: any N勝通過M敗失格.
	PoolRecords PoolMode = "records"
)

const (
	PolicyNever  Policy = "never"  // never in the same block or game (hard)
	PolicyAvoid  Policy = "avoid"  // as few as the field allows; each one kept apart is reported
	PolicyIgnore Policy = "ignore" // not considered
)

// Relation kinds a class keeps apart.
const (
	RelationClub           = "club"            // same club / 支部 / school
	RelationMasterStudent  = "master_student"  // 師弟
	RelationFellowDisciple = "fellow_disciple" // 兄弟弟子: same master
	RelationFamily         = "family"          // 家族
)

// Limits of a pools preliminary.
const (
	MaxPoolPlayers = 1000
	MaxPoolWins    = 10
)

// Status of a player in the preliminary.
const (
	StatusPlaying   = "playing"
	StatusQualified = "qualified"
	StatusOut       = "out"
)

// pools is a validated request: players by index, relations resolved.
type pools struct {
	req   PoolsRequest
	index map[string]int
	rel   []map[int][]string // per player: related player → relation kinds (non-ignored)
	never map[uint64]bool
}

func (p RelationPolicy) of(kind string) Policy {
	var v Policy
	switch kind {
	case RelationClub:
		v = p.Club
	case RelationMasterStudent:
		v = p.MasterStudent
	case RelationFellowDisciple:
		v = p.FellowDisciple
	case RelationFamily:
		v = p.Family
	}
	if v == "" {
		return PolicyAvoid
	}
	return v
}

func newPools(req PoolsRequest) (*pools, error) {
	n := len(req.Players)
	switch {
	case n < 2:
		return nil, fieldErr("players", "need at least 2 checked-in players, got %d", n)
	case n > MaxPoolPlayers:
		return nil, fieldErr("players", "%d players is over the limit of %d per class", n, MaxPoolPlayers)
	}
	if req.Wins < 1 || req.Wins > MaxPoolWins {
		return nil, fieldErr("wins", "%d is out of range [1, %d]", req.Wins, MaxPoolWins)
	}
	if req.Losses < 1 || req.Losses > MaxPoolWins {
		return nil, fieldErr("losses", "%d is out of range [1, %d]", req.Losses, MaxPoolWins)
	}
	switch req.Mode {
	case PoolRecords:
	case PoolBlocks:
		if req.Wins != 2 || req.Losses != 2 {
			return nil, fieldErr("mode", "blocks are for 2勝通過2敗失格 only (wins 2, losses 2); use records for %d勝通過%d敗失格", req.Wins, req.Losses)
		}
	default:
		return nil, fieldErr("mode", "unknown mode %q (want blocks or records)", req.Mode)
	}
	if err := req.Relations.validate(); err != nil {
		return nil, err
	}
	p := &pools{req: req, index: make(map[string]int, n), rel: make([]map[int][]string, n), never: map[uint64]bool{}}
	for i, pl := range req.Players {
		at := fmt.Sprintf("players[%d]", i)
		if pl.ID == "" {
			return nil, fieldErr(at+".id", "missing id")
		}
		if j, dup := p.index[pl.ID]; dup {
			return nil, fieldErr(at+".id", "duplicate id %q (also players[%d])", pl.ID, j)
		}
		if pl.Master == pl.ID {
			return nil, fieldErr(at+".master", "%q is named as their own master", pl.ID)
		}
		p.index[pl.ID] = i
	}
	p.rel, p.never = relate(req.Players, p.index, req.Relations)
	return p, nil
}

// validate names the first relation field with an unknown policy.
func (p RelationPolicy) validate() error {
	for _, k := range []struct {
		field string
		v     Policy
	}{{"relations.club", p.Club}, {"relations.master_student", p.MasterStudent},
		{"relations.fellow_disciple", p.FellowDisciple}, {"relations.family", p.Family}} {
		switch k.v {
		case "", PolicyNever, PolicyAvoid, PolicyIgnore:
		default:
			return fieldErr(k.field, "unknown policy %q (want never, avoid or ignore)", k.v)
		}
	}
	return nil
}

// relate resolves the relations a class keeps apart (club, family, 兄弟弟子,
// 師弟) into, per player, the related players and the kinds that relate
// them (ignored kinds left out), and the pairs a "never" policy forbids.
// index maps each player's ID to its position. Shared by the preliminary
// (pools) and the final's placement.
func relate(players []PoolPlayer, index map[string]int, pol RelationPolicy) ([]map[int][]string, map[uint64]bool) {
	rel := make([]map[int][]string, len(players))
	never := map[uint64]bool{}
	add := func(a, b int, kind string) {
		v := pol.of(kind)
		if v == PolicyIgnore || a == b {
			return
		}
		if rel[a] == nil {
			rel[a] = map[int][]string{}
		}
		if rel[b] == nil {
			rel[b] = map[int][]string{}
		}
		if slices.Contains(rel[a][b], kind) {
			return
		}
		rel[a][b] = append(rel[a][b], kind)
		rel[b][a] = append(rel[b][a], kind)
		if v == PolicyNever {
			never[pairKey(a, b)] = true
		}
	}
	// Group players by shared keys; a big club makes many pairs, which is
	// what the relation means.
	groups := func(key func(PoolPlayer) string, kind string) {
		by := map[string][]int{}
		for i, pl := range players {
			if k := key(pl); k != "" {
				by[k] = append(by[k], i)
			}
		}
		for _, g := range by {
			for x := range g {
				for y := x + 1; y < len(g); y++ {
					add(g[x], g[y], kind)
				}
			}
		}
	}
	groups(func(pl PoolPlayer) string { return pl.Club }, RelationClub)
	groups(func(pl PoolPlayer) string { return pl.Family }, RelationFamily)
	groups(func(pl PoolPlayer) string { return pl.Master }, RelationFellowDisciple)
	for i, pl := range players {
		if m, ok := index[pl.Master]; ok && pl.Master != "" {
			add(m, i, RelationMasterStudent)
		}
	}
	return rel, never
}

// weight is the cost of putting a and b together: 1 per avoided relation,
// and whether a "never" relation forbids it.
func (p *pools) weight(a, b int) (avoid int, never bool) {
	kinds := p.rel[a][b]
	for _, k := range kinds {
		if p.req.Relations.of(k) == PolicyAvoid {
			avoid++
		}
	}
	return avoid, p.never[pairKey(a, b)]
}

// state is the preliminary replayed from its results.
type state struct {
	rec    []Record
	byes   []int
	status []string
	round  []int // round a player finished
	met    map[uint64]int
	played int // rounds played
}

func (p *pools) newState() *state {
	n := len(p.req.Players)
	s := &state{rec: make([]Record, n), byes: make([]int, n), status: make([]string, n), round: make([]int, n), met: map[uint64]int{}}
	for i := range s.status {
		s.status[i] = StatusPlaying
	}
	return s
}

func (s *state) finish(p *pools, i, r int) {
	switch {
	case s.rec[i].Wins >= p.req.Wins:
		s.status[i], s.round[i] = StatusQualified, r
	case s.rec[i].Losses >= p.req.Losses:
		s.status[i], s.round[i] = StatusOut, r
	}
}

func (s *state) active() []int {
	var out []int
	for i, st := range s.status {
		if st == StatusPlaying {
			out = append(out, i)
		}
	}
	return out
}

// roundEntry is one game or bye of the history, with where it came from.
type roundEntry struct {
	field   string
	players [2]int // [1] = -1 for a bye
	winner  int
}

// history groups the request's games and byes by round, checking what
// makes them unreadable (unknown players, missing winners, rounds).
func (p *pools) history() ([][]roundEntry, error) {
	maxRound := 0
	for i, g := range p.req.Games {
		if g.Round < 1 || g.Round > p.req.Wins+p.req.Losses-1 {
			return nil, fieldErr(fmt.Sprintf("games[%d].round", i), "round %d out of range [1, %d]", g.Round, p.req.Wins+p.req.Losses-1)
		}
		maxRound = max(maxRound, g.Round)
	}
	for i, b := range p.req.Byes {
		if b.Round < 1 || b.Round > p.req.Wins+p.req.Losses-1 {
			return nil, fieldErr(fmt.Sprintf("byes[%d].round", i), "round %d out of range [1, %d]", b.Round, p.req.Wins+p.req.Losses-1)
		}
		maxRound = max(maxRound, b.Round)
	}
	rounds := make([][]roundEntry, maxRound)
	for i, g := range p.req.Games {
		at := fmt.Sprintf("games[%d]", i)
		var e roundEntry
		e.field = at
		for k, id := range g.Players {
			j, ok := p.index[id]
			if !ok {
				return nil, fieldErr(fmt.Sprintf("%s.players[%d]", at, k), "unknown player %q", id)
			}
			e.players[k] = j
		}
		if e.players[0] == e.players[1] {
			return nil, fieldErr(at+".players", "%q plays themselves", g.Players[0])
		}
		switch g.Winner {
		case g.Players[0]:
			e.winner = e.players[0]
		case g.Players[1]:
			e.winner = e.players[1]
		case "":
			return nil, fieldErr(at+".winner", "missing; every game of rounds 1–%d needs its result before the next round is drawn", maxRound)
		default:
			return nil, fieldErr(at+".winner", "%q is not a player of this game", g.Winner)
		}
		rounds[g.Round-1] = append(rounds[g.Round-1], e)
	}
	for i, b := range p.req.Byes {
		at := fmt.Sprintf("byes[%d]", i)
		j, ok := p.index[b.Player]
		if !ok {
			return nil, fieldErr(at+".player", "unknown player %q", b.Player)
		}
		rounds[b.Round-1] = append(rounds[b.Round-1], roundEntry{field: at, players: [2]int{j, -1}, winner: j})
	}
	for r, es := range rounds {
		if len(es) == 0 {
			return nil, fieldErr("games", "round %d has no games or byes, but round %d has", r+1, maxRound)
		}
	}
	return rounds, nil
}

// Rules a pools round can break, as reported by CheckPools.
const (
	RulePoolTwice    = "pools-player-twice"   // a player in two games (or a game and a bye) of one round
	RulePoolMissing  = "pools-player-missing" // a playing player neither paired nor given a bye
	RulePoolFinished = "pools-player-finished"
	RulePoolRematch  = "pools-rematch"
	RulePoolNever    = "pools-relation-never"
	RulePoolSchedule = "pools-block-schedule" // a game or bye the block's schedule does not make
	RulePoolByeCount = "pools-bye"            // records mode: a bye when none was needed, or several
	RulePoolByeOrder = "pools-bye-order"      // records mode: the bye skips a player its order puts first
)

// replay applies rounds to a fresh state, reporting what breaks the rules
// (blocks mode: bl is the block of each player, or nil).
// A last round of unplayed games (winner -1) is judged but not applied.
func (p *pools) replay(rounds [][]roundEntry, bl *blocking) (*state, []Violation) {
	s := p.newState()
	var out []Violation
	name := func(i int) string { return p.req.Players[i].ID }
	for r0, es := range rounds {
		r := r0 + 1
		unplayed := len(es) > 0 && es[0].winner == -1
		seen := map[int]string{}
		byes := 0
		byeAt := -1 // the round's bye, if one
		var want map[[2]int]bool
		if bl != nil {
			want = bl.expected(s)
		}
		for _, e := range es {
			for _, i := range e.players {
				if i < 0 {
					continue
				}
				if f, dup := seen[i]; dup {
					out = append(out, Violation{Rule: RulePoolTwice, Players: []string{name(i)},
						Message: fmt.Sprintf("round %d: %s is in %s and %s", r, name(i), f, e.field)})
				}
				seen[i] = e.field
				if s.status[i] != StatusPlaying {
					out = append(out, Violation{Rule: RulePoolFinished, Players: []string{name(i)},
						Message: fmt.Sprintf("round %d: %s (%s) has already %s with %s", r, name(i), e.field, s.status[i], s.rec[i])})
				}
			}
			a, b := e.players[0], e.players[1]
			if b < 0 {
				byes++
				byeAt = a
				if want != nil && !want[[2]int{a, -1}] {
					out = append(out, Violation{Rule: RulePoolSchedule, Players: []string{name(a)},
						Message: fmt.Sprintf("round %d: %s gives %s a bye the block schedule does not", r, e.field, name(a))})
				}
				continue
			}
			if want != nil && !want[[2]int{min(a, b), max(a, b)}] {
				out = append(out, Violation{Rule: RulePoolSchedule, Players: []string{name(a), name(b)},
					Message: fmt.Sprintf("round %d: %s pairs %s and %s, which the block schedule does not (equal records in one block)", r, e.field, name(a), name(b))})
			}
			// A block's schedule may repeat a round-1 game in round 3; the
			// schedule check above judges blocks.
			if n := s.met[pairKey(a, b)]; n > 0 && bl == nil {
				out = append(out, Violation{Rule: RulePoolRematch, Players: []string{name(a), name(b)},
					Message: fmt.Sprintf("round %d: %s and %s met already in round %d (%s)", r, name(a), name(b), n, e.field)})
			}
			if _, never := p.weight(a, b); never && bl == nil {
				out = append(out, Violation{Rule: RulePoolNever, Players: []string{name(a), name(b)},
					Message: fmt.Sprintf("round %d: %s and %s are %s, a relation set to never (%s)", r, name(a), name(b), strings.Join(p.rel[a][b], ", "), e.field)})
			}
		}
		if bl == nil {
			act := len(s.active())
			if byes > act%2 {
				out = append(out, Violation{Rule: RulePoolByeCount,
					Message: fmt.Sprintf("round %d: %d byes for %d playing players; a round gives a bye only when the count is odd, to one player", r, byes, act)})
			}
			if byes == 1 && act%2 == 1 && s.status[byeAt] == StatusPlaying {
				if first := p.byeBefore(s, s.active(), byeAt); len(first) > 0 {
					x := first[0]
					out = append(out, Violation{Rule: RulePoolByeOrder, Players: []string{name(byeAt), name(x)},
						Message: fmt.Sprintf("round %d: the bye goes to %s (%d byes, %s) but %s (%d byes, %s) comes first (fewest byes, most losses, fewest wins) and the others can be paired without them",
							r, name(byeAt), s.byes[byeAt], s.rec[byeAt], name(x), s.byes[x], s.rec[x])})
				}
			}
		}
		for _, i := range s.active() {
			if _, ok := seen[i]; !ok {
				out = append(out, Violation{Rule: RulePoolMissing, Players: []string{name(i)},
					Message: fmt.Sprintf("round %d: %s (%s) is still playing but has no game and no bye", r, name(i), s.rec[i])})
			}
		}
		if unplayed {
			break
		}
		// Apply the round.
		for _, e := range es {
			a, b := e.players[0], e.players[1]
			if b < 0 {
				s.rec[a].Wins++
				s.byes[a]++
				continue
			}
			l := a
			if e.winner == a {
				l = b
			}
			s.rec[e.winner].Wins++
			s.rec[l].Losses++
			if s.met[pairKey(a, b)] == 0 {
				s.met[pairKey(a, b)] = r
			}
		}
		for _, e := range es {
			for _, i := range e.players {
				if i >= 0 && s.status[i] == StatusPlaying {
					s.finish(p, i, r)
				}
			}
		}
		s.played = r
	}
	return s, out
}

// prepare validates the request and replays it; the history must keep the
// rules (a draw cannot continue from a broken one: --check names it).
func preparePools(req PoolsRequest) (*pools, *blocking, [][]roundEntry, error) {
	p, err := newPools(req)
	if err != nil {
		return nil, nil, nil, err
	}
	rounds, err := p.history()
	if err != nil {
		return nil, nil, nil, err
	}
	var bl *blocking
	if req.Mode == PoolBlocks {
		if len(req.Blocks) > 0 {
			bl, err = p.givenBlocks(req.Blocks)
			if err != nil {
				return nil, nil, nil, err
			}
		} else {
			if len(rounds) > 0 {
				return nil, nil, nil, fieldErr("blocks", "missing; rounds after the first need the blocks of round 1 (copy them from its output)")
			}
			bl, err = p.drawBlocks(NewRand(req.Seed))
			if err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return p, bl, rounds, nil
}

// DrawPools draws the next round of a pools preliminary from its results so
// far. Same request, same round.
func DrawPools(req PoolsRequest) (PoolsRound, error) {
	p, bl, rounds, err := preparePools(req)
	if err != nil {
		return PoolsRound{}, err
	}
	s, bad := p.replay(rounds, bl)
	if bl != nil && len(req.Blocks) > 0 {
		if v := bl.violations(); len(v) > 0 {
			return PoolsRound{}, fieldErr("blocks", "%s; see kisen draw pools --check", v[0].Message)
		}
	}
	if len(bad) > 0 {
		return PoolsRound{}, fieldErr("games", "the results so far break a rule (%s: %s); see kisen draw pools --check", bad[0].Rule, bad[0].Message)
	}
	out := PoolsRound{Standings: p.standings(s, bl)}
	if bl != nil {
		out.Blocks = bl.blocks()
		out.NotKept = bl.notKept()
	}
	act := s.active()
	if len(act) == 0 {
		out.Finished = true
		return out, nil
	}
	out.Round = s.played + 1
	if bl != nil {
		out.Pairings, out.Byes = bl.round(s)
	} else {
		rng := NewRand(req.Seed ^ uint64(out.Round)*0x9e3779b97f4a7c15)
		pairs, bye, err := p.pairRecords(s, act, rng, out.Round)
		if err != nil {
			return PoolsRound{}, err
		}
		out.Pairings = pairs
		if bye >= 0 {
			out.Byes = []string{p.req.Players[bye].ID}
		}
		for _, g := range out.Pairings {
			a, b := p.index[g.Players[0]], p.index[g.Players[1]]
			out.NotKept = append(out.NotKept, p.notKept(a, b, "", g.Board)...)
		}
	}
	return out, nil
}

// notKept lists the avoided relations between a and b.
func (p *pools) notKept(a, b int, block string, board int) []NotKept {
	var out []NotKept
	if a > b {
		a, b = b, a
	}
	for _, k := range p.rel[a][b] {
		pa, pb := p.req.Players[a], p.req.Players[b]
		out = append(out, NotKept{Relation: k, Players: [2]string{pa.ID, pb.ID}, Names: [2]string{nameOr(pa), nameOr(pb)}, Block: block, Board: board})
	}
	return out
}

func nameOr(pl PoolPlayer) string {
	if pl.Name != "" {
		return pl.Name
	}
	return pl.ID
}

// CheckPools judges every round of the results given (and, in blocks mode,
// the blocks) and returns the standings they lead to.
func CheckPools(req PoolsRequest) ([]Violation, []PoolStanding, error) {
	p, err := newPools(req)
	if err != nil {
		return nil, nil, err
	}
	rounds, err := p.history()
	if err != nil {
		return nil, nil, err
	}
	var bl *blocking
	var out []Violation
	if req.Mode == PoolBlocks {
		if len(req.Blocks) == 0 {
			return nil, nil, fieldErr("blocks", "missing; --check of a blocks preliminary needs its blocks")
		}
		bl, err = p.givenBlocks(req.Blocks)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, bl.violations()...)
	}
	if pr := req.Proposed; pr != nil {
		var es []roundEntry
		for k, g := range pr.Games {
			e := roundEntry{field: fmt.Sprintf("pairings[%d]", k), winner: -1}
			for j, id := range g {
				i, ok := p.index[id]
				if !ok {
					return nil, nil, fieldErr(fmt.Sprintf("pairings[%d].players[%d]", k, j), "unknown player %q", id)
				}
				e.players[j] = i
			}
			if e.players[0] == e.players[1] {
				return nil, nil, fieldErr(fmt.Sprintf("pairings[%d].players", k), "%q plays themselves", g[0])
			}
			es = append(es, e)
		}
		for k, id := range pr.Byes {
			i, ok := p.index[id]
			if !ok {
				return nil, nil, fieldErr(fmt.Sprintf("round_byes[%d]", k), "unknown player %q", id)
			}
			es = append(es, roundEntry{field: fmt.Sprintf("round_byes[%d]", k), players: [2]int{i, -1}, winner: -1})
		}
		if len(es) > 0 {
			rounds = append(rounds, es)
		}
	}
	s, v := p.replay(rounds, bl)
	return append(out, v...), p.standings(s, bl), nil
}
