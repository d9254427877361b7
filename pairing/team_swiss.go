package pairing

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// Team スイス式 (issue 25 item 4): teams paired by match points, never a
// rematch, teams of one affiliation (school, club, 支部, company) kept
// apart, one bye per team at most. See docs/team-events.md.

// TeamSwissSettings are a team Swiss event's settings.
type TeamSwissSettings struct {
	TeamSettings
	Rounds int `json:"rounds"`
	// Affiliation: never (hard: no round pairs two teams of one
	// affiliation), avoid (the default: hard while a round keeps it, then
	// relaxed, see DrawTeamSwiss) or ignore.
	Affiliation Relation `json:"affiliation,omitempty"`
}

// TeamSwissRequest asks for round Round (0 means len(Rounds)+1) after the
// rounds played, every match of which is final.
type TeamSwissRequest struct {
	Teams    []Team            `json:"teams"`
	Settings TeamSwissSettings `json:"settings"`
	Rounds   []TeamRound       `json:"rounds"`
	Round    int               `json:"round,omitempty"`
	Seed     uint64            `json:"seed"`
}

// TeamAffiliationMeet is a match between two teams of one affiliation.
type TeamAffiliationMeet struct {
	Table       int    `json:"table"`
	A           string `json:"a"`
	B           string `json:"b"`
	Affiliation string `json:"affiliation"`
}

// TeamSwissReport measures a round from its matches alone.
type TeamSwissReport struct {
	ScoreDiffSum     int                   `json:"score_difference_sum"` // in match points
	ScoreDiffMax     int                   `json:"score_difference_max"`
	ScoreDiffSquares int                   `json:"score_difference_squares"`
	SameAffiliation  []TeamAffiliationMeet `json:"same_affiliation"`
	ByePoints        *int                  `json:"bye_match_points,omitempty"` // the bye team's match points before the round
}

// TeamSwissPairing is a drawn round: matches by table, team A the upper
// team (more match points, then the initial order).
type TeamSwissPairing struct {
	Round   int             `json:"round"`
	Matches []TeamMatch     `json:"matches"`
	Bye     string          `json:"bye,omitempty"`
	Report  TeamSwissReport `json:"report"`
}

type teamSwiss struct {
	*teamState
	req   TeamSwissRequest
	round int
}

func newTeamSwiss(req TeamSwissRequest) (*teamSwiss, error) {
	st := req.Settings
	if st.Rounds < 1 || st.Rounds > MaxTeamRounds {
		return nil, codedErr(FieldTeamRounds, map[string]any{"Round": st.Rounds, "Want": MaxTeamRounds},
			"settings.rounds", "%d rounds out of range [1, %d]", st.Rounds, MaxTeamRounds)
	}
	if validRelation("settings.affiliation", st.Affiliation) != nil {
		return nil, codedErr(FieldTeamRule, map[string]any{"Setting": "affiliation", "Value": string(st.Affiliation)},
			"settings.affiliation", "unknown setting %q (want never, avoid or ignore)", string(st.Affiliation))
	}
	if len(req.Rounds) >= st.Rounds {
		return nil, codedErr(FieldTeamRounds, map[string]any{"Round": len(req.Rounds) + 1, "Want": st.Rounds},
			"rounds", "%d rounds played; the event plays %d, none left to draw", len(req.Rounds), st.Rounds)
	}
	round := req.Round
	if round == 0 {
		round = len(req.Rounds) + 1
	}
	if round != len(req.Rounds)+1 {
		return nil, codedErr(FieldTeamRounds, map[string]any{"Round": round, "Want": len(req.Rounds) + 1},
			"round", "round %d follows %d played rounds; want %d", round, len(req.Rounds), len(req.Rounds)+1)
	}
	s, err := newTeamState(req.Teams, st.TeamSettings, req.Rounds, true)
	if err != nil {
		return nil, err
	}
	return &teamSwiss{teamState: s, req: req, round: round}, nil
}

