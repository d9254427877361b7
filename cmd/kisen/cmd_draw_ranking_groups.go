package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"

	"kisen/pairing"
)

// rankingGroupIn is one group in the JSON of `kisen draw ranking-groups`
// (docs/ranking-groups.md): the organiser's line of the table, the drawn
// bracket (null for a bye) and the results so far.
type rankingGroupIn struct {
	pairing.GroupRule
	Slots   []*string       `json:"slots"`
	Results []rankingResult `json:"results"`
	// Withdrawn players (棄権) lose every game they have not played.
	Withdrawn []string `json:"withdrawn,omitempty"`
}

type rankingResult struct {
	Game   string `json:"game"`
	Winner string `json:"winner"`
	Kind   string `json:"kind,omitempty"`
}

type rankingInput struct {
	Groups      []rankingGroupIn `json:"groups"`
	NewEntrants []string         `json:"new_entrants"`
	// MainEvent is the 本戦 table: the seed and entry round of each slot
	// the groups fill (optional).
	MainEvent []pairing.MainSeat `json:"main_event,omitempty"`
}

// rankingGame is one game of a group: bracket "main" (ランキング戦),
// "playoff" (昇級者決定戦 / 出場者決定戦) or "survival" (残留決定戦).
type rankingGame struct {
	Game    string         `json:"game"`
	Bracket string         `json:"bracket"`
	Round   int            `json:"round"`
	Players [2]string      `json:"players"`
	From    []pairing.Feed `json:"from,omitempty"`
	Status  string         `json:"status"`
	Winner  string         `json:"winner,omitempty"`
}

type rankingGroupOut struct {
	rankingGroupIn
	Games   []rankingGame        `json:"games"`
	Next    []string             `json:"next"`
	Outcome pairing.GroupOutcome `json:"outcome"`
}

type rankingNextTerm struct {
	Groups [][]string         `json:"groups"`
	Moves  []pairing.TermMove `json:"moves"`
}

type rankingOutput struct {
	Groups      []rankingGroupOut  `json:"groups"`
	NewEntrants []string           `json:"new_entrants"`
	MainEvent   []pairing.MainSeat `json:"main_event,omitempty"`
	// NextTerm is the next term's groups once every group has finished.
	NextTerm *rankingNextTerm `json:"next_term"`
	// MainEventEntrants are the 本戦's entrants, seeded at the table's
	// seats, once every group has finished (with a main_event table).
	MainEventEntrants []rankingMainEntrant `json:"main_event_entrants,omitempty"`
}

type rankingMainEntrant struct {
	ID         string `json:"id"`
	Seed       int    `json:"seed"`
	EnterRound int    `json:"enter_round,omitempty"`
}

const drawRankingGroupsUsage = `usage: kisen draw ranking-groups [--check] < input.json

Plays 竜王戦-style ranking groups (組) from the JSON on stdin: each group's
table line (places to the 本戦 with their slots, promotions, 昇級者決定戦,
残留決定戦), its drawn bracket and results. Prints every group's games
(the losers' brackets filled in as the results come), the games ready to
play, each group's outcome, and, once all groups have finished, the next
term's groups and, with a "main_event" table (each slot's seed and
entry round), the 本戦's entrants ready for ` + "`kisen draw bracket`" + `.
With --check, reads that output and reports every outcome or next-term
group that differs from what the table and the results give.

Exit codes: 0 ok; 1 --check found differences; 2 bad input (the message
names the field). See docs/ranking-groups.md.
`

func runDrawRankingGroups(_ context.Context, e env) int {
	fs := flag.NewFlagSet("draw ranking-groups", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, drawRankingGroupsUsage) }
	check := fs.Bool("check", false, "judge the outcomes on stdin instead of computing them")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	const name = "kisen draw ranking-groups"
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		return 2
	}
	raw, err := io.ReadAll(e.stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: read stdin: %v\n", name, err)
		return 2
	}
	if *check {
		var claimed rankingOutput
		if err := decodeBracketJSON(raw, &claimed, false); err != nil {
			fmt.Fprintf(e.stderr, "%s --check: %v\n", name, err)
			return 2
		}
		in := rankingInput{NewEntrants: claimed.NewEntrants, MainEvent: claimed.MainEvent}
		for _, g := range claimed.Groups {
			in.Groups = append(in.Groups, g.rankingGroupIn)
		}
		got, err := rankingPlay(in)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s --check: %v\n", name, err)
			return 2
		}
		v := rankingDiff(claimed, got)
		writeBracketJSON(e.stdout, bracketCheckOutput{OK: len(v) == 0, Violations: v})
		for _, x := range v {
			fmt.Fprintf(e.stderr, "%s: %s\n", x.Rule, x.Message)
		}
		if len(v) > 0 {
			return 1
		}
		return 0
	}
	var in rankingInput
	if err := decodeBracketJSON(raw, &in, true); err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	out, err := rankingPlay(in)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	writeBracketJSON(e.stdout, out)
	return 0
}

