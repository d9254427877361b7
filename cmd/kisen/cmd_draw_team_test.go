package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runTeam(t *testing.T, sub, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", sub}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

const teamSwissExample = `{"teams":[
  {"id":"t1","name":"東大A","affiliation":"東京大学","rating":1800},
  {"id":"t2","name":"東大B","affiliation":"東京大学","rating":1500},
  {"id":"t3","name":"早稲田","affiliation":"早稲田大学","rating":1700},
  {"id":"t4","name":"慶應","affiliation":"慶應義塾大学","rating":1600},
  {"id":"t5","name":"明治","affiliation":"明治大学","rating":1400}],
 "settings":{"rounds":4,"match":{"boards":5,"tie":"captain"},"points":{"win":2,"draw":1,"loss":0,"bye":2,"bye_board_wins":3},
   "affiliation":"avoid","tiebreaks":["direct","weighted","captain","buchholz","sb","lot"]},
 "rounds":[{"matches":[{"table":1,"a":"t1","b":"t3","boards":["a","b","a","draw","b"]},{"table":2,"a":"t4","b":"t2","boards":["b","b","a_forfeit","a","b"]}],"bye":"t5"}],
 "seed":2026}`

// TestDrawTeamSwissCLI_DrawsAndChecksItsOwnOutput: the draw is reproducible,
// keeps the two 東京大学 teams apart, gives the bye to a team without one,
// and --check accepts its own output.
func TestDrawTeamSwissCLI_DrawsAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	code, out, errs := runTeam(t, "team-swiss", teamSwissExample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got teamSwissOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if got.Round != 2 || len(got.Matches) != 2 || got.Bye == nil || *got.Bye == "t5" || len(got.Standings) != 5 {
		t.Fatalf("round %d, %d matches, bye %v, %d standings", got.Round, len(got.Matches), got.Bye, len(got.Standings))
	}
	for _, m := range got.Matches {
		if (m.A == "t1" && m.B == "t2") || (m.A == "t2" && m.B == "t1") {
			t.Fatalf("東京大学 against itself: %+v", m)
		}
	}
	if _, again, _ := runTeam(t, "team-swiss", teamSwissExample); again != out {
		t.Error("same input, different output")
	}
	code, chk, errs := runTeam(t, "team-swiss", out, "--check")
	if code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check on the draw's output: exit %d %s %s", code, chk, errs)
	}
}

// TestDrawTeamSwissCLI_CheckFindsRematchAndSecondBye: a hand-made round
// repeating round 1's match and giving t5 a second bye exits 1, naming both.
func TestDrawTeamSwissCLI_CheckFindsRematchAndSecondBye(t *testing.T) {
	t.Parallel()
	in := strings.Replace(teamSwissExample, `"seed":2026}`, `"seed":1,"matches":[{"table":1,"a":"t1","b":"t3"},{"table":2,"a":"t2","b":"t4"}],"bye":"t5"}`, 1)
	code, out, _ := runTeam(t, "team-swiss", in, "--check")
	if code != 1 || !strings.Contains(out, "team-swiss-rematch") || !strings.Contains(out, "team-swiss-bye-twice") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestDrawTeamSwissCLI_BadInputNamesTheField: exit 2 with the field named.
func TestDrawTeamSwissCLI_BadInputNamesTheField(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"seed: missing":                  strings.Replace(teamSwissExample, `"seed":2026`, `"round":2`, 1),
		"rounds[0].matches[0].boards[3]": strings.Replace(teamSwissExample, `"draw","b"]`, `"jishogi","b"]`, 1),
		"unknown field":                  strings.Replace(teamSwissExample, `"seed":2026`, `"seed":1,"colour":"x"`, 1),
		"settings.match.tie":             strings.Replace(teamSwissExample, `"tie":"captain"`, `"tie":"coin"`, 1),
		"rounds[0].bye":                  strings.Replace(teamSwissExample, `"bye":"t5"`, `"bye":"t9"`, 1),
	}
	for want, in := range cases {
		code, _, errs := runTeam(t, "team-swiss", in)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, %s", want, code, errs)
		}
	}
}

