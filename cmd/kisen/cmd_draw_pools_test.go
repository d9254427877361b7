package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kisen/pairing"
)

func runPools(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "pools"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

const poolsExample = `{"mode":"blocks","wins":2,"losses":2,"seed":2026,
 "relations":{"club":"avoid","master_student":"never","fellow_disciple":"avoid","family":"never"},
 "players":[
  {"id":"p01","name":"青木","club":"桜支部"},{"id":"p02","name":"井上","club":"桜支部"},
  {"id":"p03","name":"上田","master":"p07"},{"id":"p04","name":"江口","family":"江口家"},
  {"id":"p05","name":"大野","family":"江口家"},{"id":"p06","name":"加藤"},
  {"id":"p07","name":"木村"},{"id":"p08","name":"久保","master":"p07"},
  {"id":"p09","name":"小林","club":"桜支部"},{"id":"p10","name":"佐藤"},
  {"id":"p11","name":"鈴木"}]}`

// playPoolsCLI feeds each output back with the first-listed player winning
// every game, as the desk would, until the preliminary finishes.
func playPoolsCLI(t *testing.T, input string) poolsOutput {
	t.Helper()
	for range 12 {
		code, out, errs := runPools(t, input)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got poolsOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if _, again, _ := runPools(t, input); again != out {
			t.Fatal("same input, different output")
		}
		if got.Finished {
			return got
		}
		next := got.poolsInput
		for _, g := range got.Pairings {
			next.Games = append(next.Games, poolsGame{Round: got.Round, Board: g.Board, Block: g.Block, Players: g.Players, Winner: g.Players[0]})
		}
		for _, id := range got.RoundByes {
			next.Byes = append(next.Byes, poolsBye{Round: got.Round, Player: id})
		}
		b, _ := json.Marshal(next)
		input = string(b)
	}
	t.Fatal("not finished after 12 rounds")
	return poolsOutput{}
}

func TestDrawPoolsCLI_PlaysToTheEndAndChecksItsOwnOutput(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"blocks", "records"} {
		t.Run(mode, func(t *testing.T) {
			input := strings.Replace(poolsExample, `"mode":"blocks"`, `"mode":"`+mode+`"`, 1)
			final := playPoolsCLI(t, input)
			if len(final.Qualified)+len(final.Eliminated) != 11 {
				t.Fatalf("%d qualified + %d out, want all 11", len(final.Qualified), len(final.Eliminated))
			}
			if mode == "blocks" && len(final.Qualified) != 2*len(final.Blocks) {
				t.Fatalf("%d qualifiers from %d blocks", len(final.Qualified), len(final.Blocks))
			}
			for _, q := range final.Qualified {
				if q.Record != "2-0" && q.Record != "2-1" || mode == "blocks" && (q.Block == "" || q.BlockPlace == 0) {
					t.Fatalf("qualifier %+v", q)
				}
			}
			b, _ := json.Marshal(final)
			code, out, errs := runPools(t, string(b), "--check")
			if code != 0 || !strings.Contains(out, `"ok": true`) {
				t.Fatalf("--check of the whole preliminary: exit %d %s %s", code, out, errs)
			}
		})
	}
}

func TestDrawPoolsCLI_CheckFindsARematch(t *testing.T) {
	t.Parallel()
	in := `{"mode":"records","wins":2,"losses":2,"players":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}],
	 "games":[{"round":1,"players":["a","b"],"winner":"a"},{"round":1,"players":["c","d"],"winner":"c"},
	          {"round":2,"players":["a","b"],"winner":"a"},{"round":2,"players":["c","d"],"winner":"d"}]}`
	code, out, errs := runPools(t, in, "--check")
	if code != 1 || !strings.Contains(out, "pools-rematch") || !strings.Contains(errs, "pools-rematch") {
		t.Fatalf("exit %d, %s %s", code, out, errs)
	}
}

