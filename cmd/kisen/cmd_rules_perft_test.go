package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func runPerftCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"rules", "perft"}, args...), stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestRulesPerft_CountsPublishedNumbers(t *testing.T) {
	t.Parallel()
	// Published start-position counts (qiita.com/ak11, "将棋でPerftしてみたまとめ").
	tests := []struct {
		args  []string
		depth int
		nodes uint64
	}{
		{[]string{"--depth", "1"}, 1, 30},
		{[]string{"--depth", "3"}, 3, 25470},
		{[]string{"--sfen", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "--depth=2"}, 2, 900},
		{[]string{"--sfen", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", "--depth", "1"}, 1, 593},
		{[]string{"--depth", "0"}, 0, 1},
	}
	for _, tc := range tests {
		code, out, errs := runPerftCmd(t, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %s", tc.args, code, errs)
		}
		var res struct {
			SFEN    string   `json:"sfen"`
			Depth   int      `json:"depth"`
			Nodes   uint64   `json:"nodes"`
			Seconds *float64 `json:"seconds"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: output %q is not JSON: %v", tc.args, out, err)
		}
		if res.Depth != tc.depth || res.Nodes != tc.nodes || res.SFEN == "" || res.Seconds == nil {
			t.Errorf("%v: got %+v, want depth %d nodes %d", tc.args, res, tc.depth, tc.nodes)
		}
	}
}

func TestRulesPerft_Divide(t *testing.T) {
	t.Parallel()
	code, out, errs := runPerftCmd(t, "--depth", "2", "--divide")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 31 {
		t.Fatalf("want 30 move lines and a JSON line, got %d lines", len(lines))
	}
	var sum uint64
	prev := ""
	for _, l := range lines[:30] {
		usi, count, ok := strings.Cut(l, " ")
		if !ok || usi <= prev {
			t.Fatalf("line %q: want \"USI count\" sorted by USI", l)
		}
		prev = usi
		n, err := strconv.ParseUint(count, 10, 64)
		if err != nil || n != 30 { // every first move leaves gote its 30 replies
			t.Errorf("line %q: want 30 replies", l)
		}
		sum += n
	}
	if !strings.Contains(lines[30], `"nodes":900`) || sum != 900 {
		t.Errorf("JSON line %q, sum %d; want 900", lines[30], sum)
	}
}

func TestRulesPerft_BadInputExits2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		mention string
	}{
		{[]string{"--depth", "-1"}, "--depth -1 is out of range"},
		{[]string{"--depth", "-3"}, "--depth -3 is out of range"},
		{[]string{"--depth", "9"}, "--depth 9 is out of range"},
		{[]string{"--depth", "x"}, "-depth"},
		{[]string{}, "--depth is required"},
		{[]string{"--depth", "2", "--sfen", "9/9/9 b - 1"}, "--sfen"},
		{[]string{"--depth", "2", "--colour", "b"}, "colour"},
		{[]string{"--depth", "2", "extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		code, out, errs := runPerftCmd(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.mention) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and a message naming %q", tc.args, code, out, errs, tc.mention)
		}
	}
}
