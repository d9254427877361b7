package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"kisen/pairing"
)

// poolsPlayer is one checked-in player in the JSON of `kisen draw pools`
// (docs/pools.md).
type poolsPlayer struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Club   string `json:"club,omitempty"`
	Master string `json:"master,omitempty"`
	Family string `json:"family,omitempty"`
}

type poolsRelations struct {
	Club            string `json:"club,omitempty"`
	MasterStudent   string `json:"master_student,omitempty"`
	FellowDisciple  string `json:"fellow_disciple,omitempty"`
	FellowDisciples string `json:"fellow_disciples,omitempty"` // the Swiss command's old spelling, read and echoed as fellow_disciple
	Family          string `json:"family,omitempty"`
}

type poolsBlock struct {
	ID      string   `json:"id"`
	Players []string `json:"players"`
}

type poolsGame struct {
	Round   int       `json:"round"`
	Board   int       `json:"board,omitempty"`
	Block   string    `json:"block,omitempty"`
	Players [2]string `json:"players"`
	Winner  string    `json:"winner"`
}

type poolsBye struct {
	Round  int    `json:"round"`
	Player string `json:"player"`
}

// poolsInput is what the command reads: the class, its settings and every
// result so far. The output repeats it, so the next round's input is the
// last output with the new results added to games and byes.
type poolsInput struct {
	Mode      string         `json:"mode"`
	Wins      int            `json:"wins"`
	Losses    int            `json:"losses"`
	Seed      *uint64        `json:"seed"`
	Relations poolsRelations `json:"relations"`
	Players   []poolsPlayer  `json:"players"`
	Blocks    []poolsBlock   `json:"blocks"`
	Games     []poolsGame    `json:"games"`
	Byes      []poolsBye     `json:"byes"`
}

type poolsPairing struct {
	Board   int       `json:"board"`
	Block   string    `json:"block,omitempty"`
	Players [2]string `json:"players"`
	Records [2]string `json:"records"`
	Rematch bool      `json:"rematch,omitempty"`
}

type poolsNotKept struct {
	Relation string    `json:"relation"`
	Players  [2]string `json:"players"`
	Names    [2]string `json:"names"`
	Block    string    `json:"block,omitempty"`
	Board    int       `json:"board,omitempty"`
}

type poolsStanding struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	Block      string `json:"block,omitempty"`
	Record     string `json:"record"`
	Byes       int    `json:"byes"`
	Status     string `json:"status"`
	Round      int    `json:"round,omitempty"`
	BlockPlace int    `json:"block_place,omitempty"`
}

type poolsOutput struct {
	poolsInput
	Round      int             `json:"round"`
	Finished   bool            `json:"finished"`
	Pairings   []poolsPairing  `json:"pairings"`
	RoundByes  []string        `json:"round_byes"`
	NotKept    []poolsNotKept  `json:"not_kept"`
	Qualified  []poolsStanding `json:"qualified"`
	Eliminated []poolsStanding `json:"eliminated"`
	Standings  []poolsStanding `json:"standings"`
}

type poolsCheckOutput struct {
	OK         bool                `json:"ok"`
	Violations []pairing.Violation `json:"violations"`
	Standings  []poolsStanding     `json:"standings"`
}

type poolsNoPairing struct {
	Error   string   `json:"error"`
	Round   int      `json:"round"`
	Reason  string   `json:"reason"`
	Players []string `json:"players"`
}

// maxPoolsInputBytes bounds stdin like `kisen draw league`: a class of
// 1,000 players with every result of a preliminary is under 300 KB.
const maxPoolsInputBytes = 1 << 20

const drawPoolsUsage = `usage: kisen draw pools [--check] < input.json

Draws the next round of an N勝通過M敗失格 preliminary (2勝通過2敗失格 by
blocks of four, or any N/M by records) from the JSON on stdin: the class,
its settings and every result so far. With --check, judges every round of
the results given instead, and the unplayed round in "pairings" and
"round_byes" when present (the draw's output, perhaps edited).

Exit codes: 0 ok; 1 no pairing keeps the rules / --check found violations;
2 bad input (the message names the field). See docs/pools.md.
`

