package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kisen/adjudication"
)

func runAdjudicateCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"adjudicate"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func adjudicateJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type cliOutcome struct {
	Result   string   `json:"result"`
	Winner   string   `json:"winner"`
	Reason   string   `json:"reason"`
	Ply      int      `json:"ply"`
	Rules    []string `json:"rules"`
	Articles []string `json:"articles"`
	Notes    []struct {
		Code string `json:"code"`
	} `json:"notes"`
	Redo *struct {
		Number  int `json:"number"`
		Players struct {
			Sente struct{ Name string } `json:"sente"`
			Gote  struct{ Name string } `json:"gote"`
		} `json:"players"`
		Allowance *struct {
			Sente string `json:"sente"`
			Gote  string `json:"gote"`
		} `json:"allowance"`
		Break string `json:"break"`
	} `json:"redo"`
	Findings *struct {
		Plies      int `json:"plies"`
		Sennichite []struct {
			Ply       int    `json:"ply"`
			Perpetual bool   `json:"perpetual"`
			Loser     string `json:"loser"`
		} `json:"sennichite"`
	} `json:"findings"`
}

func decodeOutcome(t *testing.T, s string) cliOutcome {
	t.Helper()
	var o cliOutcome
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	return o
}

func shuffleMoves(cycles int) []string {
	var m []string
	for range cycles {
		m = append(m, "5i5h", "5a5b", "5h5i", "5b5a")
	}
	return m
}

// A record that ends in 千日手 → a redo game with colours swapped and the
// D-R2 allowance (the old gote's 40m topped up to 1h becomes sente's, the
// old sente's 2h10m plus the same 20m becomes gote's).
func TestAdjudicate_D_S1_D_R1_D_R2_SennichiteRecordToRedo(t *testing.T) {
	t.Parallel()
	for _, ending := range []map[string]any{
		{"kind": "sennichite"},
		{"kind": "resign", "by": "sente"}, // the record is authoritative
	} {
		in := adjudicateJSON(t, map[string]any{
			"players":   map[string]any{"sente": map[string]string{"name": "羽生"}, "gote": map[string]string{"name": "藤井"}},
			"remaining": map[string]string{"sente": "2h10m", "gote": "40m"},
			"moves":     shuffleMoves(3),
			"ending":    ending,
		})
		code, stdout, stderr := runAdjudicateCmd(t, in)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		o := decodeOutcome(t, stdout)
		if o.Result != "redo" || o.Reason != "sennichite" || o.Ply != 12 {
			t.Fatalf("%s", stdout)
		}
		for _, r := range []string{"D-S1", "D-R1", "D-R2"} {
			if !slices.Contains(o.Rules, r) {
				t.Fatalf("rules %v lack %s", o.Rules, r)
			}
		}
		r := o.Redo
		if r == nil || r.Number != 1 || r.Players.Sente.Name != "藤井" || r.Players.Gote.Name != "羽生" {
			t.Fatalf("redo %s", stdout)
		}
		if r.Allowance == nil || r.Allowance.Sente != "1h0m0s" || r.Allowance.Gote != "2h30m0s" || r.Break != "30m0s" {
			t.Fatalf("allowance %s", stdout)
		}
		if o.Findings == nil || o.Findings.Plies != 12 {
			t.Fatalf("findings %s", stdout)
		}
		if ending["kind"] == "resign" && (len(o.Notes) == 0 || o.Notes[0].Code != "record_overrides_report") {
			t.Fatalf("no note that the record overrode the report: %s", stdout)
		}
	}
}

