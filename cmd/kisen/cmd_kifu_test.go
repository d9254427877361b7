package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kisen/office"
)

func sample(name string) string { return filepath.Join("..", "..", "rules", "kifu", "testdata", name) }

type checkOut struct {
	File     string `json:"file"`
	Format   string `json:"format"`
	Encoding string `json:"encoding"`
	Moves    int    `json:"moves"`
	Legal    int    `json:"legal"`
	Final    string `json:"final_sfen"`
	Result   struct {
		Outcome string `json:"outcome"`
		Reason  string `json:"reason"`
		Word    string `json:"word"`
	} `json:"result"`
	Foul *struct {
		Ply  int    `json:"ply"`
		Line int    `json:"line"`
		Kind string `json:"kind"`
		Move string `json:"move"`
	} `json:"foul"`
	Sennichite *struct {
		Ply       int    `json:"ply"`
		Perpetual bool   `json:"perpetual"`
		Loser     string `json:"loser"`
	} `json:"sennichite"`
	Jishogi struct {
		Sente int `json:"sente"`
		Gote  int `json:"gote"`
	} `json:"jishogi"`
	Declaration struct {
		Side       string `json:"side"`
		Federation struct {
			Result string `json:"result"`
		} `json:"federation"`
		Rule27 struct {
			Result string `json:"result"`
		} `json:"rule27"`
	} `json:"declaration"`
}

func TestKifuCheck_OneJSONLinePerRecord(t *testing.T) {
	t.Parallel()
	code, out, errs := runKisen(t, "", "kifu", "check", sample("nifu.kif"), sample("perpetual.csa"), sample("lance_sjis.kif"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want one per record:\n%s", len(lines), out)
	}
	var got [3]checkOut
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &got[i]); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
	}
	// D-X1: 二歩 at move 13, on line 16 of the file.
	nifu := got[0]
	if nifu.Format != "kif" || nifu.Moves != 13 || nifu.Legal != 12 || nifu.Foul == nil ||
		nifu.Foul.Kind != "nifu" || nifu.Foul.Ply != 13 || nifu.Foul.Line != 16 || nifu.Foul.Move != "▲７七歩" {
		t.Errorf("nifu.kif: %+v foul %+v", nifu, nifu.Foul)
	}
	if nifu.Result.Outcome != "gote_win" || nifu.Result.Word != "反則勝ち" {
		t.Errorf("nifu.kif result %+v", nifu.Result)
	}
	// D-S4: Sente checked with every move of the cycle and loses.
	perp := got[1]
	if perp.Sennichite == nil || !perp.Sennichite.Perpetual || perp.Sennichite.Loser != "sente" || perp.Sennichite.Ply != 12 {
		t.Errorf("perpetual.csa: %+v", perp.Sennichite)
	}
	if perp.Result.Reason != "sennichite" || perp.Format != "csa" {
		t.Errorf("perpetual.csa result %+v", perp.Result)
	}
	// Shift_JIS detected; 香落ち credits the lance to 上手 (D-J): 27 each.
	sj := got[2]
	if sj.Encoding != "Shift_JIS" || sj.Jishogi.Sente != 27 || sj.Jishogi.Gote != 27 || sj.Result.Reason != "time_up" {
		t.Errorf("lance_sjis.kif: %+v", sj)
	}
	if sj.Declaration.Federation.Result != "lose" || sj.Declaration.Rule27.Result != "lose" || sj.Declaration.Side != "gote" {
		t.Errorf("declaration at the end: %+v", sj.Declaration)
	}
}

