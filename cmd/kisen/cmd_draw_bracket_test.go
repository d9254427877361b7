package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func runBracket(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "bracket"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

const bracketExample = `{"entrants":[
  {"id":"p1","name":"一","seed":1},{"id":"p2","name":"二","seed":2},
  {"id":"p3","master":"p9"},{"id":"p4","master":"p9"},{"id":"p9"},
  {"id":"p6"},{"id":"p7"}],
 "stage":"first_preliminary","seed":12345,"draw_date":"2026-11-21",
 "master_student_pairs":[["p9","p6"]],"third_place":true}`

func TestDrawBracketCLI_D_A1_DrawsAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	code, out, errs := runBracket(t, bracketExample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got bracketOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.Size != 8 || len(got.Slots) != 8 || *got.Seed != 12345 || got.DrawDate != "2026-11-21" {
		t.Fatalf("size %d, %d slots, seed %d, date %q", got.Size, len(got.Slots), *got.Seed, got.DrawDate)
	}
	if len(got.Byes) != 1 || got.Byes[0].Player != "p1" {
		t.Errorf("byes %+v, want the single bye to seed 1", got.Byes)
	}
	students := map[string]bool{"p3": true, "p4": true, "p6": true}
	for _, g := range got.Round1 {
		a, b := g.Players[0], g.Players[1]
		if (a == "p9" && students[b]) || (b == "p9" && students[a]) {
			t.Errorf("D-A1: %s meets %s in round 1", a, b)
		}
	}
	if len(got.Round1) != 3 {
		t.Errorf("%d round-1 games, want 3", len(got.Round1))
	}
	// The same input gives the same output.
	if _, again, _ := runBracket(t, bracketExample); again != out {
		t.Error("same input, different output")
	}
	// The output is valid --check input and passes.
	code, chk, errs := runBracket(t, out, "--check")
	if code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check on the draw's own output: exit %d, %s %s", code, chk, errs)
	}
}

func TestDrawBracketCLI_CheckReportsViolations(t *testing.T) {
	t.Parallel()
	// Seed 1 away from slot 0, and p9 against its student in round 1.
	in := `{"entrants":[{"id":"p1","seed":1},{"id":"p9"},{"id":"p3","master":"p9"},{"id":"p4"}],
	  "stage":"first_preliminary","slots":["p4","p1","p9","p3"]}`
	code, out, _ := runBracket(t, in, "--check")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var got bracketCheckOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, v := range got.Violations {
		rules[v.Rule] = true
	}
	if got.OK || !rules["D-A1"] || !rules["seed-placement"] {
		t.Fatalf("violations %+v, want D-A1 and seed-placement", got.Violations)
	}
	// The same bracket in the main event breaks only the seeding.
	code, out, _ = runBracket(t, strings.Replace(in, "first_preliminary", "main", 1), "--check")
	if code != 1 || strings.Contains(out, "D-A1") {
		t.Fatalf("main event: exit %d, %s", code, out)
	}
}

func TestDrawBracketCLI_D_A1_NoValidDrawExits1WithPlayers(t *testing.T) {
	t.Parallel()
	in := `{"entrants":[{"id":"m"},{"id":"a","master":"m"},{"id":"b","master":"m"},{"id":"c","master":"m"}],"stage":"first_preliminary","seed":1}`
	code, out, errs := runBracket(t, in)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (%s)", code, errs)
	}
	var got bracketNoDraw
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Players) != "[a b c m]" || got.Error != "no_valid_draw" || !strings.Contains(errs, "D-A1") {
		t.Fatalf("players %v, error %q, stderr %q", got.Players, got.Error, errs)
	}
	// The second preliminary is exempt: the same field draws.
	if code, _, errs := runBracket(t, strings.Replace(in, "first_preliminary", "second_preliminary", 1)); code != 0 {
		t.Fatalf("second preliminary: exit %d: %s", code, errs)
	}
}

func TestDrawBracketCLI_BadInputExits2NamingTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, field string }{
		{"not JSON", `{"entrants":`, "input"},
		{"empty", ``, "input"},
		{"missing seed", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main"}`, "seed"},
		{"negative seed", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","seed":-5}`, "seed"},
		{"fractional seed", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","seed":1.5}`, "seed"},
		{"seed too large", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","seed":18446744073709551616}`, "seed"},
		{"duplicate id", `{"entrants":[{"id":"a"},{"id":"a"}],"stage":"main","seed":1}`, "entrants[1].id"},
		{"bad entrant seed", `{"entrants":[{"id":"a","seed":2},{"id":"b"}],"stage":"main","seed":1}`, "entrants[0].seed"},
		{"entrant seed not a number", `{"entrants":[{"id":"a","seed":"x"},{"id":"b"}],"stage":"main","seed":1}`, "entrants.seed"},
		{"unknown stage", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"final","seed":1}`, "stage"},
		{"bad date", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","seed":1,"draw_date":"21/11/2026"}`, "draw_date"},
		{"unknown field", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","seed":1,"seeds":3}`, "seeds"},
		{"check unknown id", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","slots":["a","zz"]}`, "slots[1]"},
		{"check without slots", `{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main"}`, "slots"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if strings.HasPrefix(tc.name, "check") {
				args = []string{"--check"}
			}
			code, _, errs := runBracket(t, tc.in, args...)
			if code != 2 || !strings.Contains(errs, tc.field) {
				t.Fatalf("exit %d, stderr %q; want 2 naming %s", code, errs, tc.field)
			}
		})
	}
}

// FuzzDrawBracketCLI: any stdin gets exit 0, 1 or 2 without a panic; a
// successful draw is JSON that --check accepts.
func FuzzDrawBracketCLI(f *testing.F) {
	f.Add(bracketExample, false)
	f.Add(`{"entrants":[{"id":"m"},{"id":"a","master":"m"}],"stage":"first_preliminary","seed":3}`, false)
	f.Add(`{"entrants":[{"id":"a"},{"id":"b"}],"stage":"main","slots":["b","a"]}`, true)
	f.Fuzz(func(t *testing.T, in string, check bool) {
		var args []string
		if check {
			args = []string{"--check"}
		}
		code, out, errs := runBracket(t, in, args...)
		if code < 0 || code > 2 {
			t.Fatalf("exit %d", code)
		}
		if code == 2 && errs == "" {
			t.Fatal("exit 2 without a message")
		}
		if check || code != 0 {
			return
		}
		if c, _, e := runBracket(t, out, "--check"); c != 0 {
			t.Fatalf("the draw's own output fails --check (exit %d): %s", c, e)
		}
	})
}