// Reported as a plain 千日手, but the record shows sente checked with
// every move: sente loses (D-S4).
func TestAdjudicate_D_S4_RecordShowsPerpetualCheck(t *testing.T) {
	t.Parallel()
	var moves []string
	for range 3 {
		moves = append(moves, "4e5e", "5a4a", "5e4e", "4a5a")
	}
	in := adjudicateJSON(t, map[string]any{
		"record": "position sfen 4k4/9/9/9/5R3/9/9/9/K8 b - 1 moves " + strings.Join(moves, " "),
		"format": "usi",
		"ending": map[string]any{"kind": "sennichite"},
	})
	code, stdout, stderr := runAdjudicateCmd(t, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	o := decodeOutcome(t, stdout)
	if o.Result != "gote_win" || o.Winner != "gote" || o.Reason != "perpetual_check" || o.Redo != nil {
		t.Fatalf("%s", stdout)
	}
	if !slices.Contains(o.Rules, "D-S4") || !slices.Contains(o.Articles, "000 第10条第10項") {
		t.Fatalf("citations %v %v", o.Rules, o.Articles)
	}
}

// D-X3 via the command: the record's 二歩 nobody noticed, found after the
// resignation, unless the organiser set 投了優先.
func TestAdjudicate_D_X3_RecordFoulAfterResignation(t *testing.T) {
	t.Parallel()
	game := map[string]any{
		"start":  "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
		"moves":  []string{"P*5e", "5a5b"},
		"ending": map[string]any{"kind": "resign", "by": "gote"},
	}
	code, stdout, stderr := runAdjudicateCmd(t, adjudicateJSON(t, game))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if o := decodeOutcome(t, stdout); o.Winner != "gote" || o.Reason != "foul_after_game" || o.Ply != 1 {
		t.Fatalf("%s", stdout)
	}
	game["settings"] = map[string]any{"resignation_priority": true}
	code, stdout, _ = runAdjudicateCmd(t, adjudicateJSON(t, game))
	if o := decodeOutcome(t, stdout); code != 0 || o.Winner != "sente" || o.Reason != "resignation" {
		t.Fatalf("%s", stdout)
	}
}

func TestAdjudicate_BadInputExits2NamingTheField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in    string
		field string
	}{
		{`{"ending": {"kind": "resign", "by": "nobody"}}`, "ending.by"},
		{`{"ending": {"kind": "resign"}}`, "ending.by"},
		{`{"ending": {"kind": "resign", "by": "sente"}, "settings": {"jishogi": "27"}}`, "settings.jishogi"},
		{`{"ending": {"kind": "resign", "by": "sente"}, "moves": ["7g7f", "bogus"]}`, "moves[1]"},
		{`{"ending": {"kind": "resign", "by": "sente"}, "handicap": "百枚落ち", "moves": ["7g7f"]}`, "handicap"},
		{`{"ending": {"kind": "mate"}, "moves": ["7g7f"]}`, "ending.kind"},
		{`{"ending": {"kind": "resign", "by": "sente"}, "fouls": [{"kind": "nifu", "offender": "gote"}]}`, "fouls[0].found"},
		{`not json`, "input"},
		{``, "input"},
	}
	for _, c := range cases {
		code, stdout, stderr := runAdjudicateCmd(t, c.in)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.field) {
			t.Fatalf("%s: exit %d, stderr %q, want 2 naming %s", c.in, code, stderr, c.field)
		}
	}
}

func TestAdjudicate_Flags(t *testing.T) {
	t.Parallel()
	if code, _, stderr := runAdjudicateCmd(t, "", "-h"); code != 0 || !strings.Contains(stderr, "usage: kisen adjudicate") {
		t.Fatalf("-h: %d %q", code, stderr)
	}
	if code, _, _ := runAdjudicateCmd(t, "{}", "extra"); code != 2 {
		t.Fatalf("extra argument: exit %d", code)
	}
	if code, _, _ := runAdjudicateCmd(t, "{}", "--nope"); code != 2 {
		t.Fatalf("unknown flag: exit %d", code)
	}
}

