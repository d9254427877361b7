package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"kisen/pairing"
)

// `kisen draw team-swiss`, `kisen draw team-league` and `kisen draw
// team-standings` (issue 25, docs/team-events.md): JSON in and out, --check
// judging a given round or schedule independently of the draw.

// maxTeamInputBytes: 1,000 teams × 9 rounds of 7 boards is about 600 KB.
const maxTeamInputBytes = 1 << 20

type teamSwissInput struct {
	Teams    []pairing.Team            `json:"teams"`
	Settings pairing.TeamSwissSettings `json:"settings"`
	Rounds   []pairing.TeamRound       `json:"rounds"`
	Round    int                       `json:"round,omitempty"`
	Seed     *uint64                   `json:"seed"`
}

// teamSwissOutput echoes the input, so the output is valid --check input.
type teamSwissOutput struct {
	teamSwissInput
	Matches   []pairing.TeamMatch      `json:"matches"`
	Bye       *string                  `json:"bye"`
	Report    *pairing.TeamSwissReport `json:"report,omitempty"`
	Standings []pairing.TeamStanding   `json:"standings,omitempty"`
}

type teamLeagueInput struct {
	Teams     []pairing.Team `json:"teams"`
	Cycles    int            `json:"cycles,omitempty"`
	KeepOrder bool           `json:"keep_order,omitempty"`
	Seed      *uint64        `json:"seed"`
}

type teamLeagueOutput struct {
	teamLeagueInput
	Numbers []string            `json:"numbers,omitempty"`
	Rounds  []pairing.TeamRound `json:"rounds"`
}

type teamStandingsOutput struct {
	pairing.TeamStandingsRequest
	Results   [][]pairing.TeamMatchResult `json:"results"` // per round, per match, as the standings read them
	Standings []pairing.TeamStanding      `json:"standings"`
}

const drawTeamSwissUsage = `usage: kisen draw team-swiss [--check] < input.json

Pairs the next round of a team Swiss (団体戦スイス式) from the JSON on stdin:
teams, settings (rounds, match rules, points, tie-breaks, affiliation),
the rounds played (every board final) and the seed. Prints the matches, the
bye and the standings so far. With --check, reads a round ("matches" and
"bye", e.g. the draw's own output) and reports every rule it breaks.

Exit codes: 0 ok; 1 no valid round exists / --check found violations;
2 bad input (the message names the field). See docs/team-events.md.
`

const drawTeamLeagueUsage = `usage: kisen draw team-league [--check] < input.json

Schedules a team round robin (総当たり) by the circle method from the JSON on
stdin: teams, cycles (1 or 2), keep_order and the seed of the numbers'
lot. With --check, reads a schedule ("rounds") and reports every rule it
breaks: rounds, each team once a round, each pair once a cycle, board 1's
sente balanced.

Exit codes: 0 ok; 1 --check found violations; 2 bad input.
See docs/team-events.md.
`

const drawTeamStandingsUsage = `usage: kisen draw team-standings [--check] < input.json

Computes team standings from the JSON on stdin: teams, settings (match
rules, points, tie-breaks), rounds with every board's result, and the seed
of the lot. Prints each match's result and the standings with every
tie-break's value. With --check, reads "standings" (e.g. a page's) and
reports each line that differs from the recomputed standings.

Exit codes: 0 ok; 1 --check found differences; 2 bad input.
See docs/team-events.md.
`

// readTeamInput parses flags and reads stdin; ok false means exit with code.
func readTeamInput(e env, name, usage string) (raw []byte, check bool, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, usage) }
	chk := fs.Bool("check", false, "judge the input instead of drawing")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, false, 0, false
		}
		return nil, false, 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen %s: unexpected argument %q (the input is read from stdin)\n", name, fs.Arg(0))
		return nil, false, 2, false
	}
	raw, err := io.ReadAll(io.LimitReader(e.stdin, maxTeamInputBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: read stdin: %v\n", name, err)
		return nil, false, 2, false
	}
	if len(raw) > maxTeamInputBytes {
		fmt.Fprintf(e.stderr, "kisen %s: input: more than %d bytes\n", name, maxTeamInputBytes)
		return nil, false, 2, false
	}
	return raw, *chk, 0, true
}

