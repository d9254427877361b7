package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"kisen/pairing"
)

// Limits of `kisen draw swiss` (docs/swiss.md): a 1,000-player class with
// nine rounds is about 400 KB of JSON.
const maxSwissInputBytes = 1 << 20 // 1 MiB

type swissPlayerJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name,omitempty"`
	Rating    int    `json:"rating,omitempty"`
	Rank      string `json:"rank,omitempty"`
	Club      string `json:"club,omitempty"`
	Family    string `json:"family,omitempty"`
	Master    string `json:"master,omitempty"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
}

// swissRelationsJSON is the class's relation settings. fellow_disciple is
// the key of every command and of the day's class settings; the Swiss
// command's old spelling fellow_disciples is read too (inputs written
// before issue 23) and echoed under the new key.
type swissRelationsJSON struct {
	Club            pairing.Relation `json:"club,omitempty"`
	MasterStudent   pairing.Relation `json:"master_student,omitempty"`
	FellowDisciple  pairing.Relation `json:"fellow_disciple,omitempty"`
	FellowDisciples pairing.Relation `json:"fellow_disciples,omitempty"` // old spelling
	Family          pairing.Relation `json:"family,omitempty"`
}

// fellowAlias moves the old spelling to the new key; both given and
// different is bad input, named by the old key.
func fellowAlias(field string, newKey, oldKey *string) error {
	switch {
	case *oldKey == "":
	case *newKey == "":
		*newKey = *oldKey
	case *newKey != *oldKey:
		return fmt.Errorf("%s.fellow_disciples: %q, but fellow_disciple (the same setting, new spelling) says %q", field, *oldKey, *newKey)
	}
	*oldKey = ""
	return nil
}

type swissSettingsJSON struct {
	Rounds    int                `json:"rounds"`
	Relations swissRelationsJSON `json:"relations"`
	Colours   string             `json:"colours"`
	Tiebreaks []pairing.Tiebreak `json:"tiebreaks,omitempty"`
}

// swissGameJSON is a game: sente/gote when colours are balanced (and in
// every played round, as on the result slip), or players [upper, lower]
// in a drawn round of a class that tosses or plays handicaps.
type swissGameJSON struct {
	Board   int        `json:"board"`
	Sente   string     `json:"sente,omitempty"`
	Gote    string     `json:"gote,omitempty"`
	Players *[2]string `json:"players,omitempty"`
	Result  string     `json:"result,omitempty"`
}

type swissRoundJSON struct {
	Games []swissGameJSON `json:"games"`
	Bye   string          `json:"bye,omitempty"`
}

type swissInput struct {
	Players  []swissPlayerJSON `json:"players"`
	Settings swissSettingsJSON `json:"settings"`
	Rounds   []swissRoundJSON  `json:"rounds"`
	Round    int               `json:"round,omitempty"`
	Seed     *uint64           `json:"seed"`
}

// swissOutput echoes the input, so the output is valid --check input.
type swissOutput struct {
	swissInput
	Pairings  []swissGameJSON          `json:"pairings"`
	Bye       *string                  `json:"bye"`
	NotKept   []pairing.SwissAvoidance `json:"avoidances_not_kept"`
	Report    pairing.SwissReport      `json:"report"`
	Standings []pairing.SwissStanding  `json:"standings"`
}

// drawCheckOutput is what `--check` prints for a Swiss or a team Swiss round.
type drawCheckOutput struct {
	OK         bool                `json:"ok"`
	Violations []pairing.Violation `json:"violations"`
	Notes      []pairing.Violation `json:"notes"`
}

// drawNoRound is the answer when no round can be paired (Swiss or team Swiss).
type drawNoRound struct {
	Error   string     `json:"error"`
	Reason  string     `json:"reason"`
	Groups  [][]string `json:"groups"`
	Barrier []string   `json:"barrier"`
}

const drawSwissUsage = `usage: kisen draw swiss [--check] < input.json

