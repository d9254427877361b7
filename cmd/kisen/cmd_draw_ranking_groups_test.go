package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func runRanking(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "ranking-groups"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// rankingExample is two groups of eight: 1組 sends its winner and runner-up
// to the 本戦 and relegates two through the 残留決定戦; 2組 sends its winner,
// promotes winner and runner-up and the 昇級者決定戦's winner.
const rankingExample = `{"groups":[
 {"group":1,"places":[{"source":"winner","slot":"1組1位"},{"source":"runner_up","slot":"1組2位"}],
  "promoted":[],"survival":{"round":1,"relegated":2},
  "slots":["a1","a2","a3","a4","a5","a6","a7","a8"],"results":[]},
 {"group":2,"places":[{"source":"winner","slot":"2組1位"}],
  "promoted":[{"source":"winner"},{"source":"runner_up"},{"source":"playoff_winner","index":1}],
  "playoff":{"from_round":1,"to_round":2,"winners":1},
  "slots":["b1","b2","b3","b4","b5","b6","b7","b8"],"results":[]}],
 "new_entrants":["c1"],
 "main_event":[{"slot":"1組1位","seed":1,"enter_round":2},{"slot":"1組2位","seed":2},{"slot":"2組1位","seed":3}]}`

// TestDrawRankingGroupsCLI_D_G5_PlaysATermAndChecksItsOwnOutput feeds each
// output back with the upper line winning every ready game, as the desk
// would, until the next term's groups appear; --check accepts the result
// and refuses a tampered promotion.
func TestDrawRankingGroupsCLI_D_G5_PlaysATermAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	input := rankingExample
	var got rankingOutput
	for range 10 {
		code, out, errs := runRanking(t, input)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		got = rankingOutput{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if got.NextTerm != nil {
			break
		}
		next := rankingInput{NewEntrants: got.NewEntrants, MainEvent: got.MainEvent}
		for _, g := range got.Groups {
			in := g.rankingGroupIn
			for _, id := range g.Next {
				for _, x := range g.Games {
					if x.Game == id {
						in.Results = append(in.Results, rankingResult{Game: id, Winner: x.Players[0]})
					}
				}
			}
			next.Groups = append(next.Groups, in)
		}
		b, _ := json.Marshal(next)
		input = string(b)
	}
	if got.NextTerm == nil {
		t.Fatal("no next term after 10 passes")
	}
	// Upper line wins: 1組 R1 losers a2 a4 a6 a8; 残留決定戦 a2–a4, a6–a8,
	// losers a4 a8 relegated. 2組: b1 wins, b5 runner-up; the 昇級者決定戦
	// (R1 losers b2 b4 b6 b8, then the R2 losers b3 b7 crosswise) is won by b2.
	one, two := got.Groups[0].Outcome, got.Groups[1].Outcome
	if !slices.Equal(one.Relegated, []string{"a4", "a8"}) || one.Places[0].Player != "a1" || one.Places[1].Player != "a5" {
		t.Fatalf("1組 %+v", one)
	}
	if !slices.Equal(two.Promoted, []string{"b1", "b5", "b2"}) {
		t.Fatalf("2組 promoted %v", two.Promoted)
	}
	g1 := got.NextTerm.Groups[0]
	if len(g1) != 9 || !slices.Contains(g1, "b2") || slices.Contains(g1, "a4") {
		t.Fatalf("next 1組 %v", g1)
	}
	g2 := got.NextTerm.Groups[1]
	if !slices.Contains(g2, "a8") || !slices.Contains(g2, "c1") || slices.Contains(g2, "b1") {
		t.Fatalf("next 2組 %v", g2)
	}
	if m := got.MainEventEntrants; len(m) != 3 || m[0] != (rankingMainEntrant{ID: "a1", Seed: 1, EnterRound: 2}) ||
		m[1] != (rankingMainEntrant{ID: "a5", Seed: 2}) || m[2] != (rankingMainEntrant{ID: "b1", Seed: 3}) {
		t.Fatalf("本戦 entrants %+v", m)
	}
	final, _ := json.Marshal(got)
	if code, out, errs := runRanking(t, string(final), "--check"); code != 0 || !strings.Contains(out, `"ok": true`) {
		t.Fatalf("--check of its own output: exit %d %s %s", code, out, errs)
	}
	got.Groups[1].Outcome.Promoted = []string{"b1", "b5", "b3"}
	bad, _ := json.Marshal(got)
	if code, out, _ := runRanking(t, string(bad), "--check"); code != 1 || !strings.Contains(out, "outcome.promoted") {
		t.Fatalf("--check of a tampered promotion: exit %d %s", code, out)
	}
}

// TestDrawRankingGroupsCLI_D_G1_BadInputNamesTheField: exit 2 and the field.
func TestDrawRankingGroupsCLI_D_G1_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, field string }{
		{`{"groups":[]}`, "groups"},
		{strings.Replace(rankingExample, `"relegated":2`, `"relegated":3`, 1), "groups[0].survival.relegated"},
		{strings.Replace(rankingExample, `"group":2,`, `"group":3,`, 1), "groups[1].group"},
		{strings.Replace(rankingExample, `"promoted":[],`, `"promotd":[],`, 1), "promotd"},
		{strings.Replace(rankingExample, `"results":[]}],`, `"results":[{"game":"R9-G1","winner":"b1"}]}],`, 1), "groups[1]: results[0].game"},
	} {
		code, _, errs := runRanking(t, c.in)
		if code != 2 || !strings.Contains(errs, c.field) {
			t.Errorf("%s: exit %d, %q", c.field, code, errs)
		}
	}
}
