package league

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Violation is one broken rule: which rule, in which round (1-based, 0
// when no single round), and the players involved.
type Violation struct {
	Rule    string   `json:"rule"`
	Round   int      `json:"round,omitempty"`
	Players []string `json:"players"`
	Message string   `json:"message"`
}

// Report says what a schedule was checked against and how it fared.
type Report struct {
	RulesChecked []string `json:"rules_checked"`
	// PreviousTermRematches counts pairs that also met last term (D-C1).
	PreviousTermRematches int `json:"previous_term_rematches"`
	// RematchLowerBound is a floor no schedule can beat: players whose
	// other candidates are fewer than their games must meet someone again.
	RematchLowerBound int `json:"rematch_lower_bound"`
	// RematchMinimality is "proven" when PreviousTermRematches equals
	// RematchLowerBound (no schedule can have fewer), "best_found" when the
	// search stopped above it; empty when last term's opponents are not
	// avoided (D-C1 does not apply).
	RematchMinimality string      `json:"rematch_minimality,omitempty"`
	Restarts          int         `json:"restarts"`
	Violations        []Violation `json:"violations"`
}

// NoScheduleError says that valid input admits no schedule (or none was
// found), naming the rules and players in conflict.
type NoScheduleError struct {
	// Proven is true when the conflicts make every schedule impossible,
	// false when the search gave up (the conflicts are then what its
	// closest attempt still broke).
	Proven bool
	// Code says why in a word a caller translates (NoSchedule… codes);
	// Reason is the English sentence of the command line.
	Code      string
	Reason    string
	Conflicts []Violation
}

func (e *NoScheduleError) Error() string {
	var b strings.Builder
	b.WriteString("no schedule: ")
	b.WriteString(e.Reason)
	for i, c := range e.Conflicts {
		if i == 8 {
			fmt.Fprintf(&b, "; and %d more", len(e.Conflicts)-i)
			break
		}
		fmt.Fprintf(&b, "; %s: %s", c.Rule, c.Message)
	}
	return b.String()
}

// Search budget. Counted in steps, never in wall time, so a seed always
// gives the same schedule.
const (
	restarts        = 12
	orientTries     = 10
	stepsPerPlayer  = 200 // partial search steps per player and round
	roundRobinSteps = 20000
	orientSteps     = 3000
	exactAfter      = 2            // round robins go to the SAT model after this many restarts
	rematchRestarts = 60           // D-C1: restarts spent in all, at most, bringing rematches down to the bound
	seedStream      = 0x4b6973656e // "Kisen": the PCG stream; the seed is the witnesses' number
)

// Generate draws a schedule for d: rounds, rests, sente/gote and dates.
// The same draw and seed always give the same schedule. A *NoScheduleError
// means the input is valid but no schedule satisfies the hard rules;
// errors wrapping ErrInvalid name the bad field.
func Generate(d Draw) (Schedule, Report, error) {
	return GenerateWithOptions(d, Options{})
}

// GenerateWithOptions is Generate with a caller's stop callback (a time
// budget kept by the caller). When Stop ends the search before any
// schedule is found the error is a *BudgetError (errors.Is ErrBudget).
func GenerateWithOptions(d Draw, opt Options) (Schedule, Report, error) {
	if err := d.validate(); err != nil {
		return Schedule{}, Report{}, err
	}
	p := compile(d)
	p.stop = opt.Stop
	lb, conflicts := p.feasibility()
	if len(conflicts) > 0 {
		return Schedule{}, Report{}, &NoScheduleError{Proven: true, Code: NoScheduleTooFewGames, Reason: "the rules leave some players too few possible games", Conflicts: conflicts}
	}
	rng := rand.New(rand.NewPCG(d.Seed, seedStream))
	// D-C1 (001 第8条C1): last term's opponents only when no schedule
	// exists without them, and then as few as possible. Search with them
	// forbidden first; if half the restarts find nothing, allow them at a
	// small cost and restart until a schedule meets the lower bound lb
	// (then the count is proven minimal) or rematchRestarts are spent.
	// Stopping only at the bound makes the count independent of the seed
	// whenever the bound is reached.
	avoid := !d.Settings.RoundRobin && d.Settings.PreviousTerm == PreviousAvoid
	strict := avoid && lb == 0
	var best *Schedule
	var last *plan
	bestSoft, bestAttempt, attempt := 0, 0, 0
	limit := restarts
	if avoid {
		limit = max(restarts, rematchRestarts)
	}
	for ; attempt < limit && !p.stopped(); attempt++ {
		if attempt >= restarts && best == nil {
			break // the extra restarts only lower rematches
		}
		if strict && attempt == restarts/2 {
			strict = false
		}
		rounds, pl, soft, impossible := p.roundsFor(attempt, rng, strict, lb)
		if impossible {
			return Schedule{}, Report{}, &NoScheduleError{Proven: true, Code: NoScheduleRelatedPairs,
				Reason:    "an exhaustive search finds no round robin that places these related pairs as the rules require",
				Conflicts: p.restrictedPairs()}
		}
		if pl != nil {
			last = pl
		}
		if rounds == nil {
			continue
		}
		s, ok := p.orient(pl, rounds, rng)
		if !ok {
			continue
		}
		if best == nil || soft < bestSoft {
			best, bestSoft, bestAttempt = &s, soft, attempt
		}
		if !avoid || soft <= lb {
			break
		}
	}
	if best != nil {
		rep, err := Check(d, *best)
		if err != nil {
			return Schedule{}, Report{}, err
		}
		rep.Restarts = bestAttempt
		rep.RematchLowerBound = lb
		if avoid {
			rep.RematchMinimality = MinimalityBestFound
			if rep.PreviousTermRematches > lb {
				// Above the counting bound: look for a game graph with
				// fewer, and prove there is none (rematch.go).
				floor, done, allow := p.exactRematchFloor(rep.PreviousTermRematches)
				if allow != nil {
					if s, ok := p.guided(allow, floor, rng); ok {
						if r2, err := Check(d, s); err == nil && len(r2.Violations) == 0 && r2.PreviousTermRematches < rep.PreviousTermRematches {
							best, r2.Restarts = &s, rep.Restarts
							rep = r2
						}
					}
				}
				if done {
					rep.RematchLowerBound = floor
				}
			}
			if rep.PreviousTermRematches <= rep.RematchLowerBound {
				rep.RematchMinimality = MinimalityProven
			}
		}
		if len(rep.Violations) > 0 {
			// The generator and Check disagree: a bug, not a bad draw.
			return Schedule{}, rep, fmt.Errorf("league: generated schedule breaks %s: %s", rep.Violations[0].Rule, rep.Violations[0].Message)
		}
		return *best, rep, nil
	}
	if p.halted {
		return Schedule{}, Report{}, &BudgetError{Players: p.n, Restarts: attempt}
	}
	// Report what the last attempt still broke, so the scheduler can see
	// which rules and players are in the way.
	var near []Violation
	if last != nil {
		o := newOrienter(last, d.Settings.SenteGote, rng)
		o.solve(orientSteps)
		rep, _ := Check(d, p.assemble(last, o))
		near = rep.Violations
	}
	return Schedule{}, Report{}, &NoScheduleError{Code: NoScheduleNotFound, Reason: fmt.Sprintf("none found in %d restarts; the closest attempt broke these rules", restarts), Conflicts: near}
}

// orient fixes sides for the rounds found, trying fresh starts.
func (p *problem) orient(pl *plan, rounds [][]int, rng *rand.Rand) (Schedule, bool) {
	pl.restore(rounds)
	for range orientTries {
		o := newOrienter(pl, p.d.Settings.SenteGote, rng)
		if o.solve(orientSteps) {
			return p.assemble(pl, o), true
		}
	}
	return Schedule{}, false
}

// roundsFor runs one restart of the round search and returns the rounds
// (nil if none found), the plan they live in, and their number of
// last-term rematches. strict forbids last term's opponents outright.
// Small round robins go to the exact model after exactAfter restarts,
// which may prove that no schedule exists.
func (p *problem) roundsFor(attempt int, rng *rand.Rand, strict bool, lb int) (rounds [][]int, pl *plan, soft int, impossible bool) {
	switch {
	case p.d.Settings.RoundRobin && attempt >= exactAfter && p.n <= exactMaxPlayers:
		rounds, impossible = p.exactRoundRobin(rng)
		if rounds != nil {
			pl = newPlan(p)
		}
		return rounds, pl, 0, impossible
	case p.d.Settings.RoundRobin:
		s := newRoundRobinSearch(p, rng)
		return s.solve(roundRobinSteps), s.plan, 0, false
	}
	s := newPartialSearch(p, rng, strict)
	rounds, soft = s.solve(stepsPerPlayer*p.n*p.rounds/10, lb)
	return rounds, s.plan, soft, false
}

// assemble turns the plan and its orientation into a Schedule with dates.
func (p *problem) assemble(pl *plan, o *orienter) Schedule {
	ids := make([]string, p.n)
	for i, pp := range p.d.Players {
		ids[i] = pp.ID
	}
	s := Schedule{Rounds: make([]Round, p.rounds)}
	for r := range s.Rounds {
		s.Rounds[r] = Round{Number: r + 1, Games: []Game{}, Rests: []string{}}
	}
	type ordered struct {
		key int
		g   Game
	}
	per := make([][]ordered, p.rounds)
	for e := range o.eu {
		u, v := o.eu[e], o.ev[e]
		g := Game{Sente: ids[u], Gote: ids[v]}
		if !o.uWins[e] {
			g.Sente, g.Gote = g.Gote, g.Sente
		}
		per[o.round[e]] = append(per[o.round[e]], ordered{key: min(u, v), g: g})
	}
	for r := range s.Rounds {
		slices.SortFunc(per[r], func(a, b ordered) int { return a.key - b.key })
		for k, x := range per[r] {
			if len(p.d.Dates) > 0 {
				ds := p.d.Dates[r]
				x.g.Date = ds[k%len(ds)]
			}
			s.Rounds[r].Games = append(s.Rounds[r].Games, x.g)
		}
		for u := 0; u < p.n; u++ {
			if pl.mate[r][u] < 0 {
				s.Rounds[r].Rests = append(s.Rounds[r].Rests, ids[u])
			}
		}
		if len(p.d.Dates) > 0 {
			s.Rounds[r].Date = p.d.Dates[r][0]
		}
	}
	return s
}

// guidedRestarts bounds the round search over one chosen game graph.
const guidedRestarts = 8

// guided searches for rounds that use only the last-term pairs in allow
// (those of a game graph with floor of them), so that a schedule found has
// floor rematches at most.
func (p *problem) guided(allow []bool, floor int, rng *rand.Rand) (Schedule, bool) {
	for range guidedRestarts {
		if p.stopped() {
			break
		}
		s := newPartialSearch(p, rng, false)
		s.allow = allow
		rounds, soft := s.solve(stepsPerPlayer*p.n*p.rounds/10, floor)
		if rounds == nil || soft > floor {
			continue
		}
		if sched, ok := p.orient(s.plan, rounds, rng); ok {
			return sched, true
		}
	}
	return Schedule{}, false
}