func TestDrawPoolsCLI_BadInputExit2NamesTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, field string }{
		{`{"mode":"blocks","wins":2,"losses":2,"players":[{"id":"a"},{"id":"b"},{"id":"c"}]}`, "seed"},
		{`{"mode":"blocks","wins":3,"losses":2,"seed":1,"players":[{"id":"a"},{"id":"b"},{"id":"c"}]}`, "mode"},
		{`{"mode":"records","wins":2,"losses":2,"seed":1,"players":[{"id":"a"},{"id":"a"}]}`, "players[1].id"},
		{`{"mode":"records","wins":2,"losses":2,"seed":1,"relations":{"club":"maybe"},"players":[{"id":"a"},{"id":"b"}]}`, "relations.club"},
		{`{"mode":"records","wins":2,"losses":2,"seed":1,"players":[{"id":"a"},{"id":"b"}],"games":[{"round":1,"players":["a","b"],"winner":"x"}]}`, "games[0].winner"},
		{`{"mode":"records","wins":"two","losses":2,"seed":1,"players":[]}`, "wins"},
		{`{"mode":"records","wins":2,"losses":2,"seed":1,"player":[]}`, "player"},
		{`{"mode":"records"`, "input"},
		{``, "input"},
	}
	for _, c := range cases {
		code, _, errs := runPools(t, c.in)
		if code != 2 || !strings.Contains(errs, c.field) {
			t.Errorf("%s: exit %d, want 2 naming %s: %s", c.in, code, c.field, errs)
		}
	}
}

func TestDrawPoolsCLI_TooManyPlayersNamesTheLimit(t *testing.T) {
	t.Parallel()
	var players []map[string]string
	for i := 0; i < 1001; i++ {
		players = append(players, map[string]string{"id": fmt.Sprintf("p%04d", i)})
	}
	code, _, errs := runPools(t, mustJSON(t, map[string]any{"mode": "records", "wins": 2, "losses": 2, "seed": 1, "players": players}))
	if code != 2 || !strings.Contains(errs, "1000") || !strings.Contains(errs, "players") {
		t.Fatalf("exit %d, want 2 naming players and 1000: %s", code, errs)
	}
}

func TestDrawPoolsCLI_OversizeInputRefusedWithoutReadingItAll(t *testing.T) {
	t.Parallel()
	in := &endlessInput{}
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: []string{"draw", "pools"}, stdin: in, stdout: &out, stderr: &errb})
	if code != 2 || !strings.Contains(errb.String(), fmt.Sprint(maxPoolsInputBytes)) {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if in.read > 2*maxPoolsInputBytes {
		t.Errorf("read %d bytes of an oversize input", in.read)
	}
}