// FuzzAdjudicate feeds arbitrary JSON to the command's path: it never
// panics; bad input is ErrInvalid; every outcome has a reason, a seed
// article and known rule ids, and a consistent winner.
func FuzzAdjudicate(f *testing.F) {
	seeds := []string{
		`{"ending":{"kind":"resign","by":"gote"}}`,
		`{"ending":{"kind":"sennichite"},"remaining":{"sente":"10m","gote":"2h"},"moves":["5i5h","5a5b","5h5i","5b5a","5i5h","5a5b","5h5i","5b5a","5i5h","5a5b","5h5i","5b5a"]}`,
		`{"ending":{"kind":"jishogi_agreement"},"points":{"sente":20,"gote":34}}`,
		`{"settings":{"kind":"amateur","jishogi":"27","declaration":"27","repeated_redo":{"after":1,"then":"furigoma"}},"redo_count":1,"ending":{"kind":"max_moves","ply":500}}`,
		`{"ending":{"kind":"declaration","by":"sente","time_left":false},"declaration":{"king_in_camp":true,"pieces_in_camp":10,"points":28}}`,
		`{"ending":{"kind":"foul","by":"gote","foul":"two_moves"},"fouls":[{"kind":"matta","offender":"sente","found":"after"}]}`,
		`{"game_id":"g","ending":{"kind":"resign","by":"sente"},"rulings":[{"id":"r1","game_id":"g","kind":"foul_loss","at":"2026-05-14T10:00:00Z","arbiter":{"name":"A"},"player":"gote","reason":"x"}]}`,
		`{"ending":{"kind":"forfeit","both_absent":true}}`,
		`{"start":"4k4/9/4P4/9/9/9/9/9/4K4 b G 1","moves":["G*5b"],"ending":{"kind":"mate"}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	domainIDs := []string{"D-S1", "D-S2", "D-S3", "D-S4", "D-J1", "D-J2", "D-J3", "D-J4", "D-R1", "D-R2", "D-R3", "D-R4",
		"D-X1", "D-X2", "D-X3", "D-X4", "D-X5", "D-X6", "D-K1", "D-K2", "D-K3", "D-T1", "D-T2", "D-T3"}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := adjudicate(data)
		if err != nil {
			if !errors.Is(err, adjudication.ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			return
		}
		o := out.Outcome
		if o.Reason == "" || len(o.Articles) == 0 {
			t.Fatalf("outcome without reason or article: %+v", o)
		}
		for _, r := range o.Rules {
			if !slices.Contains(domainIDs, r) {
				t.Fatalf("unknown rule id %q", r)
			}
		}
		switch o.Result {
		case adjudication.SenteWin, adjudication.GoteWin:
			if o.Winner == nil || o.Loser == nil || *o.Winner == *o.Loser || !o.MatchComplete {
				t.Fatalf("win without a consistent winner: %+v", o)
			}
		case adjudication.Redo:
			if o.Redo == nil || o.MatchComplete || o.Winner != nil {
				t.Fatalf("redo without a redo game: %+v", o)
			}
		case adjudication.Pending:
			if o.DecidedBy == "" {
				t.Fatalf("pending without who decides: %+v", o)
			}
		case adjudication.BothLose:
		default:
			t.Fatalf("unknown result %q", o.Result)
		}
	})
}

// A KIF record alone: the ending comes from its terminal word (千日手),
// and the redo follows (D-R1, D-R2).
func TestAdjudicate_D_R1_KIFRecordEndingFromTerminalWord(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("先手：甲\n後手：乙\n手数----指手---------消費時間--\n")
	ply := 0
	for range 3 {
		for _, m := range []string{"５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"} {
			ply++
			b.WriteString(strings.Repeat(" ", 4-len(itoa(ply))) + itoa(ply) + " " + m + "\n")
		}
	}
	b.WriteString("  13 千日手\n")
	in := adjudicateJSON(t, map[string]any{
		"record":    b.String(),
		"remaining": map[string]string{"sente": "3h", "gote": "1h30m"},
	})
	code, stdout, stderr := runAdjudicateCmd(t, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	o := decodeOutcome(t, stdout)
	if o.Result != "redo" || o.Reason != "sennichite" || o.Redo == nil || o.Redo.Allowance.Sente != "1h30m0s" || o.Redo.Allowance.Gote != "3h0m0s" {
		t.Fatalf("%s", stdout)
	}
	if len(o.Notes) == 0 || o.Notes[0].Code != "ending_from_record" {
		t.Fatalf("notes: %s", stdout)
	}
	// Without a terminal word and without an ending there is nothing to decide.
	in = adjudicateJSON(t, map[string]any{"moves": []string{"7g7f"}})
	if code, _, stderr := runAdjudicateCmd(t, in); code != 2 || !strings.Contains(stderr, "ending.kind") {
		t.Fatalf("exit %d %q", code, stderr)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Issue 21 item 7: `kisen adjudicate` refuses moves or a record longer than
// the longest game the rules allow, naming the field and the limit, before
// replaying them.
func TestAdjudicate_GameLongerThanTheRulesAllowExits2(t *testing.T) {
	t.Parallel()
	long := shuffleMoves(adjudication.MaxRecordPlies/4 + 1) // 2028 moves
	for _, g := range []map[string]any{
		{"ending": map[string]string{"kind": "resign", "by": "sente"}, "moves": long},
		{"ending": map[string]string{"kind": "resign", "by": "sente"}, "record": "position startpos moves " + strings.Join(long, " ")},
	} {
		code, _, stderr := runAdjudicateCmd(t, adjudicateJSON(t, g))
		if code != 2 || !strings.Contains(stderr, fmt.Sprint(adjudication.MaxRecordPlies)) {
			t.Errorf("%d moves: exit %d, stderr %q; want 2 naming the limit", len(long), code, stderr)
		}
	}
}
