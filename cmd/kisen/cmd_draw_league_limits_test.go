package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// endlessInput is an unbounded stdin that counts what was read from it.
type endlessInput struct{ read int64 }

func (r *endlessInput) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.read += int64(len(p))
	return len(p), nil
}

func TestDrawLeague_OversizeInputRefusedWithoutReadingItAll(t *testing.T) {
	t.Parallel()
	in := &endlessInput{}
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: []string{"draw", "league"}, stdin: in, stdout: &out, stderr: &errb})
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), fmt.Sprint(maxLeagueInputBytes)) {
		t.Errorf("message does not name the limit: %s", errb.String())
	}
	if in.read > 2*maxLeagueInputBytes {
		t.Errorf("read %d bytes of an oversize input; the limit is %d", in.read, maxLeagueInputBytes)
	}
}

func TestDrawLeague_TooManyPlayersNamesTheLimit(t *testing.T) {
	t.Parallel()
	var players []map[string]string
	for i := 0; i < 201; i++ {
		players = append(players, map[string]string{"id": fmt.Sprintf("p%03d", i)})
	}
	code, _, stderr := runLeague(t, mustJSON(t, map[string]any{"kind": "junisen", "class": "C2", "seed": 1, "players": players}))
	if code != 2 || !strings.Contains(stderr, "200") || !strings.Contains(stderr, "players") {
		t.Fatalf("exit %d, want 2 naming players and the limit 200: %s", code, stderr)
	}
}

// unsolvable200 is a 200-player C2 class (even: nobody rests) in which
// eleven players met everyone else last term (D-C2): they can only be
// paired among themselves, and eleven is odd, so no round can pair them
// all. The counting checks do not see it; the search can only give up.
func unsolvable200() map[string]any {
	var players []map[string]string
	for i := 0; i < 200; i++ {
		players = append(players, map[string]string{"id": fmt.Sprintf("p%03d", i)})
	}
	var last [][2]string
	for i := 0; i < 11; i++ {
		for j := 11; j < 200; j++ {
			last = append(last, [2]string{fmt.Sprintf("p%03d", i), fmt.Sprintf("p%03d", j)})
		}
	}
	return map[string]any{"kind": "junisen", "class": "C2", "seed": 1, "players": players, "previous_terms": [][][2]string{last}}
}

func TestDrawLeague_TimeBudgetStopsAnUnsolvable200PlayerClass(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runLeague(t, mustJSON(t, unsolvable200()), "--time-budget", "100ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	var out struct {
		OutOfTime  *struct{ Budget string } `json:"out_of_time"`
		NoSchedule any                      `json:"no_schedule"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.OutOfTime == nil || out.NoSchedule != nil {
		t.Fatalf("want out_of_time (not no_schedule): %s", stdout)
	}
	if !strings.Contains(stderr, "ran out of time") {
		t.Errorf("stderr does not say it ran out of time: %s", stderr)
	}
}

func TestDrawLeague_TimeBudgetMustBePositive(t *testing.T) {
	t.Parallel()
	if code, _, stderr := runLeague(t, "{}", "--time-budget", "0s"); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stderr)
	}
}