func TestDrawPoolsCLI_NoPairingExit1SaysWhy(t *testing.T) {
	t.Parallel()
	// Five players cannot be split into blocks of four and three.
	code, out, errs := runPools(t, `{"mode":"blocks","wins":2,"losses":2,"seed":1,"players":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"}]}`)
	if code != 1 || !strings.Contains(out, `"no_pairing"`) || !strings.Contains(errs, "5 players") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	// One club of eight kept apart with never in two blocks.
	var players []map[string]string
	for i := range 8 {
		players = append(players, map[string]string{"id": fmt.Sprintf("p%d", i), "club": "桜支部"})
	}
	code, out, errs = runPools(t, mustJSON(t, map[string]any{"mode": "blocks", "wins": 2, "losses": 2, "seed": 1, "players": players, "relations": map[string]string{"club": "never"}}))
	if code != 1 || !strings.Contains(errs, "桜支部") || !strings.Contains(out, `"p7"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

// playedPoolsJSON is a whole 2勝通過2敗失格 preliminary of n players in
// blocks, every result in, as `kisen draw pools --check` reads it.
func playedPoolsJSON(tb testing.TB, n int) string {
	var players []poolsPlayer
	for i := range n {
		players = append(players, poolsPlayer{ID: fmt.Sprintf("p%04d", i), Name: fmt.Sprintf("選手%d", i), Club: fmt.Sprintf("c%d", i%40)})
	}
	seed := uint64(7)
	in := poolsInput{Mode: "blocks", Wins: 2, Losses: 2, Seed: &seed, Players: players}
	for range 4 {
		rd, err := pairing.DrawPools(poolsRequest(in))
		if err != nil {
			tb.Fatal(err)
		}
		if rd.Finished {
			break
		}
		out := poolsOutputOf(in, rd)
		in = out.poolsInput
		for _, g := range out.Pairings {
			in.Games = append(in.Games, poolsGame{Round: out.Round, Board: g.Board, Block: g.Block, Players: g.Players, Winner: g.Players[g.Board%2]})
		}
		for _, id := range out.RoundByes {
			in.Byes = append(in.Byes, poolsBye{Round: out.Round, Player: id})
		}
	}
	b, _ := json.Marshal(in)
	return string(b)
}

// BenchmarkDrawPoolsCheck500 is `kisen draw pools --check` of a whole
// 500-player class, JSON decoding included (target ≤ 50 ms).
func BenchmarkDrawPoolsCheck500(b *testing.B) {
	in := playedPoolsJSON(b, 500)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := run(context.Background(), env{args: []string{"draw", "pools", "--check"}, stdin: strings.NewReader(in), stdout: &out, stderr: &errb}); code != 0 {
			b.Fatal(code, errb.String())
		}
	}
}

// BenchmarkDrawPoolsRound1Blocks300 is `kisen draw pools` for round 1 of a
// 300-player 2勝通過2敗失格 class, JSON included (target p95 ≤ 20 ms).
func BenchmarkDrawPoolsRound1Blocks300(b *testing.B) {
	var players []poolsPlayer
	for i := range 300 {
		players = append(players, poolsPlayer{ID: fmt.Sprintf("p%04d", i), Club: fmt.Sprintf("c%d", i%30)})
	}
	seed := uint64(1)
	raw, _ := json.Marshal(poolsInput{Mode: "blocks", Wins: 2, Losses: 2, Seed: &seed, Players: players})
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := run(context.Background(), env{args: []string{"draw", "pools"}, stdin: bytes.NewReader(raw), stdout: &out, stderr: &errb}); code != 0 {
			b.Fatal(code, errb.String())
		}
	}
}

func TestDrawPoolsCLI_CheckJudgesTheDrawnRoundAsEdited(t *testing.T) {
	t.Parallel()
	code, out, errs := runPools(t, poolsExample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, chk, errs := runPools(t, out, "--check"); code != 0 || !strings.Contains(chk, `"ok": true`) {
		t.Fatalf("--check of the drawn round 1: exit %d %s %s", code, chk, errs)
	}
	var got poolsOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// The desk swaps two players of boards 1 and 2 of block A on the
	// whiteboard: not the block's round-1 schedule.
	got.Pairings[0].Players[1], got.Pairings[1].Players[1] = got.Pairings[1].Players[1], got.Pairings[0].Players[1]
	b, _ := json.Marshal(got)
	code, chk, errs := runPools(t, string(b), "--check")
	if code != 1 || !strings.Contains(chk, "pools-block-schedule") || !strings.Contains(errs, "pairings[0]") {
		t.Fatalf("edited round: exit %d %s %s", code, chk, errs)
	}
}

// FuzzDrawPoolsCLI: any stdin answers 0, 1 or 2 without a panic; 0 prints
// JSON, a drawn round passes --check, and kisen standings pools reads it.
func FuzzDrawPoolsCLI(f *testing.F) {
	f.Add(poolsExample, false)
	f.Add(strings.Replace(poolsExample, `"blocks"`, `"records"`, 1), false)
	f.Add(`{"mode":"records","wins":1,"losses":1,"seed":0,"players":[{"id":"a"},{"id":"b"},{"id":"c"}]}`, true)
	f.Add(`{"mode":"blocks","wins":2,"losses":2,"players":[{"id":"a"},{"id":"b"},{"id":"c"}],"blocks":[{"id":"A","players":["a","b","c"]}],"games":[{"round":1,"players":["a","b"],"winner":"b"}],"byes":[{"round":1,"player":"c"}]}`, true)
	f.Fuzz(func(t *testing.T, in string, check bool) {
		var args []string
		if check {
			args = append(args, "--check")
		}
		code, out, errs := runPools(t, in, args...)
		switch code {
		case 0:
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("exit 0 with non-JSON output: %v", err)
			}
			if !check {
				if c, chk, e := runPools(t, out, "--check"); c != 0 {
					t.Fatalf("the drawn round fails --check: exit %d %s %s", c, chk, e)
				}
				if c, _, e := runStdin(t, out, "standings", "pools"); c != 0 {
					t.Fatalf("kisen standings pools of the draw's output: exit %d %s", c, e)
				}
			}
		case 1, 2:
			if errs == "" {
				t.Fatalf("exit %d with nothing on stderr", code)
			}
		default:
			t.Fatalf("exit %d", code)
		}
	})
}