// sameAffiliation: never, avoid (the pair costs) or neither.
func (t *teamSwiss) sameAffiliation(a, b int) (never, avoid bool) {
	x, y := t.teams[a].Affiliation, t.teams[b].Affiliation
	if x == "" || x != y {
		return false, false
	}
	switch relationOr(t.req.Settings.Affiliation) {
	case RelationNever:
		return true, false
	case RelationAvoid:
		return false, true
	}
	return false, false
}

func (t *teamSwiss) active() []int {
	var out []int
	for i, tm := range t.teams {
		if !tm.Withdrawn {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return cmp.Compare(t.order[a], t.order[b]) })
	return out
}

// teamSolution is a round as team indices; bye −1 for none.
type teamSolution struct {
	pairs [][2]int
	bye   int
}

// teamCosts are the lexicographic weights: one more same-affiliation
// match outweighs any bye and score differences; a bye one match point
// higher outweighs any score differences.
type teamCosts struct{ aff, bye int64 }

// teamScratch keeps a draw's weight matrix and matcher between draws (a
// 200-team round needs about 1 MB of them), as the individual Swiss does;
// every buffer is rewritten before it is read.
type teamScratch struct {
	w []int64
	m weightedMatcher
}

var teamScratchPool = sync.Pool{New: func() any { return new(teamScratch) }}

// solve finds the round of least cost (DrawTeamSwiss) over the teams in
// lot order, or explains why none exists.
func (t *teamSwiss) solve(lot []int) (teamSolution, error) {
	n := len(lot)
	v := n
	byeV := 0
	if n%2 == 1 {
		v++
		byeV = v
	}
	lo, hi := t.mp[lot[0]], t.mp[lot[0]]
	for _, p := range lot {
		lo, hi = min(lo, t.mp[p]), max(hi, t.mp[p])
	}
	d := int64(hi - lo)
	sumDiff := int64(n/2+1) * d * d
	c := teamCosts{bye: sumDiff + 1}
	c.aff = d*c.bye + sumDiff + 1
	maxEdge := c.aff + d*d + d*c.bye
	top := maxEdge*int64(v+2) + 1
	sc := teamScratchPool.Get().(*teamScratch)
	defer teamScratchPool.Put(sc)
	sc.w = zeroed(sc.w, (v+1)*(v+1))
	w := sc.w
	for x := 1; x <= n; x++ {
		a := lot[x-1]
		for y := x + 1; y <= n; y++ {
			b := lot[y-1]
			if t.met[pairKey(a, b)] > 0 {
				continue
			}
			never, avoid := t.sameAffiliation(a, b)
			if never {
				continue
			}
			diff := int64(t.mp[a] - t.mp[b])
			cost := diff * diff
			if avoid {
				cost += c.aff
			}
			w[x*(v+1)+y], w[y*(v+1)+x] = top-cost, top-cost
		}
		if byeV != 0 && len(t.byes[a]) == 0 {
			cost := int64(t.mp[a]-lo) * c.bye
			w[x*(v+1)+byeV], w[byeV*(v+1)+x] = top-cost, top-cost
		}
	}
	m := &sc.m
	m.reset(v, w)
	mate := m.solve(top)
	sol := teamSolution{bye: -1}
	for x := 1; x <= v; x++ {
		y := mate[x]
		if y == 0 {
			return teamSolution{}, t.noPairing(lot, w, v, byeV)
		}
		if x == byeV || y < x {
			continue
		}
		if y == byeV {
			sol.bye = lot[x-1]
			continue
		}
		sol.pairs = append(sol.pairs, [2]int{lot[x-1], lot[y-1]})
	}
	return sol, nil
}

// noPairing explains an impossible round by the Gallai–Edmonds
// decomposition of a maximum matching of the hard-rule graph.
func (t *teamSwiss) noPairing(lot []int, w []int64, v, byeV int) error {
	g := newGraph(v)
	for x := 1; x <= v; x++ {
		for y := x + 1; y <= v; y++ {
			if w[x*(v+1)+y] != 0 {
				g.link(x-1, y-1)
			}
		}
	}
	order := make([]int, v)
	for i := range order {
		order[i] = i
	}
	m := newMatcher(g)
	m.greedy(order)
	m.maximize(order)
	name := func(x int) string {
		if x+1 == byeV {
			return "(bye)"
		}
		return t.teams[lot[x]].ID
	}
	groups, barrier := [][]string{}, []string{}
	if dec, ok := m.decompose(); ok {
		for _, grp := range dec.odd {
			var names []string
			for _, x := range grp {
				names = append(names, name(x))
			}
			groups = append(groups, names)
		}
		for _, x := range dec.barrier {
			barrier = append(barrier, name(x))
		}
	}
	return teamNoRound(t.round, groups, barrier)
}

