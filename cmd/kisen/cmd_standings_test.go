package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kisen/pairing"
)

func runStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: args, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// TestStandingsCLI_SwissFinalStandings plays the worked example's class to
// its last round through kisen draw swiss (the upper board's sente wins),
// then asks kisen standings swiss for the final standings: final, every
// player once, wins recounted from the rounds, ranks in order of wins.
func TestStandingsCLI_SwissFinalStandings(t *testing.T) {
	t.Parallel()
	input := swissExample
	for range 2 {
		code, out, errs := runSwiss(t, input)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got swissOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		next := got.swissInput
		next.Round = 0
		rd := swissRoundJSON{}
		for _, g := range got.Pairings {
			g.Result = "sente"
			rd.Games = append(rd.Games, g)
		}
		if got.Bye != nil {
			rd.Bye = *got.Bye
		}
		next.Rounds = append(next.Rounds, rd)
		b, _ := json.Marshal(next)
		input = string(b)
	}
	code, out, errs := runStdin(t, input, "standings", "swiss")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var st swissStandingsOutput
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	var in swissInput
	_ = json.Unmarshal([]byte(input), &in)
	wins := map[string]float64{}
	for _, r := range in.Rounds {
		for _, g := range r.Games {
			switch g.Result {
			case "sente":
				wins[g.Sente]++
			case "gote":
				wins[g.Gote]++
			default:
				wins[g.Sente] += 0.5
				wins[g.Gote] += 0.5
			}
		}
		if r.Bye != "" {
			wins[r.Bye]++
		}
	}
	if !st.Final || st.RoundsPlayed != 3 || len(st.Standings) != 5 {
		t.Fatalf("final %v after %d rounds, %d lines", st.Final, st.RoundsPlayed, len(st.Standings))
	}
	for k, l := range st.Standings {
		if l.Wins != wins[l.ID] {
			t.Errorf("%s: %v wins, the rounds say %v", l.ID, l.Wins, wins[l.ID])
		}
		if k > 0 && (l.Wins > st.Standings[k-1].Wins || l.Rank < st.Standings[k-1].Rank) {
			t.Errorf("line %d out of order: %+v after %+v", k, l, st.Standings[k-1])
		}
	}
	// The draw's output is accepted too, and bad input names the field.
	if code, _, errs := runStdin(t, strings.Replace(input, `"colours":"balance"`, `"colours":"dice"`, 1), "standings", "swiss"); code != 2 || !strings.Contains(errs, "settings.colours") {
		t.Errorf("bad colours: exit %d %s", code, errs)
	}
}

// TestStandingsCLI_PoolsFinalStandings plays both modes to the end and
// checks kisen standings pools: finished, qualifiers first (N wins), then
// the players out (M losses); a history that breaks a rule is exit 2.
func TestStandingsCLI_PoolsFinalStandings(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"blocks", "records"} {
		final := playPoolsCLI(t, strings.Replace(poolsExample, `"mode":"blocks"`, `"mode":"`+mode+`"`, 1))
		b, _ := json.Marshal(final)
		code, out, errs := runStdin(t, string(b), "standings", "pools")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", mode, code, errs)
		}
		var st poolsStandingsOutput
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatal(err)
		}
		if !st.Finished || len(st.Standings) != 11 || len(st.Qualified)+len(st.Eliminated) != 11 {
			t.Fatalf("%s: finished %v, %d lines, %d + %d", mode, st.Finished, len(st.Standings), len(st.Qualified), len(st.Eliminated))
		}
		for k, l := range st.Standings {
			want := pairing.StatusQualified
			if k >= len(st.Qualified) {
				want = pairing.StatusOut
			}
			if l.Status != want || (want == pairing.StatusQualified) != strings.HasPrefix(l.Record, "2-") {
				t.Errorf("%s: line %d %+v", mode, k, l)
			}
		}
	}
	broken := `{"mode":"records","wins":2,"losses":2,"seed":1,"players":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}],
	 "games":[{"round":1,"players":["a","b"],"winner":"a"},{"round":1,"players":["c","d"],"winner":"c"},
	          {"round":2,"players":["a","b"],"winner":"a"},{"round":2,"players":["c","d"],"winner":"d"}]}`
	if code, _, errs := runStdin(t, broken, "standings", "pools"); code != 2 || !strings.Contains(errs, "games") || !strings.Contains(errs, "pools-rematch") {
		t.Errorf("broken history: exit %d %s", code, errs)
	}
}

