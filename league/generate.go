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
	RematchLowerBound int         `json:"rematch_lower_bound"`
	Restarts          int         `json:"restarts"`
	Violations        []Violation `json:"violations"`
}

// NoScheduleError says that valid input admits no schedule (or none was
// found), naming the rules and players in conflict.
type NoScheduleError struct {
	// Proven is true when the conflicts make every schedule impossible,
	// false when the search gave up (the conflicts are then what its
	// closest attempt still broke).
	Proven    bool
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
	orientTries     = 4
	stepsPerPlayer  = 200 // partial search steps per player and round
	roundRobinSteps = 20000
	orientSteps     = 20000
	seedStream      = 0x4b6973656e // "Kisen": the PCG stream; the seed is the witnesses' number
)

// Generate draws a schedule for d: rounds, rests, sente/gote and dates.
// The same draw and seed always give the same schedule. A *NoScheduleError
// means the input is valid but no schedule satisfies the hard rules;
// errors wrapping ErrInvalid name the bad field.
func Generate(d Draw) (Schedule, Report, error) {
	if err := d.validate(); err != nil {
		return Schedule{}, Report{}, err
	}
	p := compile(d)
	lb, conflicts := p.feasibility()
	if len(conflicts) > 0 {
		return Schedule{}, Report{}, &NoScheduleError{Proven: true, Reason: "the rules leave some players too few possible games", Conflicts: conflicts}
	}
	rng := rand.New(rand.NewPCG(d.Seed, seedStream))
	var last *plan
	for attempt := 0; attempt < restarts; attempt++ {
		rounds, pl := p.drawRounds(rng, attempt, lb)
		last = pl
		if rounds == nil {
			continue
		}
		pl.restore(rounds)
		for range orientTries {
			o := newOrienter(pl, d.Settings.SenteGote, rng)
			if o.solve(orientSteps) {
				s := p.assemble(pl, o)
				rep, err := Check(d, s)
				if err != nil {
					return Schedule{}, Report{}, err
				}
				rep.Restarts = attempt
				rep.RematchLowerBound = lb
				if len(rep.Violations) > 0 {
					// The generator and Check disagree: a bug, not a bad draw.
					return Schedule{}, rep, fmt.Errorf("league: generated schedule breaks %s: %s", rep.Violations[0].Rule, rep.Violations[0].Message)
				}
				return s, rep, nil
			}
		}
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
	return Schedule{}, Report{}, &NoScheduleError{Reason: fmt.Sprintf("none found in %d restarts; the closest attempt broke these rules", restarts), Conflicts: near}
}

// drawRounds runs one restart of the round search. For partial schedules
// under PreviousAvoid it first tries with last term's opponents forbidden
// (every other restart, while the lower bound allows zero).
func (p *problem) drawRounds(rng *rand.Rand, attempt, lb int) ([][]int, *plan) {
	if p.d.Settings.RoundRobin {
		s := newRoundRobinSearch(p, rng)
		return s.solve(roundRobinSteps), s.plan
	}
	iters := stepsPerPlayer * p.n * p.rounds / 10
	avoid := p.d.Settings.PreviousTerm == PreviousAvoid
	if avoid && lb == 0 && attempt%2 == 0 {
		s := newPartialSearch(p, rng, true)
		if m, _ := s.solve(iters, 0); m != nil {
			return m, s.plan
		}
	}
	s := newPartialSearch(p, rng, false)
	m, _ := s.solve(iters, lb)
	return m, s.plan
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