// upper reports whether team a sits above team b: more match points, then
// the initial order.
func (t *teamSwiss) upper(a, b int) bool {
	if t.mp[a] != t.mp[b] {
		return t.mp[a] > t.mp[b]
	}
	return t.order[a] < t.order[b]
}

// DrawTeamSwiss pairs the next round. Hard rules, never relaxed: every
// active team in one match or the bye; no rematch; no two teams of one
// affiliation when the event says never; at most one bye per team. Among
// the rounds keeping them, it takes one that minimises, in this order:
//
//  1. the matches between teams of one affiliation (avoid): none whenever
//     any valid round has none, so the rule is hard where it can be, and
//     otherwise as few as the field allows;
//  2. the match points of the bye team (the lowest score group that
//     leaves a round without more same-affiliation matches);
//  3. the sum of the squared differences of match points of the paired
//     teams (score groups first; a floater goes to the nearest group).
//
// So the rules are relaxed in this order when a round cannot keep all:
// the score groups first (teams float further), then the bye (to a higher
// score group), then the affiliation (the fewest matches). Ties are broken
// by the seeded lot.
func DrawTeamSwiss(req TeamSwissRequest) (TeamSwissPairing, error) {
	t, err := newTeamSwiss(req)
	if err != nil {
		return TeamSwissPairing{}, err
	}
	act := t.active()
	if len(act) < 2 {
		return TeamSwissPairing{}, codedErr(FieldTeamTooFew, map[string]any{"Count": len(act)}, "teams",
			"%d teams to draw (not withdrawn); need at least 2", len(act))
	}
	lot := slices.Clone(act)
	rng := rand.New(rand.NewPCG(req.Seed, 0x7465616d7377))
	rng.Shuffle(len(lot), func(i, j int) { lot[i], lot[j] = lot[j], lot[i] })
	sol, err := t.solve(lot)
	if err != nil {
		return TeamSwissPairing{}, err
	}
	pairs := sol.pairs
	for k, p := range pairs {
		if !t.upper(p[0], p[1]) {
			pairs[k] = [2]int{p[1], p[0]}
		}
	}
	// Table 1 is the top match: the higher score, then the lower score of
	// the pair, then the better initial order.
	slices.SortFunc(pairs, func(x, y [2]int) int {
		if c := cmp.Compare(t.mp[y[0]], t.mp[x[0]]); c != 0 {
			return c
		}
		if c := cmp.Compare(t.mp[y[1]], t.mp[x[1]]); c != 0 {
			return c
		}
		return cmp.Compare(t.order[x[0]], t.order[y[0]])
	})
	out := TeamSwissPairing{Round: t.round, Matches: []TeamMatch{}}
	for k, p := range pairs {
		out.Matches = append(out.Matches, TeamMatch{Table: k + 1, A: t.teams[p[0]].ID, B: t.teams[p[1]].ID})
	}
	if sol.bye >= 0 {
		out.Bye = t.teams[sol.bye].ID
	}
	out.Report = t.report(out)
	return out, nil
}