Pairs the next round of a Swiss (スイス式) class from the JSON on stdin and
prints it as JSON, with the standings so far. With --check, reads a round
("pairings" and "bye", e.g. the draw's own output) and reports every hard
rule it breaks, and the soft ones as notes.

Exit codes: 0 ok; 1 no valid round exists / --check found violations;
2 bad input (the message names the field). See docs/swiss.md.
`

func runDrawSwiss(_ context.Context, e env) int {
	fs := flag.NewFlagSet("draw swiss", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, drawSwissUsage) }
	check := fs.Bool("check", false, "judge the round on stdin instead of drawing")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen draw swiss: unexpected argument %q (the input is read from stdin)\n", fs.Arg(0))
		return 2
	}
	raw, err := io.ReadAll(io.LimitReader(e.stdin, maxSwissInputBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw swiss: read stdin: %v\n", err)
		return 2
	}
	if len(raw) > maxSwissInputBytes {
		fmt.Fprintf(e.stderr, "kisen draw swiss: input: more than %d bytes\n", maxSwissInputBytes)
		return 2
	}
	name := "kisen draw swiss"
	if *check {
		name += " --check"
	}
	var in swissOutput
	var derr error
	if *check {
		derr = decodeBracketJSON(raw, &in, false)
	} else {
		derr = decodeBracketJSON(raw, &in.swissInput, true)
	}
	if derr != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, derr)
		return 2
	}
	req, err := swissRequest(in.swissInput, !*check)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	in.Settings.Relations = swissRelationsOf(req.Settings.Relations)
	if *check {
		return checkSwiss(e, req, in)
	}
	p, err := pairing.DrawSwiss(req)
	var nv *pairing.NoSwissPairingError
	switch {
	case errors.As(err, &nv):
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		out := drawNoRound{Error: "no_valid_round", Reason: nv.Reason, Groups: nv.Groups, Barrier: nv.Barrier}
		if out.Groups == nil {
			out.Groups = [][]string{}
		}
		if out.Barrier == nil {
			out.Barrier = []string{}
		}
		writeBracketJSON(e.stdout, out)
		return 1
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	st, err := pairing.SwissStandings(req)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: standings: %v\n", name, err)
		return 2
	}
	out := swissOutput{swissInput: in.swissInput, Pairings: []swissGameJSON{}, NotKept: p.Report.NotKept,
		Report: p.Report, Standings: st}
	out.Round = p.Round
	if out.Rounds == nil {
		out.Rounds = []swissRoundJSON{}
	}
	if p.Bye != "" {
		out.Bye = &p.Bye
	}
	for _, g := range p.Games {
		if req.Settings.BalanceColours {
			out.Pairings = append(out.Pairings, swissGameJSON{Board: g.Board, Sente: g.Sente, Gote: g.Gote})
		} else {
			out.Pairings = append(out.Pairings, swissGameJSON{Board: g.Board, Players: &[2]string{g.Sente, g.Gote}})
		}
	}
	writeBracketJSON(e.stdout, out)
	return 0
}

func checkSwiss(e env, req pairing.SwissRequest, in swissOutput) int {
	if in.Pairings == nil {
		fmt.Fprintln(e.stderr, "kisen draw swiss --check: pairings: missing; give the round to judge")
		return 2
	}
	p := pairing.SwissPairing{Round: req.Round}
	if in.Bye != nil {
		p.Bye = *in.Bye
	}
	for k, g := range in.Pairings {
		s, o, err := swissSides(fmt.Sprintf("pairings[%d]", k), g)
		if err != nil {
			fmt.Fprintf(e.stderr, "kisen draw swiss --check: %v\n", err)
			return 2
		}
		p.Games = append(p.Games, pairing.SwissGame{Board: g.Board, Sente: s, Gote: o})
	}
	v, notes, err := pairing.CheckSwiss(req, p)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw swiss --check: %v\n", err)
		return 2
	}
	if v == nil {
		v = []pairing.Violation{}
	}
	if notes == nil {
		notes = []pairing.Violation{}
	}
	writeBracketJSON(e.stdout, drawCheckOutput{OK: len(v) == 0, Violations: v, Notes: notes})
	if len(v) > 0 {
		for _, x := range v {
			fmt.Fprintf(e.stderr, "%s: %s\n", x.Rule, x.Message)
		}
		return 1
	}
	return 0
}

// swissSides reads a game's two players: sente/gote, or players.
func swissSides(at string, g swissGameJSON) (string, string, error) {
	switch {
	case g.Players != nil && (g.Sente != "" || g.Gote != ""):
		return "", "", fmt.Errorf("%s: give sente and gote, or players, not both", at)
	case g.Players != nil:
		if g.Players[0] == "" || g.Players[1] == "" {
			return "", "", fmt.Errorf("%s.players: two player ids needed", at)
		}
		return g.Players[0], g.Players[1], nil
	case g.Sente == "":
		return "", "", fmt.Errorf("%s.sente: missing", at)
	case g.Gote == "":
		return "", "", fmt.Errorf("%s.gote: missing", at)
	}
	return g.Sente, g.Gote, nil
}

func swissRequest(in swissInput, needSeed bool) (pairing.SwissRequest, error) {
	if in.Seed == nil && needSeed {
		return pairing.SwissRequest{}, errors.New("seed: missing; the witnesses' number (0 … 18446744073709551615) makes the draw reproducible")
	}
	if len(in.Players) > pairing.MaxSwissPlayers {
		return pairing.SwissRequest{}, fmt.Errorf("players: %d players; at most %d in one class", len(in.Players), pairing.MaxSwissPlayers)
	}
	if len(in.Rounds) > pairing.MaxSwissRounds {
		return pairing.SwissRequest{}, fmt.Errorf("rounds: %d rounds; at most %d", len(in.Rounds), pairing.MaxSwissRounds)
	}
	req := pairing.SwissRequest{Round: in.Round}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	if req.Round == 0 {
		req.Round = len(in.Rounds) + 1
	}
	switch in.Settings.Colours {
	case "balance":
		req.Settings.BalanceColours = true
	case "furigoma", "handicap":
	case "":
		return req, errors.New("settings.colours: missing; balance (the draw gives sente/gote), furigoma or handicap (decided at the board)")
	default:
		return req, fmt.Errorf("settings.colours: %q; want balance, furigoma or handicap", in.Settings.Colours)
	}
	req.Settings.Rounds = in.Settings.Rounds
	rel := in.Settings.Relations
	fd, old := string(rel.FellowDisciple), string(rel.FellowDisciples)
	if err := fellowAlias("settings.relations", &fd, &old); err != nil {
		return req, err
	}
	req.Settings.Relations = pairing.SwissRelations{Club: rel.Club, MasterStudent: rel.MasterStudent,
		FellowDisciple: pairing.Relation(fd), Family: rel.Family}
	req.Settings.Tiebreaks = in.Settings.Tiebreaks
	for _, p := range in.Players {
		req.Players = append(req.Players, pairing.SwissPlayer{ID: p.ID, Name: p.Name, Rating: p.Rating, Rank: p.Rank,
			Club: p.Club, Family: p.Family, Master: p.Master, Withdrawn: p.Withdrawn})
	}
	for r, rd := range in.Rounds {
		var out pairing.SwissRound
		out.Bye = rd.Bye
		for k, g := range rd.Games {
			at := fmt.Sprintf("rounds[%d].games[%d]", r, k)
			if g.Players != nil {
				return req, fmt.Errorf("%s.players: a played game records sente and gote (as on the result slip)", at)
			}
			s, o, err := swissSides(at, g)
			if err != nil {
				return req, err
			}
			out.Games = append(out.Games, pairing.SwissGame{Board: g.Board, Sente: s, Gote: o, Result: pairing.GameResult(g.Result)})
		}
		req.History = append(req.History, out)
	}
	return req, nil
}

// swissRelationsOf is the settings as echoed: the new key only.
func swissRelationsOf(r pairing.SwissRelations) swissRelationsJSON {
	return swissRelationsJSON{Club: r.Club, MasterStudent: r.MasterStudent, FellowDisciple: r.FellowDisciple, Family: r.Family}
}
