package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"kisen/league"
	"kisen/office"
)

// leagueInput is the JSON `kisen draw league` reads on stdin (docs/leagues.md).
type leagueInput struct {
	Kind               string             `json:"kind"`
	Class              string             `json:"class"`
	GamesPerPlayer     *int               `json:"games_per_player"`
	Seed               *uint64            `json:"seed"`
	Players            []league.Player    `json:"players"`
	Relatives          []league.Pair      `json:"relatives"`
	PreviousTerms      [][]league.Pair    `json:"previous_terms"`
	PreviousFinalRound []league.Pair      `json:"previous_final_round"`
	Dates              []leagueRoundDates `json:"dates"`
	Settings           json.RawMessage    `json:"settings"`
	// Rounds is the schedule to judge with --check (the output format).
	Rounds []leagueRound `json:"rounds"`
}

// leagueRoundDates is one round's calendar: "2026-06-10" or a list of dates.
type leagueRoundDates []string

func (r *leagueRoundDates) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*r = leagueRoundDates{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("a date is a string \"YYYY-MM-DD\" or a list of them")
	}
	*r = many
	return nil
}

type leagueGame struct {
	Sente string `json:"sente"`
	Gote  string `json:"gote"`
	Date  string `json:"date,omitempty"`
}

type leagueRound struct {
	Round int          `json:"round"`
	Date  string       `json:"date,omitempty"`
	Games []leagueGame `json:"games"`
	Rests []string     `json:"rests"`
}

type leagueOutput struct {
	Kind   string        `json:"kind"`
	Class  string        `json:"class,omitempty"`
	Seed   uint64        `json:"seed"`
	Rounds []leagueRound `json:"rounds"`
	Report league.Report `json:"report"`
}

type leagueNoScheduleOutput struct {
	NoSchedule struct {
		Proven    bool               `json:"proven"`
		Reason    string             `json:"reason"`
		Conflicts []league.Violation `json:"conflicts"`
	} `json:"no_schedule"`
}

// leagueOutOfTimeOutput is written when --time-budget ends the search
// before a schedule is found: distinct from no_schedule, which is a
// verdict on the input.
type leagueOutOfTimeOutput struct {
	OutOfTime struct {
		Budget string `json:"budget"`
		Reason string `json:"reason"`
	} `json:"out_of_time"`
}

// Limits of `kisen draw league` (docs/league-draw-limits.md). A 200-player
// class with two previous terms is under 100 KB of JSON.
const (
	maxLeagueInputBytes     = 1 << 20                     // 1 MiB
	defaultLeagueTimeBudget = office.LeagueDrawTimeBudget // the web draw's budget too
)

type leagueCheckOutput struct {
	OK     bool          `json:"ok"`
	Report league.Report `json:"report"`
}

const leagueDateLayout = "2006-01-02"

func runDrawLeague(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("draw league", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	check := fs.Bool("check", false, "judge the schedule in \"rounds\" instead of drawing one; exit 1 if it breaks a rule")
	budget := fs.Duration("time-budget", defaultLeagueTimeBudget, "stop searching after this long: exit 1, \"ran out of time\" (not a proof that no schedule exists)")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, "usage: kisen draw league [--check] < input.json\n\nDraws a league or 順位戦 schedule (JSON on stdin, JSON on stdout; see docs/leagues.md).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "kisen draw league: unexpected argument %q (the input is read from stdin)\n", fs.Arg(0))
		return 2
	}
	if *budget <= 0 {
		fmt.Fprintf(e.stderr, "kisen draw league: --time-budget must be positive, got %v\n", *budget)
		return 2
	}
	in, d, err := readLeagueInput(io.LimitReader(e.stdin, maxLeagueInputBytes+1))
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw league: %v\n", err)
		return 2
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(e.stderr, "kisen draw league: %v\n", err)
		return 1
	}
	if *check {
		return checkLeague(e, in, d)
	}
	deadline := time.Now().Add(*budget)
	stop := func() bool { return ctx.Err() != nil || time.Now().After(deadline) }
	s, rep, err := league.GenerateWithOptions(d, league.Options{Stop: stop})
	var none *league.NoScheduleError
	switch {
	case errors.Is(err, league.ErrBudget):
		var out leagueOutOfTimeOutput
		out.OutOfTime.Budget, out.OutOfTime.Reason = budget.String(), err.Error()
		writeLeagueJSON(e.stdout, out)
		fmt.Fprintf(e.stderr, "kisen draw league: ran out of time: no schedule found within --time-budget %v (%v); this is not a proof that none exists — raise --time-budget or relax the rules\n", *budget, err)
		return 1
	case errors.As(err, &none):
		var out leagueNoScheduleOutput
		out.NoSchedule.Proven, out.NoSchedule.Reason, out.NoSchedule.Conflicts = none.Proven, none.Reason, none.Conflicts
		writeLeagueJSON(e.stdout, out)
		fmt.Fprintf(e.stderr, "kisen draw league: %v\n", err)
		return 1
	case errors.Is(err, league.ErrInvalid):
		fmt.Fprintf(e.stderr, "kisen draw league: %v\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(e.stderr, "kisen draw league: %v\n", err)
		return 1
	}
	writeLeagueJSON(e.stdout, leagueOutput{Kind: in.Kind, Class: in.Class, Seed: d.Seed, Rounds: leagueRoundsJSON(s), Report: rep})
	return 0
}