// rankingPlay validates the table and plays every group.
func rankingPlay(in rankingInput) (rankingOutput, error) {
	if len(in.Groups) == 0 {
		return rankingOutput{}, errors.New("groups: missing; give at least one group")
	}
	rules := make([]pairing.GroupRule, len(in.Groups))
	sizes := make([]int, len(in.Groups))
	for i, g := range in.Groups {
		rules[i], sizes[i] = g.GroupRule, len(g.Slots)
	}
	if err := pairing.ValidateRankingTable(rules, sizes); err != nil {
		return rankingOutput{}, err
	}
	out := rankingOutput{NewEntrants: in.NewEntrants, MainEvent: in.MainEvent, Groups: []rankingGroupOut{}}
	if out.NewEntrants == nil {
		out.NewEntrants = []string{}
	}
	var outcomes []pairing.GroupOutcome
	finished := true
	for i, g := range in.Groups {
		rg := pairing.RankingGroup{Rule: g.GroupRule, Slots: make([]string, len(g.Slots)), Withdrawn: g.Withdrawn}
		for j, s := range g.Slots {
			if s != nil {
				if *s == "" {
					return rankingOutput{}, fmt.Errorf("groups[%d].slots[%d]: empty id; write null for a bye", i, j)
				}
				rg.Slots[j] = *s
			}
		}
		for _, r := range g.Results {
			rg.Results = append(rg.Results, pairing.Result{Game: r.Game, Winner: r.Winner, Kind: pairing.ResultKind(r.Kind)})
		}
		gp, err := pairing.AdvanceRankingGroup(rg)
		if err != nil {
			return rankingOutput{}, fmt.Errorf("groups[%d]: %w", i, err)
		}
		o := rankingGroupOut{rankingGroupIn: g, Games: []rankingGame{}, Next: []string{}, Outcome: gp.Outcome}
		if o.Results == nil {
			o.Results = []rankingResult{}
		}
		for _, round := range gp.Main {
			for _, x := range round {
				o.Games = append(o.Games, rankingGameOf("main", x, nil))
			}
		}
		for _, round := range gp.Playoff {
			for _, x := range round {
				o.Games = append(o.Games, rankingGameOf("playoff", x.Game, x.From[:]))
			}
		}
		if t := gp.PlayoffThird; t != nil {
			o.Games = append(o.Games, rankingGameOf("playoff", t.Game, t.From[:]))
		}
		for _, round := range gp.Survival {
			for _, x := range round {
				o.Games = append(o.Games, rankingGameOf("survival", x.Game, x.From[:]))
			}
		}
		for _, x := range gp.Next {
			o.Next = append(o.Next, x.ID)
		}
		out.Groups = append(out.Groups, o)
		outcomes = append(outcomes, gp.Outcome)
		finished = finished && gp.Outcome.Finished
	}
	if finished {
		groups, moves, err := pairing.NextTerm(outcomes, in.NewEntrants)
		if err != nil {
			return rankingOutput{}, err
		}
		out.NextTerm = &rankingNextTerm{Groups: groups, Moves: moves}
		if len(in.MainEvent) > 0 {
			es, err := pairing.MainEventEntrants(outcomes, in.MainEvent)
			if err != nil {
				return rankingOutput{}, err
			}
			for _, e := range es {
				out.MainEventEntrants = append(out.MainEventEntrants, rankingMainEntrant{ID: e.ID, Seed: e.Seed, EnterRound: e.EnterRound})
			}
		}
	}
	return out, nil
}

func rankingGameOf(bracket string, g pairing.Game, from []pairing.Feed) rankingGame {
	return rankingGame{Game: g.ID, Bracket: bracket, Round: g.Round, Players: g.Players, From: from,
		Status: string(g.Status), Winner: g.Winner}
}

// rankingDiff names every outcome and next-term group the claim gets
// wrong.
func rankingDiff(claimed, got rankingOutput) []pairing.Violation {
	v := []pairing.Violation{}
	for i := range got.Groups {
		c, g := claimed.Groups[i].Outcome, got.Groups[i].Outcome
		g.Group = c.Group
		for _, f := range []struct {
			rule       string
			have, want any
		}{
			{"places", c.Places, g.Places}, {"promoted", c.Promoted, g.Promoted},
			{"relegated", c.Relegated, g.Relegated}, {"stays", c.Stays, g.Stays},
			{"undecided", c.Undecided, g.Undecided}, {"finished", c.Finished, g.Finished},
		} {
			if !reflect.DeepEqual(f.have, f.want) {
				v = append(v, pairing.Violation{Rule: "outcome." + f.rule,
					Message: fmt.Sprintf("group %d: %s is %v; the table and the results give %v", got.Groups[i].Group, f.rule, f.have, f.want)})
			}
		}
	}
	if !reflect.DeepEqual(claimed.MainEventEntrants, got.MainEventEntrants) {
		v = append(v, pairing.Violation{Rule: "main_event_entrants",
			Message: "the 本戦 entrants differ from what the places and the 本戦 table give"})
	}
	if !reflect.DeepEqual(claimed.NextTerm, got.NextTerm) {
		v = append(v, pairing.Violation{Rule: "next_term",
			Message: "the next term's groups differ from what the outcomes give"})
	}
	return v
}
