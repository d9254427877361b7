package rating

import (
	"errors"
	"fmt"
	"slices"
)

// SkipReason says why a game is not rated.
type SkipReason string

const (
	SkipUnconfirmed SkipReason = "unconfirmed" // result not yet final
	SkipNoResult    SkipReason = "no_result"   // 千日手/持将棋/無勝負 with no redo recorded
	SkipRedone      SkipReason = "redone"      // replaced by a redo game (D-R3: counts once)
	SkipForfeit     SkipReason = "forfeit"     // 不戦勝/不戦敗: not played
	SkipHandicap    SkipReason = "handicap"    // 駒落ち, unless Settings.RateHandicap
)

// Skip is a game that is not rated and why.
type Skip struct {
	Game     string     `json:"game"`
	Reason   SkipReason `json:"reason"`
	RedoneBy string     `json:"redone_by,omitempty"`
}

// maxReported caps how many problems one error lists.
const maxReported = 50

// Eligible validates games against the roster and splits them into the
// games that are rated, in canonical order, and the ones that are not, with
// the reason. It is the filter Recompute and Apply use.
func Eligible(s Settings, players []string, games []Game) (rated []Game, skipped []Skip, err error) {
	st, err := NewState(s, players)
	if err != nil {
		return nil, nil, err
	}
	p, err := st.plan(games)
	if err != nil {
		return nil, nil, err
	}
	return p.counted, p.skips, nil
}

// batchPlan is what Apply will do with a batch, worked out before any state
// changes so that a rejected batch leaves the state as it was.
type batchPlan struct {
	games    []Game            // the batch in canonical order
	counted  []Game            // rated games, canonical order
	skips    []Skip            // skipped batch games, canonical order
	redone   map[string]string // new redo links: earlier game → redo game
	resolved []Skip            // earlier no-result games now redone
	// Glicko-2: games joining the open period, and new periods in order.
	merge      []Game
	mergeFirst orderKey
	periods    []periodPlan
}

type periodPlan struct {
	key   string
	index int
	first orderKey
	games []Game
}