func writeTeamCheck(e env, name string, v, notes []pairing.Violation) int {
	if v == nil {
		v = []pairing.Violation{}
	}
	if notes == nil {
		notes = []pairing.Violation{}
	}
	writeBracketJSON(e.stdout, drawCheckOutput{OK: len(v) == 0, Violations: v, Notes: notes})
	for _, x := range v {
		fmt.Fprintf(e.stderr, "%s: %s: %s\n", name, x.Rule, x.Message)
	}
	if len(v) > 0 {
		return 1
	}
	return 0
}

func runDrawTeamSwiss(_ context.Context, e env) int {
	raw, check, code, ok := readTeamInput(e, "draw team-swiss", drawTeamSwissUsage)
	if !ok {
		return code
	}
	name := "kisen draw team-swiss"
	if check {
		name += " --check"
	}
	var in teamSwissOutput
	var err error
	if check {
		err = decodeBracketJSON(raw, &in, false)
	} else {
		err = decodeBracketJSON(raw, &in.teamSwissInput, true)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if in.Seed == nil && !check {
		fmt.Fprintf(e.stderr, "%s: seed: missing; the witnesses' number (0 … 18446744073709551615) makes the draw reproducible\n", name)
		return 2
	}
	req := pairing.TeamSwissRequest{Teams: in.Teams, Settings: in.Settings, Rounds: in.Rounds, Round: in.Round}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	if check {
		if in.Matches == nil {
			fmt.Fprintf(e.stderr, "%s: matches: missing; give the round to judge\n", name)
			return 2
		}
		p := pairing.TeamSwissPairing{Matches: in.Matches}
		if in.Bye != nil {
			p.Bye = *in.Bye
		}
		v, notes, err := pairing.CheckTeamSwiss(req, p)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
			return 2
		}
		return writeTeamCheck(e, name, v, notes)
	}
	p, err := pairing.DrawTeamSwiss(req)
	var nr *pairing.NoTeamPairingError
	switch {
	case errors.As(err, &nr):
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		writeBracketJSON(e.stdout, drawNoRound{Error: pairing.NoTeamRound, Reason: nr.Reason, Groups: nr.Groups, Barrier: nr.Barrier})
		return 1
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	st, err := pairing.TeamStandings(pairing.TeamStandingsRequest{Teams: req.Teams, Settings: req.Settings.TeamSettings, Rounds: req.Rounds, Seed: req.Seed})
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: standings: %v\n", name, err)
		return 2
	}
	out := teamSwissOutput{teamSwissInput: in.teamSwissInput, Matches: p.Matches, Report: &p.Report, Standings: st}
	out.Round = p.Round
	if out.Rounds == nil {
		out.Rounds = []pairing.TeamRound{}
	}
	if p.Bye != "" {
		out.Bye = &p.Bye
	}
	writeBracketJSON(e.stdout, out)
	return 0
}

func runDrawTeamLeague(_ context.Context, e env) int {
	raw, check, code, ok := readTeamInput(e, "draw team-league", drawTeamLeagueUsage)
	if !ok {
		return code
	}
	name := "kisen draw team-league"
	if check {
		name += " --check"
	}
	var in teamLeagueOutput
	var err error
	if check {
		err = decodeBracketJSON(raw, &in, false)
	} else {
		err = decodeBracketJSON(raw, &in.teamLeagueInput, true)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	req := pairing.TeamLeagueRequest{Teams: in.Teams, Cycles: in.Cycles, KeepOrder: in.KeepOrder}
	if in.Seed != nil {
		req.Seed = *in.Seed
	} else if !check && !in.KeepOrder {
		fmt.Fprintf(e.stderr, "%s: seed: missing; the lot of the schedule numbers needs the witnesses' number (or keep_order: true)\n", name)
		return 2
	}
	if check {
		if in.Rounds == nil {
			fmt.Fprintf(e.stderr, "%s: rounds: missing; give the schedule to judge\n", name)
			return 2
		}
		v, err := pairing.CheckTeamLeague(req, in.Rounds)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
			return 2
		}
		return writeTeamCheck(e, name, v, nil)
	}
	sch, err := pairing.DrawTeamLeague(req)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	writeBracketJSON(e.stdout, teamLeagueOutput{teamLeagueInput: in.teamLeagueInput, Numbers: sch.Numbers, Rounds: sch.Rounds})
	return 0
}