// TestDrawCLI_FellowDiscipleOneSpelling: both draws read fellow_disciple;
// the Swiss command's old fellow_disciples is read as the same setting and
// echoed as fellow_disciple; both keys disagreeing is bad input naming it.
func TestDrawCLI_FellowDiscipleOneSpelling(t *testing.T) {
	t.Parallel()
	old := strings.Replace(swissExample, `"fellow_disciple":"avoid"`, `"fellow_disciples":"never"`, 1)
	code, out, errs := runSwiss(t, old)
	if code != 0 || !strings.Contains(out, `"fellow_disciple": "never"`) || strings.Contains(out, "fellow_disciples") {
		t.Fatalf("old spelling: exit %d %s %s", code, out, errs)
	}
	if code, _, errs := runSwiss(t, out, "--check"); code != 0 {
		t.Fatalf("--check of the echoed output: exit %d %s", code, errs)
	}
	both := strings.Replace(swissExample, `"fellow_disciple":"avoid"`, `"fellow_disciple":"avoid","fellow_disciples":"never"`, 1)
	if code, _, errs := runSwiss(t, both); code != 2 || !strings.Contains(errs, "settings.relations.fellow_disciples") {
		t.Fatalf("both spellings disagreeing: exit %d %s", code, errs)
	}
	pools := strings.Replace(poolsExample, `"fellow_disciple":"avoid"`, `"fellow_disciples":"never"`, 1)
	code, out, errs = runPools(t, pools)
	if code != 0 || !strings.Contains(out, `"fellow_disciple": "never"`) || strings.Contains(out, "fellow_disciples") {
		t.Fatalf("pools, old spelling: exit %d %s", code, errs)
	}
}

// FuzzDrawSwissCLI: any stdin answers 0, 1 or 2 without a panic; 0 prints
// JSON, a drawn round passes --check (colour rules included), and kisen
// standings swiss reads the draw's output.
func FuzzDrawSwissCLI(f *testing.F) {
	f.Add(swissExample, false)
	f.Add(strings.Replace(swissExample, `"fellow_disciple"`, `"fellow_disciples"`, 1), false)
	f.Add(`{"players":[{"id":"a"},{"id":"b"},{"id":"c"}],"settings":{"rounds":2,"colours":"balance"},"rounds":[],"seed":3}`, false)
	f.Add(`{"players":[{"id":"a"},{"id":"b"}],"settings":{"rounds":2,"colours":"furigoma"},"rounds":[],"seed":3,"pairings":[{"board":1,"players":["a","b"]}]}`, true)
	f.Fuzz(func(t *testing.T, in string, check bool) {
		var args []string
		if check {
			args = append(args, "--check")
		}
		code, out, errs := runSwiss(t, in, args...)
		switch code {
		case 0:
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("exit 0 with non-JSON output: %v", err)
			}
			if !check {
				if c, chk, e := runSwiss(t, out, "--check"); c != 0 {
					t.Fatalf("the drawn round fails --check: exit %d %s %s", c, chk, e)
				}
				if c, _, e := runStdin(t, out, "standings", "swiss"); c != 0 {
					t.Fatalf("kisen standings swiss of the draw's output: exit %d %s", c, e)
				}
			}
		case 1, 2:
			if errs == "" {
				t.Fatalf("exit %d with nothing on stderr", code)
			}
		default:
			t.Fatalf("exit %d", code)
		}
	})
}
