package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"kisen/rules"
)

func runKisen(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: args, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// TestRulesMoves_D_N_StartPosition: 30 legal moves at the start, sorted by
// USI, each with its record-style and compact text.
func TestRulesMoves_D_N_StartPosition(t *testing.T) {
	t.Parallel()
	code, out, errs := runKisen(t, "", "rules", "moves")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 30 {
		t.Fatalf("%d lines, want 30 (the legal moves of the start)", len(lines))
	}
	var usis []string
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("line %q: want USI, record text and compact text separated by tabs", l)
		}
		usis = append(usis, f[0])
	}
	if !slices.IsSorted(usis) {
		t.Error("moves are not sorted by USI")
	}
	if !slices.Contains(lines, "5i5h\t▲５八玉\t58玉") {
		t.Error("missing the line 5i5h ▲５八玉 58玉")
	}
	if !slices.Contains(lines, "7g7f\t▲７六歩\t76歩") {
		t.Error("missing the line 7g7f ▲７六歩 76歩")
	}
	// 002 例: the two golds that can reach 5八 need 右/左.
	if !slices.Contains(lines, "6i5h\t▲５八金左\t58金左") || !slices.Contains(lines, "4i5h\t▲５八金右\t58金右") {
		t.Errorf("golds to 58 not disambiguated:\n%s", out)
	}
}

func TestRulesMoves_D_N_SameSquareWithPrev(t *testing.T) {
	t.Parallel()
	// After ▲７六歩 △３四歩 ▲２二角成: Gote takes back on 2二 with 同.
	p := rules.NewPosition(rules.Even)
	for _, u := range []string{"7g7f", "3c3d", "8h2b+"} {
		m, err := rules.ParseUSIMove(u)
		if err != nil {
			t.Fatal(err)
		}
		p.Do(m)
	}
	code, out, errs := runKisen(t, "", "rules", "moves", "--sfen", p.SFEN(), "--prev", "8h2b+")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "3a2b\t△同　銀\t同銀\n") {
		t.Errorf("no 同銀 for 3a2b:\n%s", out)
	}
}

func TestRulesMoves_BadInputExits2(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"rules", "moves", "--sfen", "not a position"},
		{"rules", "moves", "--prev", "x9"},
		{"rules", "moves", "extra"},
		{"rules", "moves", "--nope"},
	} {
		code, _, errs := runKisen(t, "", args...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}