// report measures a round from its matches (teams assumed known).
func (t *teamSwiss) report(p TeamSwissPairing) TeamSwissReport {
	r := TeamSwissReport{SameAffiliation: []TeamAffiliationMeet{}}
	for _, m := range p.Matches {
		a, okA := t.index[m.A]
		b, okB := t.index[m.B]
		if !okA || !okB || a == b {
			continue
		}
		d := t.mp[a] - t.mp[b]
		d = max(d, -d)
		r.ScoreDiffSum += d
		r.ScoreDiffMax = max(r.ScoreDiffMax, d)
		r.ScoreDiffSquares += d * d
		if _, avoid := t.sameAffiliation(a, b); avoid {
			r.SameAffiliation = append(r.SameAffiliation, TeamAffiliationMeet{Table: m.Table, A: m.A, B: m.B,
				Affiliation: t.teams[a].Affiliation})
		}
	}
	if i, ok := t.index[p.Bye]; ok {
		v := t.mp[i]
		r.ByePoints = &v
	}
	return r
}

// Rules a team Swiss round can break (CheckTeamSwiss). Hard ones are
// violations; the affiliation, the bye's score group and the score
// differences are judged against the draw's optimum on the same field.
const (
	RuleTeamMissing     = "team-swiss-missing"     // an active team neither plays nor has the bye
	RuleTeamTwice       = "team-swiss-twice"       // a team in two places
	RuleTeamWithdrawn   = "team-swiss-withdrawn"   // a withdrawn team drawn
	RuleTeamSelf        = "team-swiss-self"        // a team against itself
	RuleTeamRematch     = "team-swiss-rematch"     // the two teams have met before
	RuleTeamNever       = "team-swiss-never"       // one affiliation, and the event says never
	RuleTeamByeTwice    = "team-swiss-bye-twice"   // a second bye
	RuleTeamByeCount    = "team-swiss-bye-count"   // a bye in an even field, or none in an odd one
	RuleTeamAffiliation = "team-swiss-affiliation" // more same-affiliation matches than a valid round needs
	RuleTeamByeHigh     = "team-swiss-bye-not-lowest"
	RuleTeamScoreDiffs  = "team-swiss-score-difference" // soft: larger score differences than the draw's
	RuleTeamUpper       = "team-swiss-upper"            // soft: team A is not the upper team
)

