package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func runLeague(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "league"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// c2Input is a 25-player C2 class: five masters with four students each,
// a classmate who is p01's master, a relative pair, two previous terms.
func c2Input(seed uint64) map[string]any {
	var players []map[string]string
	for i := 1; i <= 25; i++ {
		p := map[string]string{"id": fmt.Sprintf("p%02d", i)}
		if i <= 20 {
			p["master"] = fmt.Sprintf("t%d", (i-1)%5)
		}
		players = append(players, p)
	}
	players[0]["master"] = "p25"
	var last, older [][2]string
	for i := 1; i < 25; i += 2 {
		last = append(last, [2]string{fmt.Sprintf("p%02d", i), fmt.Sprintf("p%02d", i+1)})
		older = append(older, [2]string{fmt.Sprintf("p%02d", i), fmt.Sprintf("p%02d", i+1)})
	}
	dates := []any{}
	for r := 0; r < 11; r++ {
		if r < 10 && r%2 == 0 {
			dates = append(dates, []string{fmt.Sprintf("2026-%02d-10", r+1), fmt.Sprintf("2026-%02d-11", r+1)})
		} else {
			dates = append(dates, fmt.Sprintf("2026-%02d-10", r+1))
		}
	}
	return map[string]any{
		"kind": "junisen", "class": "C2", "seed": seed, "players": players,
		"relatives":      [][2]string{{"p21", "p22"}},
		"previous_terms": [][][2]string{last, older},
		"dates":          dates,
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type drawOut struct {
	Rounds []leagueRound `json:"rounds"`
	Report struct {
		RulesChecked []string         `json:"rules_checked"`
		Rematches    int              `json:"previous_term_rematches"`
		Violations   []map[string]any `json:"violations"`
	} `json:"report"`
}

func TestDrawLeague_DrawsAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	in := c2Input(7)
	code, stdout, stderr := runLeague(t, mustJSON(t, in))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out drawOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Rounds) != 11 {
		t.Fatalf("%d rounds, a 25-player class plays 11", len(out.Rounds))
	}
	for _, rule := range []string{"D-A2", "D-A4", "D-B1", "D-B2", "D-C1", "D-C2"} {
		found := false
		for _, r := range out.Report.RulesChecked {
			found = found || r == rule
		}
		if !found {
			t.Errorf("rules_checked %v lacks %s", out.Report.RulesChecked, rule)
		}
	}
	final := out.Rounds[10]
	for _, g := range final.Games {
		if g.Date != "2026-11-10" {
			t.Errorf("final-round game %s–%s dated %s (D-B1)", g.Sente, g.Gote, g.Date)
		}
	}
	// The output, fed back with the same inputs, passes --check.
	in["rounds"] = out.Rounds
	code, stdout, stderr = runLeague(t, mustJSON(t, in), "--check")
	if code != 0 || !strings.Contains(stdout, `"ok": true`) {
		t.Fatalf("--check on the drawn schedule: exit %d %s %s", code, stdout, stderr)
	}
}

func TestDrawLeague_SameSeedSameOutput(t *testing.T) {
	t.Parallel()
	_, a, _ := runLeague(t, mustJSON(t, c2Input(99)))
	_, b, _ := runLeague(t, mustJSON(t, c2Input(99)))
	_, c, _ := runLeague(t, mustJSON(t, c2Input(100)))
	if a != b {
		t.Error("one seed, two outputs")
	}
	if a == c {
		t.Error("seeds 99 and 100 gave the same schedule")
	}
}

func TestDrawLeague_CheckReportsBrokenRules(t *testing.T) {
	t.Parallel()
	in := c2Input(3)
	_, stdout, _ := runLeague(t, mustJSON(t, in))
	var out drawOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	// Make the first game of the final round a 師弟 game (D-A2) and put
	// one of its games on another day (D-B1).
	g := out.Rounds[10].Games[0]
	players := in["players"].([]map[string]string)
	for _, p := range players {
		if p["id"] == g.Gote {
			p["master"] = g.Sente
		}
	}
	out.Rounds[10].Games[1].Date = "2026-12-24"
	in["rounds"] = out.Rounds
	code, stdout, _ := runLeague(t, mustJSON(t, in), "--check")
	if code != 1 {
		t.Fatalf("exit %d, want 1 for a broken schedule", code)
	}
	for _, rule := range []string{`"rule": "D-A2"`, `"rule": "D-B1"`, `"ok": false`} {
		if !strings.Contains(stdout, rule) {
			t.Errorf("--check output lacks %s:\n%s", rule, stdout)
		}
	}
}

func TestDrawLeague_NoScheduleNamesRulesAndPlayers(t *testing.T) {
	t.Parallel()
	in := c2Input(1)
	// p01 met p02..p20 last term: in C2 (D-C2) that leaves 4 classmates.
	var last [][2]string
	for i := 2; i <= 20; i++ {
		last = append(last, [2]string{"p01", fmt.Sprintf("p%02d", i)})
	}
	in["previous_terms"] = [][][2]string{last}
	code, stdout, stderr := runLeague(t, mustJSON(t, in))
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, want := range []string{`"no_schedule"`, `"rule": "D-C2"`, `"p01"`, `"proven": true`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %s:\n%s", want, stdout)
		}
	}
}