func runDrawTeamStandings(_ context.Context, e env) int {
	raw, check, code, ok := readTeamInput(e, "draw team-standings", drawTeamStandingsUsage)
	if !ok {
		return code
	}
	name := "kisen draw team-standings"
	if check {
		name += " --check"
	}
	var in teamStandingsOutput
	var err error
	if check {
		err = decodeBracketJSON(raw, &in, false)
	} else {
		err = decodeBracketJSON(raw, &in.TeamStandingsRequest, true)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	st, err := pairing.TeamStandings(in.TeamStandingsRequest)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if check {
		if in.Standings == nil {
			fmt.Fprintf(e.stderr, "%s: standings: missing; give the standings to judge\n", name)
			return 2
		}
		return writeTeamCheck(e, name, standingsDiff(in.Standings, st), nil)
	}
	out := teamStandingsOutput{TeamStandingsRequest: in.TeamStandingsRequest, Results: [][]pairing.TeamMatchResult{}, Standings: st}
	if out.Rounds == nil {
		out.Rounds = []pairing.TeamRound{}
	}
	for _, rd := range in.Rounds {
		res := []pairing.TeamMatchResult{}
		for _, m := range rd.Matches {
			r, err := pairing.DecideTeamMatch(in.Settings.Match, m.Boards)
			if err != nil { // TeamStandings accepted the same boards
				fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
				return 2
			}
			res = append(res, r)
		}
		out.Results = append(out.Results, res)
	}
	writeBracketJSON(e.stdout, out)
	return 0
}

// standingsDiff names every line of given that differs from want: the
// team at each place, its rank, points, board wins and tie-break values.
func standingsDiff(given, want []pairing.TeamStanding) []pairing.Violation {
	var v []pairing.Violation
	if len(given) != len(want) {
		v = append(v, pairing.Violation{Rule: "team-standings-lines", Message: fmt.Sprintf("%d lines; the event has %d teams", len(given), len(want))})
	}
	for i := range min(len(given), len(want)) {
		g, w := given[i], want[i]
		msg := ""
		switch {
		case g.ID != w.ID:
			msg = fmt.Sprintf("place %d is %s; recomputed, %s", i+1, g.ID, w.ID)
		case g.Rank != w.Rank:
			msg = fmt.Sprintf("%s ranked %d; recomputed, %d", g.ID, g.Rank, w.Rank)
		case g.MatchPoints != w.MatchPoints || g.BoardWins != w.BoardWins:
			msg = fmt.Sprintf("%s has %d match points and %d board wins; recomputed, %d and %d", g.ID, g.MatchPoints, g.BoardWins, w.MatchPoints, w.BoardWins)
		case len(g.Tiebreaks) != len(w.Tiebreaks):
			msg = fmt.Sprintf("%s shows %d tie-breaks; the event has %d", g.ID, len(g.Tiebreaks), len(w.Tiebreaks))
		default:
			for k := range g.Tiebreaks {
				if g.Tiebreaks[k] != w.Tiebreaks[k] {
					msg = fmt.Sprintf("%s: %s is %v; recomputed, %v", g.ID, w.Tiebreaks[k].Tiebreak, g.Tiebreaks[k].Value, w.Tiebreaks[k].Value)
					break
				}
			}
		}
		if msg != "" {
			v = append(v, pairing.Violation{Rule: "team-standings-line", Players: []string{g.ID}, Message: msg})
		}
	}
	return v
}