// TestDrawTeamSwissCLI_NoRoundExits1: two teams that have met have no
// round 2; the output names the reason.
func TestDrawTeamSwissCLI_NoRoundExits1(t *testing.T) {
	t.Parallel()
	in := `{"teams":[{"id":"a"},{"id":"b"}],"settings":{"rounds":3,"match":{"boards":3}},
	 "rounds":[{"matches":[{"a":"a","b":"b","boards":["a","a","b"]}]}],"seed":1}`
	code, out, _ := runTeam(t, "team-swiss", in)
	if code != 1 || !strings.Contains(out, `"error": "team_no_round"`) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestDrawTeamLeagueCLI_DrawsAndChecksItsOwnOutput: 16 teams, 15 rounds,
// accepted by --check; a schedule with a repeated pair is refused.
func TestDrawTeamLeagueCLI_DrawsAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	var teams []string
	for _, id := range strings.Fields("u01 u02 u03 u04 u05 u06 u07 u08 u09 u10 u11 u12 u13 u14 u15 u16") {
		teams = append(teams, `{"id":"`+id+`"}`)
	}
	in := `{"teams":[` + strings.Join(teams, ",") + `],"seed":5}`
	code, out, errs := runTeam(t, "team-league", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got teamLeagueOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Rounds) != 15 || len(got.Numbers) != 16 {
		t.Fatalf("%v: %d rounds", err, len(got.Rounds))
	}
	if code, chk, _ := runTeam(t, "team-league", out, "--check"); code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check: exit %d %s", code, chk)
	}
	got.Rounds[1] = got.Rounds[0]
	bad, _ := json.Marshal(got)
	if code, chk, _ := runTeam(t, "team-league", string(bad), "--check"); code != 1 || !strings.Contains(chk, "team-league-pairs") {
		t.Fatalf("a round repeated: exit %d %s", code, chk)
	}
	if code, _, errs := runTeam(t, "team-league", `{"teams":[{"id":"a"},{"id":"b"}]}`); code != 2 || !strings.Contains(errs, "seed") {
		t.Fatalf("no seed: exit %d %s", code, errs)
	}
}

// TestDrawTeamStandingsCLI_ResultsAndCheck: each match's result and the
// standings; --check accepts them and names a line edited by hand.
func TestDrawTeamStandingsCLI_ResultsAndCheck(t *testing.T) {
	t.Parallel()
	in := strings.Replace(strings.Replace(teamSwissExample, `"rounds":4,`, ``, 1), `"affiliation":"avoid",`, ``, 1)
	code, out, errs := runTeam(t, "team-standings", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got teamStandingsOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if r := got.Results[0][0]; r.Outcome != "a" || r.DecidedBy != "captain" {
		t.Fatalf("t1–t3 2–2 with board 1 won by t1: %+v", r)
	}
	if got.Standings[0].ID != "t2" || got.Standings[0].MatchPoints != 2 || got.Standings[0].BoardWins != 3 {
		t.Fatalf("first: %+v", got.Standings[0])
	}
	if code, chk, _ := runTeam(t, "team-standings", out, "--check"); code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check: exit %d %s", code, chk)
	}
	got.Standings[0].MatchPoints = 4
	bad, _ := json.Marshal(got)
	if code, chk, _ := runTeam(t, "team-standings", string(bad), "--check"); code != 1 || !strings.Contains(chk, "t2 has 4 match points") {
		t.Fatalf("edited line: exit %d %s", code, chk)
	}
}

// FuzzDrawTeamCLI feeds arbitrary input to the three team commands, with
// and without --check: every run ends with exit 0, 1 or 2 and never panics;
// exit 2 always says what is wrong. Run with
// go test -fuzz FuzzDrawTeamCLI ./cmd/kisen/
func FuzzDrawTeamCLI(f *testing.F) {
	f.Add(teamSwissExample, uint8(0))
	f.Add(strings.Replace(teamSwissExample, `"seed":2026}`, `"seed":1,"matches":[{"a":"t1","b":"t1"}],"bye":"t5"}`, 1), uint8(1))
	f.Add(`{"teams":[{"id":"a"},{"id":"b"},{"id":"c"}],"seed":1}`, uint8(2))
	f.Add(`{"teams":[{"id":"a"},{"id":"b"}],"settings":{"match":{"boards":3}},"rounds":[{"matches":[{"a":"a","b":"b","boards":["a","","b"]}]}]}`, uint8(4))
	f.Fuzz(func(t *testing.T, in string, which uint8) {
		sub := []string{"team-swiss", "team-league", "team-standings"}[int(which)%3]
		var args []string
		if which&4 != 0 {
			args = []string{"--check"}
		}
		code, _, errs := runTeam(t, sub, in, args...)
		if code < 0 || code > 2 {
			t.Fatalf("exit %d", code)
		}
		if code == 2 && strings.TrimSpace(errs) == "" {
			t.Fatal("exit 2 with no message")
		}
	})
}
