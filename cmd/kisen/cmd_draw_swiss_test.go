package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runSwiss(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "swiss"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

const swissExample = `{"players":[
  {"id":"p1","name":"青木","rank":"三段","club":"本郷"},
  {"id":"p2","name":"井上","rank":"二段","club":"本郷"},
  {"id":"p3","name":"上田","rank":"二段","master":"t1"},
  {"id":"p4","name":"江口","rank":"初段","master":"t1"},
  {"id":"p5","name":"小川","rank":"1級"}],
 "settings":{"rounds":3,"colours":"balance",
   "relations":{"club":"avoid","master_student":"never","fellow_disciple":"avoid","family":"avoid"},
   "tiebreaks":["solkoff","sb","direct","lot"]},
 "rounds":[{"games":[{"board":1,"sente":"p1","gote":"p3","result":"sente"},{"board":2,"sente":"p4","gote":"p2","result":"gote"}],"bye":"p5"}],
 "seed":2026}`

func TestDrawSwissCLI_DrawsAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	code, out, errs := runSwiss(t, swissExample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got swissOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if got.Round != 2 || len(got.Pairings) != 2 || got.Bye == nil || *got.Bye == "p5" || len(got.Standings) != 5 {
		t.Fatalf("round %d, %d pairings, bye %v, %d standings", got.Round, len(got.Pairings), got.Bye, len(got.Standings))
	}
	if _, again, _ := runSwiss(t, swissExample); again != out {
		t.Error("same input, different output")
	}
	code, chk, errs := runSwiss(t, out, "--check")
	if code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check on the draw's output: exit %d %s %s", code, chk, errs)
	}
}

func TestDrawSwissCLI_CheckFindsRematchAndSecondBye(t *testing.T) {
	t.Parallel()
	in := strings.Replace(swissExample, `"seed":2026}`, `"seed":1,"pairings":[{"board":1,"sente":"p1","gote":"p3"},{"board":2,"sente":"p2","gote":"p4"}],"bye":"p5"}`, 1)
	code, out, _ := runSwiss(t, in, "--check")
	if code != 1 || !strings.Contains(out, "swiss-rematch") || !strings.Contains(out, "swiss-bye-twice") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestDrawSwissCLI_ExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, field string
		code            int
	}{
		{"not JSON", `{`, "input", 2},
		{"no seed", strings.Replace(swissExample, `"seed":2026`, `"round":2`, 1), "seed", 2},
		{"unknown colour", strings.Replace(swissExample, `"balance"`, `"random"`, 1), "settings.colours", 2},
		{"unknown result", strings.Replace(swissExample, `"result":"sente"`, `"result":"won"`, 1), "rounds[0].games[0].result", 2},
		{"typo field", strings.Replace(swissExample, `"seed"`, `"seeds"`, 1), "unknown field", 2},
		{"every game played, odd field, all had a bye", `{"players":[{"id":"a"},{"id":"b"},{"id":"c"}],"settings":{"rounds":4,"colours":"furigoma"},
		  "rounds":[{"games":[{"sente":"a","gote":"b","result":"sente"}],"bye":"c"},{"games":[{"sente":"a","gote":"c","result":"sente"}],"bye":"b"},{"games":[{"sente":"b","gote":"c","result":"sente"}],"bye":"a"}],"seed":1}`, "no_valid_round", 1},
		{"too large", `{"players":[` + strings.Repeat(`{"id":"x"},`, 100000) + `{"id":"y"}]}`, "more than", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runSwiss(t, tc.in)
			if code != tc.code || !strings.Contains(out+errs, tc.field) {
				t.Errorf("exit %d, want %d naming %q: %s %s", code, tc.code, tc.field, out, errs)
			}
		})
	}
}

// TestDrawSwissCLI_CheckJudgesTheEventsColourBalance: the example's round
// 2 pairing p2 (sente) – p3 and p5 (sente) – p1 takes 上田 (p3) to
// sente−gote −2. In a 3-round class that is allowed (±2 before the last
// round): --check answers ok. In a 2-round class round 2 is the last and
// ±1 holds: exit 1, swiss-colour-balance for p3 naming the limit.
func TestDrawSwissCLI_CheckJudgesTheEventsColourBalance(t *testing.T) {
	t.Parallel()
	round := `"seed":2026,"pairings":[{"board":1,"sente":"p5","gote":"p1"},{"board":2,"sente":"p2","gote":"p3"}],"bye":"p4"}`
	in := strings.Replace(swissExample, `"seed":2026}`, round, 1)
	if code, out, errs := runSwiss(t, in, "--check"); code != 0 || !strings.Contains(out, `"ok": true`) {
		t.Fatalf("3 rounds: exit %d %s %s", code, out, errs)
	}
	last := strings.Replace(in, `"rounds":3`, `"rounds":2`, 1)
	code, out, errs := runSwiss(t, last, "--check")
	var got drawCheckOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v %s", err, out)
	}
	if code != 1 || len(got.Violations) != 1 || got.Violations[0].Rule != "swiss-colour-balance" ||
		got.Violations[0].Players[0] != "p3" || !strings.Contains(got.Violations[0].Message, "past ±1 in the class's last round") {
		t.Fatalf("2 rounds: exit %d %+v %s", code, got.Violations, errs)
	}
}