func runDrawPools(_ context.Context, e env) int {
	fs := flag.NewFlagSet("draw pools", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, drawPoolsUsage) }
	check := fs.Bool("check", false, "judge every round of the results on stdin instead of drawing")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	name := "kisen draw pools"
	if *check {
		name += " --check"
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "%s: unexpected argument %q (the input is read from stdin)\n", name, fs.Arg(0))
		return 2
	}
	raw, err := io.ReadAll(io.LimitReader(e.stdin, maxPoolsInputBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: read stdin: %v\n", name, err)
		return 2
	}
	if len(raw) > maxPoolsInputBytes {
		fmt.Fprintf(e.stderr, "%s: input: larger than the limit of %d bytes (1 MiB); a class of %d players with all its results fits well within it\n", name, maxPoolsInputBytes, pairing.MaxPoolPlayers)
		return 2
	}
	var in poolsInput
	var proposed *pairing.PoolProposal
	if *check {
		// The draw's own output is valid --check input: accept its extra fields.
		var out poolsOutput
		err = decodeBracketJSON(raw, &out, false)
		in = out.poolsInput
		if len(out.Pairings) > 0 || len(out.RoundByes) > 0 {
			proposed = &pairing.PoolProposal{Byes: out.RoundByes}
			for _, g := range out.Pairings {
				proposed.Games = append(proposed.Games, g.Players)
			}
		}
	} else {
		err = decodeBracketJSON(raw, &in, true)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if err := fellowAlias("relations", &in.Relations.FellowDisciple, &in.Relations.FellowDisciples); err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if in.Seed == nil && !*check {
		fmt.Fprintf(e.stderr, "%s: seed: missing; the witnesses' number (0 … 18446744073709551615) makes the draw reproducible\n", name)
		return 2
	}
	req := poolsRequest(in)
	req.Proposed = proposed
	if *check {
		return checkPools(e, name, req)
	}
	rd, err := pairing.DrawPools(req)
	var np *pairing.NoPairingError
	switch {
	case errors.As(err, &np):
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		out := poolsNoPairing{Error: "no_pairing", Round: np.Round, Reason: np.Reason, Players: np.Players}
		if out.Players == nil {
			out.Players = []string{}
		}
		writeBracketJSON(e.stdout, out)
		return 1
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	writeBracketJSON(e.stdout, poolsOutputOf(in, rd))
	return 0
}

func checkPools(e env, name string, req pairing.PoolsRequest) int {
	v, st, err := pairing.CheckPools(req)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return 2
	}
	if v == nil {
		v = []pairing.Violation{}
	}
	writeBracketJSON(e.stdout, poolsCheckOutput{OK: len(v) == 0, Violations: v, Standings: poolsStandingsJSON(st)})
	if len(v) > 0 {
		for _, x := range v {
			fmt.Fprintf(e.stderr, "%s: %s\n", x.Rule, x.Message)
		}
		return 1
	}
	return 0
}

func poolsRequest(in poolsInput) pairing.PoolsRequest {
	req := pairing.PoolsRequest{Wins: in.Wins, Losses: in.Losses, Mode: pairing.PoolMode(in.Mode),
		Relations: pairing.RelationPolicy{Club: pairing.Policy(in.Relations.Club), MasterStudent: pairing.Policy(in.Relations.MasterStudent),
			FellowDisciple: pairing.Policy(in.Relations.FellowDisciple), Family: pairing.Policy(in.Relations.Family)}}
	if in.Seed != nil {
		req.Seed = *in.Seed
	}
	for _, p := range in.Players {
		req.Players = append(req.Players, pairing.PoolPlayer{ID: p.ID, Name: p.Name, Club: p.Club, Master: p.Master, Family: p.Family})
	}
	for _, b := range in.Blocks {
		req.Blocks = append(req.Blocks, pairing.PoolBlock{ID: b.ID, Players: b.Players})
	}
	for _, g := range in.Games {
		req.Games = append(req.Games, pairing.PoolGame{Round: g.Round, Board: g.Board, Players: g.Players, Winner: g.Winner})
	}
	for _, b := range in.Byes {
		req.Byes = append(req.Byes, pairing.PoolBye{Round: b.Round, Player: b.Player})
	}
	return req
}

func poolsStandingsJSON(st []pairing.PoolStanding) []poolsStanding {
	out := make([]poolsStanding, len(st))
	for i, s := range st {
		out[i] = poolsStanding{ID: s.ID, Name: s.Name, Block: s.Block, Record: s.Record.String(), Byes: s.Byes,
			Status: s.Status, Round: s.Round, BlockPlace: s.BlockPlace}
	}
	return out
}

func poolsOutputOf(in poolsInput, rd pairing.PoolsRound) poolsOutput {
	out := poolsOutput{poolsInput: in, Round: rd.Round, Finished: rd.Finished, Pairings: []poolsPairing{}, RoundByes: []string{},
		NotKept: []poolsNotKept{}, Qualified: []poolsStanding{}, Eliminated: []poolsStanding{}}
	out.Blocks = []poolsBlock{}
	for _, b := range rd.Blocks {
		out.Blocks = append(out.Blocks, poolsBlock{ID: b.ID, Players: b.Players})
	}
	if out.Games == nil {
		out.Games = []poolsGame{}
	}
	if out.Byes == nil {
		out.Byes = []poolsBye{}
	}
	for _, g := range rd.Pairings {
		out.Pairings = append(out.Pairings, poolsPairing{Board: g.Board, Block: g.Block, Players: g.Players,
			Records: [2]string{g.Records[0].String(), g.Records[1].String()}, Rematch: g.Rematch})
	}
	out.RoundByes = append(out.RoundByes, rd.Byes...)
	for _, nk := range rd.NotKept {
		out.NotKept = append(out.NotKept, poolsNotKept(nk))
	}
	out.Standings = poolsStandingsJSON(rd.Standings)
	for _, s := range out.Standings {
		switch s.Status {
		case pairing.StatusQualified:
			out.Qualified = append(out.Qualified, s)
		case pairing.StatusOut:
			out.Eliminated = append(out.Eliminated, s)
		}
	}
	return out
}