// CheckTeamSwiss judges round p against the event's history, as
// independently of the draw as it can: the hard rules from the input, and
// the ordered objectives against the draw's own optimum (the affiliation
// count and the bye's score group are violations when worse; the score
// differences are a note).
func CheckTeamSwiss(req TeamSwissRequest, p TeamSwissPairing) (violations, notes []Violation, err error) {
	t, err := newTeamSwiss(req)
	if err != nil {
		return nil, nil, err
	}
	seen := map[int]string{}
	place := func(field, id string) (int, bool, error) {
		i, ok := t.index[id]
		if !ok {
			return 0, false, codedErr(FieldTeamUnknown, map[string]any{"Team": id}, field, "unknown team %q", id)
		}
		if prev, dup := seen[i]; dup {
			violations = append(violations, Violation{Rule: RuleTeamTwice, Players: []string{id},
				Message: fmt.Sprintf("%s is in %s and %s", id, prev, field)})
			return i, false, nil
		}
		seen[i] = field
		if t.teams[i].Withdrawn {
			violations = append(violations, Violation{Rule: RuleTeamWithdrawn, Players: []string{id},
				Message: fmt.Sprintf("%s has withdrawn but is drawn in %s", id, field)})
		}
		return i, true, nil
	}
	for k, m := range p.Matches {
		at := fmt.Sprintf("matches[%d]", k)
		a, _, err := place(at+".a", m.A)
		if err != nil {
			return nil, nil, err
		}
		b, _, err := place(at+".b", m.B)
		if err != nil {
			return nil, nil, err
		}
		if a == b {
			violations = append(violations, Violation{Rule: RuleTeamSelf, Players: []string{m.A},
				Message: fmt.Sprintf("table %d: %s against itself", m.Table, m.A)})
			continue
		}
		if t.met[pairKey(a, b)] > 0 {
			violations = append(violations, Violation{Rule: RuleTeamRematch, Players: []string{m.A, m.B},
				Message: fmt.Sprintf("table %d: %s and %s have met before", m.Table, m.A, m.B)})
		}
		if never, _ := t.sameAffiliation(a, b); never {
			violations = append(violations, Violation{Rule: RuleTeamNever, Players: []string{m.A, m.B},
				Message: fmt.Sprintf("table %d: %s and %s are both %s, and the event says never", m.Table, m.A, m.B, t.teams[a].Affiliation)})
		}
		if !t.upper(a, b) {
			notes = append(notes, Violation{Rule: RuleTeamUpper, Players: []string{m.A, m.B},
				Message: fmt.Sprintf("table %d: %s is the upper team (match points, then the initial order) but is B", m.Table, m.B)})
		}
	}
	act := t.active()
	if p.Bye != "" {
		i, ok, err := place("bye", p.Bye)
		if err != nil {
			return nil, nil, err
		}
		if ok && len(t.byes[i]) > 0 {
			violations = append(violations, Violation{Rule: RuleTeamByeTwice, Players: []string{p.Bye},
				Message: fmt.Sprintf("%s already had a bye (round %d)", p.Bye, t.byes[i][0])})
		}
	}
	if (len(act)%2 == 1) != (p.Bye != "") {
		violations = append(violations, Violation{Rule: RuleTeamByeCount,
			Message: fmt.Sprintf("%d teams to draw: a bye is needed exactly when the count is odd", len(act))})
	}
	for _, i := range act {
		if _, ok := seen[i]; !ok {
			violations = append(violations, Violation{Rule: RuleTeamMissing, Players: []string{t.teams[i].ID},
				Message: fmt.Sprintf("%s neither plays nor has the bye", t.teams[i].ID)})
		}
	}
	if len(act) < 2 {
		return violations, notes, nil
	}
	best, drawErr := t.solve(act)
	if drawErr != nil {
		return violations, notes, nil
	}
	rep := t.report(p)
	bestP := TeamSwissPairing{}
	for _, pr := range best.pairs {
		bestP.Matches = append(bestP.Matches, TeamMatch{A: t.teams[pr[0]].ID, B: t.teams[pr[1]].ID})
	}
	if best.bye >= 0 {
		bestP.Bye = t.teams[best.bye].ID
	}
	opt := t.report(bestP)
	switch {
	case len(rep.SameAffiliation) > len(opt.SameAffiliation):
		for _, m := range rep.SameAffiliation {
			violations = append(violations, Violation{Rule: RuleTeamAffiliation, Players: []string{m.A, m.B},
				Message: fmt.Sprintf("table %d: %s and %s are both %s; a valid round has %d such matches, this one %d",
					m.Table, m.A, m.B, m.Affiliation, len(opt.SameAffiliation), len(rep.SameAffiliation))})
		}
	case len(rep.SameAffiliation) == len(opt.SameAffiliation) && rep.ByePoints != nil && opt.ByePoints != nil && *rep.ByePoints > *opt.ByePoints:
		violations = append(violations, Violation{Rule: RuleTeamByeHigh, Players: []string{p.Bye},
			Message: fmt.Sprintf("%s has %d match points; a round exists with the bye at %d", p.Bye, *rep.ByePoints, *opt.ByePoints)})
	case len(rep.SameAffiliation) == len(opt.SameAffiliation) && (rep.ByePoints == nil || opt.ByePoints == nil || *rep.ByePoints == *opt.ByePoints) &&
		rep.ScoreDiffSquares > opt.ScoreDiffSquares:
		notes = append(notes, Violation{Rule: RuleTeamScoreDiffs,
			Message: fmt.Sprintf("squared score differences sum %d (sum %d, max %d); the draw achieves %d (sum %d, max %d)",
				rep.ScoreDiffSquares, rep.ScoreDiffSum, rep.ScoreDiffMax, opt.ScoreDiffSquares, opt.ScoreDiffSum, opt.ScoreDiffMax)})
	}
	for _, m := range rep.SameAffiliation {
		if len(rep.SameAffiliation) <= len(opt.SameAffiliation) {
			notes = append(notes, Violation{Rule: RuleTeamAffiliation, Players: []string{m.A, m.B},
				Message: fmt.Sprintf("table %d: %s and %s are both %s (no valid round keeps every affiliation apart)", m.Table, m.A, m.B, m.Affiliation)})
		}
	}
	return violations, notes, nil
}