// check validates a batch against the roster, the games already seen and
// itself. It reports every problem it finds (up to maxReported).
func (st *State) check(batch []Game) (map[string]Game, map[string]string, error) {
	var errs []error
	add := func(format string, a ...any) {
		if len(errs) < maxReported {
			errs = append(errs, fmt.Errorf(format+": %w", append(a, ErrInvalid)...))
		}
	}
	byID := make(map[string]Game, len(batch))
	for i, g := range batch {
		if g.ID != "" && !g.Date.IsZero() && g.Sente != "" && g.Gote != "" && g.Sente != g.Gote &&
			g.Outcome.valid() && (!g.Forfeit || g.Outcome.Decisive()) && st.knownPair(g) && st.periodNamed(g) {
			// The common case: a well-formed game, unless its ID repeats.
			if _, dup := byID[g.ID]; !dup {
				if _, old := st.seen[g.ID]; !old {
					byID[g.ID] = g
					continue
				}
			}
		}
		st.describe(g, i, byID, add)
	}
	lookup := func(id string) (Game, bool) {
		if g, ok := byID[id]; ok {
			return g, true
		}
		g, ok := st.seen[id]
		return g, ok
	}
	// 指し直し links (D-R1, D-R3): a game is replayed at most once, only
	// when it had no result, and by the same two players.
	redone := map[string]string{}
	checkPair := func(earlier, redo Game) {
		if earlier.Outcome.Decisive() {
			add("game %q: redo of game %q, which has a result (%s); only a game without a result is replayed", redo.ID, earlier.ID, earlier.Outcome)
		}
		if !samePair(earlier, redo) {
			add("game %q: redo of game %q between other players (%s–%s, not %s–%s)", redo.ID, earlier.ID, redo.Sente, redo.Gote, earlier.Sente, earlier.Gote)
		}
	}
	for _, g := range batch {
		if g.RedoOf == "" || g.ID == "" {
			continue
		}
		if g.RedoOf == g.ID {
			add("game %q: redo_of names the game itself", g.ID)
			continue
		}
		if other, ok := st.redoneBy[g.RedoOf]; ok {
			add("game %q: game %q is already replayed by game %q", g.ID, g.RedoOf, other)
			continue
		}
		if other, ok := redone[g.RedoOf]; ok {
			add("game %q: game %q is also replayed by game %q", g.ID, g.RedoOf, other)
			continue
		}
		redone[g.RedoOf] = g.ID
		if earlier, ok := lookup(g.RedoOf); ok {
			checkPair(earlier, g)
		}
	}
	// A redo seen earlier may name a game that only arrives now.
	for _, g := range batch {
		if redoID, ok := st.redoneBy[g.ID]; ok && g.ID != "" {
			checkPair(g, st.seen[redoID])
		}
	}
	// Cycles: each game names at most one earlier game, so walking the links
	// and marking finished paths finds every cycle in linear time.
	const onPath, finished = 1, 2
	mark := map[string]int8{}
	for _, g := range batch {
		if g.RedoOf == "" || g.ID == "" || g.RedoOf == g.ID {
			continue
		}
		var path []string
		for cur := g.ID; ; {
			if m := mark[cur]; m == finished {
				break
			} else if m == onPath {
				add("game %q: redo links form a cycle through game %q", g.ID, cur)
				break
			}
			mark[cur] = onPath
			path = append(path, cur)
			e, ok := lookup(cur)
			if !ok || e.RedoOf == "" || e.RedoOf == cur {
				break
			}
			cur = e.RedoOf
		}
		for _, id := range path {
			mark[id] = finished
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return byID, redone, nil
}

func (st *State) knownPair(g Game) bool {
	_, s := st.roster[g.Sente]
	_, o := st.roster[g.Gote]
	return s && o
}

func (st *State) periodNamed(g Game) bool {
	if st.settings.Model != ModelGlicko2 {
		return true
	}
	switch st.settings.Glicko2.Period {
	case PeriodEvent:
		return g.EventID != ""
	case PeriodExplicit:
		return g.Period != ""
	}
	return true
}

// describe reports each problem with one game; it runs only for games that
// failed the quick check, so building messages costs nothing normally.
func (st *State) describe(g Game, i int, byID map[string]Game, add func(string, ...any)) {
	name := fmt.Sprintf("game %q", g.ID)
	if g.ID == "" {
		name = fmt.Sprintf("game #%d", i+1)
		add("%s: id is empty", name)
	} else if _, dup := byID[g.ID]; dup {
		add("%s: id appears twice in the input", name)
	} else if _, old := st.seen[g.ID]; old {
		add("%s: already applied to this state; a corrected game needs a full recompute", name)
	} else {
		byID[g.ID] = g
	}
	if g.Date.IsZero() {
		add("%s: date is missing", name)
	}
	for _, side := range []struct{ field, id string }{{"sente", g.Sente}, {"gote", g.Gote}} {
		if side.id == "" {
			add("%s: %s is empty", name, side.field)
		} else if _, ok := st.roster[side.id]; !ok {
			add("%s: %s %q is not a known player", name, side.field, side.id)
		}
	}
	if g.Sente != "" && g.Sente == g.Gote {
		add("%s: %q cannot play themself", name, g.Sente)
	}
	if !g.Outcome.valid() {
		add("%s: outcome %q must be one of sente_win, gote_win, sennichite, jishogi, no_result", name, g.Outcome)
	}
	if g.Forfeit && !g.Outcome.Decisive() {
		add("%s: a forfeit needs a winner (sente_win or gote_win), got %q", name, g.Outcome)
	}
	if !st.periodNamed(g) {
		if st.settings.Glicko2.Period == PeriodEvent {
			add("%s: event_id is empty but rating periods are per event", name)
		} else {
			add("%s: period is empty but rating periods are set by the caller", name)
		}
	}
}

// reason classifies a game; ok means it is rated.
func (st *State) reason(g Game, redoneBy string) (Skip, bool) {
	s := Skip{Game: g.ID}
	switch {
	case !g.Confirmed:
		s.Reason = SkipUnconfirmed
	case !g.Outcome.Decisive() && redoneBy != "":
		s.Reason, s.RedoneBy = SkipRedone, redoneBy
	case !g.Outcome.Decisive():
		s.Reason = SkipNoResult
	case g.Forfeit:
		s.Reason = SkipForfeit
	case g.Handicap && !st.settings.RateHandicap:
		s.Reason = SkipHandicap
	default:
		return Skip{}, true
	}
	return s, false
}

// plan validates and classifies a batch and, for incremental use, checks it
// sorts after what the state has rated.
func (st *State) plan(batch []Game) (batchPlan, error) {
	_, redone, err := st.check(batch)
	if err != nil {
		return batchPlan{}, err
	}
	p := batchPlan{games: slices.Clone(batch), redone: redone}
	slices.SortFunc(p.games, CompareGames)
	redoneBy := func(id string) string {
		if r, ok := redone[id]; ok {
			return r
		}
		return st.redoneBy[id]
	}
	for _, g := range p.games {
		if s, ok := st.reason(g, redoneBy(g.ID)); ok {
			p.counted = append(p.counted, g)
		} else {
			p.skips = append(p.skips, s)
		}
	}
	for earlier, redo := range redone {
		if s, ok := st.skipped[earlier]; ok && s.Reason == SkipNoResult {
			p.resolved = append(p.resolved, Skip{Game: earlier, Reason: SkipRedone, RedoneBy: redo})
		}
	}
	if len(p.counted) == 0 {
		return p, nil
	}
	if st.settings.Model == ModelElo {
		if st.hasLast && keyOf(p.counted[0]).compare(st.last) < 0 {
			return batchPlan{}, fmt.Errorf("game %q (%s) sorts before game %q, already rated: %w",
				p.counted[0].ID, p.counted[0].Date.Format("2006-01-02"), st.last.id, ErrOutOfOrder)
		}
		return p, nil
	}
	return p, st.planPeriods(&p)
}

// planPeriods groups rated games into Glicko-2 periods. Periods are taken
// in the order of their first game; games may join the open (latest)
// period or start later ones, never reopen a closed one.
func (st *State) planPeriods(p *batchPlan) error {
	rule := st.settings.Glicko2.Period
	byKey := map[string]int{}
	var groups []periodPlan
	for _, g := range p.counted {
		k := PeriodKey(rule, g)
		if st.open != nil && k == st.open.key {
			if len(p.merge) == 0 {
				p.mergeFirst = keyOf(g)
			}
			p.merge = append(p.merge, g)
			continue
		}
		if _, closed := st.periodIndex[k]; closed {
			return fmt.Errorf("game %q belongs to rating period %q, which is already closed: %w", g.ID, k, ErrOutOfOrder)
		}
		i, ok := byKey[k]
		if !ok {
			i = len(groups)
			byKey[k] = i
			groups = append(groups, periodPlan{key: k, first: keyOf(g)})
		}
		groups[i].games = append(groups[i].games, g)
	}
	// counted is sorted, so groups are in order of their first game.
	var floor orderKey
	hasFloor := false
	if st.open != nil {
		floor, hasFloor = st.open.first, true
		if len(p.merge) > 0 && p.mergeFirst.compare(floor) < 0 {
			if st.hasPrev && p.mergeFirst.compare(st.prevFirst) < 0 {
				return fmt.Errorf("game %q would move rating period %q before the closed period that precedes it: %w",
					p.merge[0].ID, st.open.key, ErrOutOfOrder)
			}
			floor = p.mergeFirst
		}
	}
	next := 0
	if st.open != nil {
		next = st.open.index + 1
	}
	for i := range groups {
		gp := &groups[i]
		if hasFloor && gp.first.compare(floor) < 0 {
			return fmt.Errorf("game %q starts rating period %q before the open period %q: %w",
				gp.games[0].ID, gp.key, st.open.key, ErrOutOfOrder)
		}
		if rule == PeriodMonth {
			gp.index = monthIndex(gp.games[0].Date)
		} else {
			gp.index = next
			next++
		}
	}
	p.periods = groups
	return nil
}