func TestKifuCheck_Stdin(t *testing.T) {
	t.Parallel()
	code, out, errs := runKisen(t, "position startpos moves 7g7f 3c3d", "kifu", "check", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got checkOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Format != "usi" || got.Moves != 2 || got.Final != "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3" {
		t.Errorf("%+v", got)
	}
}

// TestKifuCheck_BadInputExits2: the file, the line and the reason.
func TestKifuCheck_BadInputExits2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.kif")
	if err := os.WriteFile(bad, []byte("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runKisen(t, "", "kifu", "check", bad, sample("even.kif"))
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errs, bad) || !strings.Contains(errs, "line 3") || !strings.Contains(errs, "origin") {
		t.Errorf("stderr %q should name the file, line 3 and the reason", errs)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("the good file should still be reported:\n%s", out)
	}
	for _, args := range [][]string{
		{"kifu", "check"},
		{"kifu", "check", filepath.Join(dir, "missing.kif")},
		{"kifu", "check", "--from", "pgn", bad},
		{"kifu"},
		{"kifu", "verify"},
	} {
		if code, _, errs := runKisen(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d stderr %q", args, code, errs)
		}
	}
}

func TestKifuConvert_EveryTarget(t *testing.T) {
	t.Parallel()
	cases := []struct {
		to, want string
	}{
		{"kif", "   1 ７六歩(77)"},
		{"ki2", "▲７六歩"},
		{"csa", "+7776FU"},
		{"usi", "position startpos moves 7g7f 3c3d"},
	}
	for _, c := range cases {
		code, out, errs := runKisen(t, "", "kifu", "convert", "--to", c.to, sample("even.kif"))
		if code != 0 {
			t.Fatalf("--to %s: exit %d: %s", c.to, code, errs)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("--to %s: output lacks %q:\n%s", c.to, c.want, out)
		}
		// Lossy targets say what they left out.
		if c.to == "csa" && !strings.Contains(errs, "variations") {
			t.Errorf("--to csa: no note about the dropped variation: %q", errs)
		}
		if c.to == "kif" && errs != "" {
			t.Errorf("--to kif: unexpected notes %q", errs)
		}
	}
	code, out, _ := runKisen(t, "", "kifu", "convert", "--to", "kif", "--sjis", sample("even.kif"))
	if code != 0 || strings.Contains(out, "７六歩") {
		t.Errorf("--sjis output should not be UTF-8 (exit %d)", code)
	}
}

func TestKifuConvert_BadInputExits2(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"kifu", "convert", sample("even.kif")},
		{"kifu", "convert", "--to", "pgn", sample("even.kif")},
		{"kifu", "convert", "--to", "csa"},
		{"kifu", "convert", "--to", "csa", "a", "b"},
	} {
		if code, _, errs := runKisen(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d stderr %q", args, code, errs)
		}
	}
	code, _, errs := runKisen(t, "PI\n+\n+7776KA\n", "kifu", "convert", "--to", "kif", "--from", "csa", "-")
	if code != 2 || !strings.Contains(errs, "line 3") {
		t.Errorf("bad CSA on stdin: exit %d stderr %q", code, errs)
	}
}

// Issue 21 item 7: the command line holds records to the same limits as the
// web and the API: more moves than the longest game the rules allow, or
// more bytes than a record may have, exit 2 naming the limit; the longest
// allowed record is read.
func TestKifuCheck_RecordLimits(t *testing.T) {
	t.Parallel()
	walk := func(n int) string {
		moves := []string{"5i5h", "5a5b", "5h5i", "5b5a"}
		var b strings.Builder
		b.WriteString("position startpos moves")
		for i := 0; i < n; i++ {
			b.WriteString(" " + moves[i%4])
		}
		return b.String()
	}
	if code, _, errs := runKisen(t, walk(office.MaxRecordPlies+1), "kifu", "check", "-"); code != 2 || !strings.Contains(errs, fmt.Sprint(office.MaxRecordPlies)) {
		t.Errorf("%d moves: exit %d, stderr %q; want 2 naming the limit", office.MaxRecordPlies+1, code, errs)
	}
	if code, _, errs := runKisen(t, walk(office.MaxRecordPlies+1), "kifu", "convert", "--to", "kif", "-"); code != 2 || !strings.Contains(errs, fmt.Sprint(office.MaxRecordPlies)) {
		t.Errorf("convert %d moves: exit %d, stderr %q; want 2 naming the limit", office.MaxRecordPlies+1, code, errs)
	}
	big := filepath.Join(t.TempDir(), "big.usi")
	if err := os.WriteFile(big, []byte(walk(10)+strings.Repeat(" ", office.MaxRecordBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runKisen(t, "", "kifu", "check", big); code != 2 || !strings.Contains(errs, fmt.Sprint(office.MaxRecordBytes)) {
		t.Errorf("%d bytes: exit %d, stderr %q; want 2 naming the limit", office.MaxRecordBytes+1, code, errs)
	}
	if code, _, errs := runKisen(t, walk(office.MaxRecordPlies), "kifu", "check", "-"); code != 0 {
		t.Errorf("%d moves: exit %d %s, want read", office.MaxRecordPlies, code, errs)
	}
}
