package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"kisen/pairing"
)

// `kisen standings swiss|pools`: a class's standings from its results, the
// same JSON a draw reads (or prints), so the final standings of a finished
// class have a command of their own (issue 23 §6). docs/swiss.md, docs/pools.md.

func runStandings(ctx context.Context, e env) int {
	return subcommand(ctx, e, "standings", map[string]command{
		"swiss": runStandingsSwiss,
		"pools": runStandingsPools,
	})
}

const standingsSwissUsage = `usage: kisen standings swiss < input.json

Prints a Swiss (スイス式) class's standings from the JSON on stdin — the
input of kisen draw swiss, or its output: players, settings and every
round played. Wins (a draw half, a bye one), then the class's tie-breaks.
"final" is true when every round of the class has been played.

Exit codes: 0 ok; 2 bad input (the message names the field). See docs/swiss.md.
`

const standingsPoolsUsage = `usage: kisen standings pools < input.json

Prints an N勝通過M敗失格 preliminary's standings from the JSON on stdin — the
input of kisen draw pools, or its output: qualified players first, then
those still playing, then those out; more wins first, then fewer losses.
"finished" is true when nobody is left playing.

Exit codes: 0 ok; 2 bad input or results that break a rule (the message
names the field; kisen draw pools --check names every rule broken).
See docs/pools.md.
`

// readStandingsInput parses flags (none but -h) and reads stdin up to limit.
func readStandingsInput(e env, name, usage string, limit int) ([]byte, int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, usage) }
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen %s: unexpected argument %q (the input is read from stdin)\n", name, fs.Arg(0))
		return nil, 2
	}
	raw, err := io.ReadAll(io.LimitReader(e.stdin, int64(limit)+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: read stdin: %v\n", name, err)
		return nil, 2
	}
	if len(raw) > limit {
		fmt.Fprintf(e.stderr, "kisen %s: input: more than %d bytes\n", name, limit)
		return nil, 2
	}
	return raw, -1
}

type swissStandingsOutput struct {
	RoundsPlayed int                     `json:"rounds_played"`
	Rounds       int                     `json:"rounds"`
	Final        bool                    `json:"final"`
	Standings    []pairing.SwissStanding `json:"standings"`
}

func runStandingsSwiss(_ context.Context, e env) int {
	const name = "standings swiss"
	raw, code := readStandingsInput(e, name, standingsSwissUsage, maxSwissInputBytes)
	if code >= 0 {
		return code
	}
	var in swissOutput // the draw's input or output: both decode strictly
	if err := decodeBracketJSON(raw, &in, true); err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	lot := in.Settings.Tiebreaks == nil || slices.Contains(in.Settings.Tiebreaks, pairing.TiebreakLot)
	req, err := swissRequest(in.swissInput, lot)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	st, err := pairing.SwissStandings(req)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	writeBracketJSON(e.stdout, swissStandingsOutput{RoundsPlayed: len(req.History), Rounds: req.Settings.Rounds,
		Final: len(req.History) == req.Settings.Rounds, Standings: st})
	return 0
}

type poolsStandingsOutput struct {
	RoundsPlayed int             `json:"rounds_played"`
	Finished     bool            `json:"finished"`
	Standings    []poolsStanding `json:"standings"`
	Qualified    []poolsStanding `json:"qualified"`
	Eliminated   []poolsStanding `json:"eliminated"`
}

func runStandingsPools(_ context.Context, e env) int {
	const name = "standings pools"
	raw, code := readStandingsInput(e, name, standingsPoolsUsage, maxPoolsInputBytes)
	if code >= 0 {
		return code
	}
	var out poolsOutput // the draw's input or output: both decode strictly
	if err := decodeBracketJSON(raw, &out, true); err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	in := out.poolsInput
	if err := fellowAlias("relations", &in.Relations.FellowDisciple, &in.Relations.FellowDisciples); err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	st, played, err := pairing.PoolsStandings(poolsRequest(in))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen %s: %v\n", name, err)
		return 2
	}
	res := poolsStandingsOutput{RoundsPlayed: played, Finished: true, Standings: poolsStandingsJSON(st),
		Qualified: []poolsStanding{}, Eliminated: []poolsStanding{}}
	for _, s := range res.Standings {
		switch s.Status {
		case pairing.StatusQualified:
			res.Qualified = append(res.Qualified, s)
		case pairing.StatusOut:
			res.Eliminated = append(res.Eliminated, s)
		default:
			res.Finished = false
		}
	}
	writeBracketJSON(e.stdout, res)
	return 0
}