func checkLeague(e env, in leagueInput, d league.Draw) int {
	s, err := leagueScheduleFromJSON(in.Rounds)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw league --check: %v\n", err)
		return 2
	}
	rep, err := league.Check(d, s)
	if err != nil {
		fmt.Fprintf(e.stderr, "kisen draw league --check: %v\n", err)
		return 2
	}
	writeLeagueJSON(e.stdout, leagueCheckOutput{OK: len(rep.Violations) == 0, Report: rep})
	if len(rep.Violations) > 0 {
		fmt.Fprintf(e.stderr, "kisen draw league --check: %d rule(s) broken, first %s: %s\n", len(rep.Violations), rep.Violations[0].Rule, rep.Violations[0].Message)
		return 1
	}
	return 0
}

// readLeagueInput decodes stdin strictly (unknown fields are errors) and
// builds the draw on top of the kind's and class's default settings.
func readLeagueInput(r io.Reader) (leagueInput, league.Draw, error) {
	var in leagueInput
	// r is limited to one byte over the limit: reading that byte means
	// the input is too large, and nothing past it is read.
	raw, err := io.ReadAll(r)
	if err != nil {
		return in, league.Draw{}, fmt.Errorf("input: %w", err)
	}
	if len(raw) > maxLeagueInputBytes {
		return in, league.Draw{}, fmt.Errorf("input: larger than the limit of %d bytes (1 MiB); a class of %d players fits well within it", maxLeagueInputBytes, league.MaxPlayers)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, league.Draw{}, leagueJSONError("input", err)
	}
	if in.Seed == nil {
		return in, league.Draw{}, errors.New("seed is missing: the witnesses' number makes the draw reproducible")
	}
	if in.Kind == "" {
		return in, league.Draw{}, errors.New("kind is missing: junisen or league")
	}
	d, err := league.NewDraw(league.Kind(in.Kind), league.Class(in.Class), *in.Seed, in.Players)
	if err != nil {
		return in, league.Draw{}, err
	}
	if len(in.Settings) > 0 {
		sd := json.NewDecoder(bytes.NewReader(in.Settings))
		sd.DisallowUnknownFields()
		if err := sd.Decode(&d.Settings); err != nil {
			return in, league.Draw{}, leagueJSONError("settings", err)
		}
	}
	if in.GamesPerPlayer != nil {
		if d.Settings.RoundRobin {
			return in, league.Draw{}, fmt.Errorf("games_per_player: a round robin plays everyone once; set settings.round_robin false for a partial schedule")
		}
		d.Settings.GamesPerPlayer = *in.GamesPerPlayer
	}
	d.Relatives, d.PreviousTerms, d.PreviousFinalRound = in.Relatives, in.PreviousTerms, in.PreviousFinalRound
	for r, ds := range in.Dates {
		var days []time.Time
		for k, s := range ds {
			t, err := time.Parse(leagueDateLayout, s)
			if err != nil {
				return in, league.Draw{}, fmt.Errorf("dates[%d][%d]: %q is not a date YYYY-MM-DD", r, k, s)
			}
			days = append(days, t)
		}
		d.Dates = append(d.Dates, days)
	}
	return in, d, nil
}

func leagueJSONError(where string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%s: field %s: expected %s, got JSON %s", where, te.Field, te.Type, te.Value)
	}
	return fmt.Errorf("%s: %w", where, err)
}

func leagueRoundsJSON(s league.Schedule) []leagueRound {
	out := make([]leagueRound, 0, len(s.Rounds))
	for _, r := range s.Rounds {
		lr := leagueRound{Round: r.Number, Date: formatLeagueDate(r.Date), Games: []leagueGame{}, Rests: r.Rests}
		for _, g := range r.Games {
			lr.Games = append(lr.Games, leagueGame{Sente: g.Sente, Gote: g.Gote, Date: formatLeagueDate(g.Date)})
		}
		out = append(out, lr)
	}
	return out
}

func leagueScheduleFromJSON(rounds []leagueRound) (league.Schedule, error) {
	var s league.Schedule
	if len(rounds) == 0 {
		return s, errors.New("rounds: --check needs the schedule to judge")
	}
	for i, r := range rounds {
		if r.Round != 0 && r.Round != i+1 {
			return s, fmt.Errorf("rounds[%d].round is %d; rounds are listed in order from 1", i, r.Round)
		}
		day, err := parseLeagueDate(r.Date)
		if err != nil {
			return s, fmt.Errorf("rounds[%d].date: %w", i, err)
		}
		lr := league.Round{Number: i + 1, Date: day, Rests: r.Rests}
		for k, g := range r.Games {
			gd, err := parseLeagueDate(g.Date)
			if err != nil {
				return s, fmt.Errorf("rounds[%d].games[%d].date: %w", i, k, err)
			}
			if gd.IsZero() {
				gd = day // a game without its own date is played on the round's
			}
			lr.Games = append(lr.Games, league.Game{Sente: g.Sente, Gote: g.Gote, Date: gd})
		}
		s.Rounds = append(s.Rounds, lr)
	}
	return s, nil
}

func parseLeagueDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(leagueDateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date YYYY-MM-DD", s)
	}
	return t, nil
}

func formatLeagueDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(leagueDateLayout)
}

func writeLeagueJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // a failed write to stdout has nowhere better to go
}