func TestDrawLeague_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	edit := func(f func(m map[string]any)) string {
		m := c2Input(1)
		f(m)
		return mustJSON(t, m)
	}
	for _, tc := range []struct {
		name, stdin, field string
	}{
		{"not JSON", "{", "input"},
		{"unknown field", edit(func(m map[string]any) { m["sead"] = 1 }), "sead"},
		{"missing seed", edit(func(m map[string]any) { delete(m, "seed") }), "seed"},
		{"seed not a number", edit(func(m map[string]any) { m["seed"] = "abc" }), "seed"},
		{"bad class", edit(func(m map[string]any) { m["class"] = "D" }), "class"},
		{"bad date", edit(func(m map[string]any) { m["dates"].([]any)[1] = "2026-13-01" }), "dates[1][0]"},
		{"final round on two days", edit(func(m map[string]any) { m["dates"].([]any)[10] = []string{"2026-11-10", "2026-11-11"} }), "D-B1"},
		{"too many games", edit(func(m map[string]any) { m["games_per_player"] = 30 }), "games_per_player"},
		{"duplicate player", edit(func(m map[string]any) {
			m["players"] = append(m["players"].([]map[string]string), map[string]string{"id": "p01"})
		}), "players[25].id"},
		{"unknown setting", edit(func(m map[string]any) { m["settings"] = map[string]any{"max_run": 3} }), "settings"},
		{"bad policy", edit(func(m map[string]any) { m["settings"] = map[string]any{"previous_term": "sometimes"} }), "previous_term"},
	} {
		code, _, stderr := runLeague(t, tc.stdin)
		if code != 2 || !strings.Contains(stderr, tc.field) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %s", tc.name, code, stderr, tc.field)
		}
	}
	if code, _, _ := runLeague(t, "{}", "extra"); code != 2 {
		t.Errorf("a stray argument: exit %d, want 2", code)
	}
}

// TestDrawLeague_RoundRobinLeague: a 7-player challenger league, settings
// overridden (no split of the last two games).
func TestDrawLeague_RoundRobinLeague(t *testing.T) {
	t.Parallel()
	in := `{"kind":"league","seed":5,"players":[{"id":"a"},{"id":"b","master":"a"},{"id":"c"},{"id":"d","master":"c"},{"id":"e"},{"id":"f"},{"id":"g"}],
	        "settings":{"sente_gote":{"max_run":2,"split_first_two":true,"split_last_two":false}}}`
	code, stdout, stderr := runLeague(t, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out drawOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Rounds) != 7 {
		t.Fatalf("%d rounds, 7 players play 7 (one rest each)", len(out.Rounds))
	}
	met := map[string]bool{}
	for _, r := range out.Rounds {
		if len(r.Rests) != 1 {
			t.Errorf("round %d rests %v", r.Round, r.Rests)
		}
		for _, g := range r.Games {
			met[g.Sente+g.Gote], met[g.Gote+g.Sente] = true, true
		}
	}
	if len(met) != 42 {
		t.Errorf("%d ordered pairs met, a 7-player round robin has 42", len(met))
	}
	for _, g := range out.Rounds[6].Games {
		if (g.Sente == "a" && g.Gote == "b") || (g.Sente == "b" && g.Gote == "a") || (g.Sente == "c" && g.Gote == "d") || (g.Sente == "d" && g.Gote == "c") {
			t.Errorf("師弟 %s–%s in the final round (D-A5)", g.Sente, g.Gote)
		}
	}
}

// FuzzDrawLeagueInput: whatever arrives on stdin, the command answers 0
// with a schedule that passes --check, 1 with a no_schedule report, or 2
// with a message — never a panic.
func FuzzDrawLeagueInput(f *testing.F) {
	small := `{"kind":"league","seed":1,"players":[{"id":"a"},{"id":"b","master":"a"},{"id":"c"},{"id":"d"},{"id":"e"}]}`
	f.Add(small)
	f.Add(`{"kind":"junisen","class":"C2","seed":3,"games_per_player":2,"players":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}],"previous_terms":[[["a","b"]]]}`)
	f.Add(`{"kind":"junisen","class":"B1","seed":18446744073709551615,"players":[{"id":"x"},{"id":"y"},{"id":"z"}],"dates":["2026-01-01",["2026-02-01"],"2026-03-01"]}`)
	f.Add(`[]`)
	f.Add(`{"kind":"league","seed":2,"players":[{"id":"a"},{"id":"b"},{"id":"c"}],"rounds":[{"round":1,"games":[{"sente":"a","gote":"a"},{"sente":"x","gote":"b"}],"rests":["c","c"]},{"games":[]}]}`)
	f.Fuzz(func(t *testing.T, stdin string) {
		code, stdout, stderr := runLeague(t, stdin)
		switch code {
		case 0:
			var out struct {
				Rounds []leagueRound `json:"rounds"`
			}
			if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Rounds) == 0 {
				t.Fatalf("exit 0 without a schedule: %v %q", err, stdout)
			}
			var in map[string]any
			dec := json.NewDecoder(strings.NewReader(stdin))
			dec.UseNumber() // keep a uint64 seed exact
			if err := dec.Decode(&in); err != nil {
				t.Fatalf("exit 0 on input that is not a JSON object: %v", err)
			}
			in["rounds"] = out.Rounds
			if c, o, e := runLeague(t, mustJSON(t, in), "--check"); c != 0 {
				t.Fatalf("the drawn schedule fails --check: %d %s %s", c, o, e)
			}
		case 1:
			if !strings.Contains(stdout, "no_schedule") {
				t.Fatalf("exit 1 without a no_schedule report: %q %q", stdout, stderr)
			}
		case 2:
			if stderr == "" {
				t.Fatal("exit 2 without a message")
			}
		default:
			t.Fatalf("exit %d", code)
		}
		// --check on the same bytes judges whatever "rounds" they carry.
		if code, _, stderr := runLeague(t, stdin, "--check"); code < 0 || code > 2 || (code == 2 && stderr == "") {
			t.Fatalf("--check: exit %d %q", code, stderr)
		}
	})
}
