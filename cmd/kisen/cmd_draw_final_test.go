package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runFinal(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"draw", "final"}, args...), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// From a whole 2勝通過2敗失格 preliminary played through `kisen draw pools`
// to the final: the qualifiers' blocks and places go in as they come out.
func TestDrawFinalCLI_FromPoolsOutputToACheckedFinal(t *testing.T) {
	t.Parallel()
	pools := playPoolsCLI(t, poolsExample)
	seed := uint64(11)
	in := finalInput{Seed: &seed, Relations: pools.Relations}
	club := map[string]poolsPlayer{}
	for _, p := range pools.Players {
		club[p.ID] = p
	}
	for _, q := range pools.Qualified {
		p := club[q.ID]
		in.Qualifiers = append(in.Qualifiers, finalQualifier{ID: q.ID, Name: q.Name, Block: q.Block, Place: q.BlockPlace, Club: p.Club, Master: p.Master, Family: p.Family})
	}
	code, out, errs := runFinal(t, mustJSON(t, in))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got finalOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.Size < len(in.Qualifiers) || len(got.Slots) != got.Size {
		t.Fatalf("size %d, %d slots for %d qualifiers", got.Size, len(got.Slots), len(in.Qualifiers))
	}
	if _, again, _ := runFinal(t, mustJSON(t, in)); again != out {
		t.Fatal("same input, different output")
	}
	if code, res, errs := runFinal(t, out, "--check"); code != 0 || !strings.Contains(res, `"ok": true`) {
		t.Fatalf("--check of its own output: exit %d %s %s", code, res, errs)
	}
	// Put a block's two players side by side in round 1: --check says so.
	at := map[string]int{}
	for s, id := range got.Slots {
		at[id] = s
	}
	var a, b string
	for _, q := range in.Qualifiers {
		for _, r := range in.Qualifiers {
			if q.Block == r.Block && q.Place == 1 && r.Place == 2 {
				a, b = q.ID, r.ID
			}
		}
	}
	// swap b with a's round-1 opponent (a non-winner, or a bye)
	opp := at[a] ^ 1
	edited := got
	edited.Slots = append([]string(nil), got.Slots...)
	edited.Slots[opp], edited.Slots[at[b]] = edited.Slots[at[b]], edited.Slots[opp]
	code, res, errs := runFinal(t, mustJSON(t, edited), "--check")
	if code != 1 || !strings.Contains(res, `"ok": false`) || errs == "" {
		t.Fatalf("--check of a broken placement: exit %d %s %s", code, res, errs)
	}
}

func TestDrawFinalCLI_BadInputExit2NamesTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, field string }{
		{`{"qualifiers":[{"id":"a","standing":1},{"id":"b","standing":2}]}`, "seed"},
		{`{"seed":1,"qualifiers":[{"id":"a","standing":1},{"id":"a","standing":2}]}`, "qualifiers[1].id"},
		{`{"seed":1,"qualifiers":[{"id":"a","block":"A","place":1},{"id":"b","place":1}]}`, "qualifiers[1].block"},
		{`{"seed":1,"relations":{"club":"maybe"},"qualifiers":[{"id":"a","standing":1},{"id":"b","standing":2}]}`, "relations.club"},
		{`{"seed":1,"qualifiers":[{"id":"a","standing":"one"}]}`, "standing"},
		{`{"seed":1,"qualifier":[]}`, "qualifier"},
		{`{"seed":1`, "input"},
		{`{"seed":1,"qualifiers":[{"id":"a","standing":1},{"id":"b","standing":2}]}`, ""},
	}
	for _, c := range cases[:len(cases)-1] {
		code, _, errs := runFinal(t, c.in)
		if code != 2 || !strings.Contains(errs, c.field) {
			t.Errorf("%s: exit %d, want 2 naming %s: %s", c.in, code, c.field, errs)
		}
	}
	if code, _, errs := runFinal(t, cases[len(cases)-1].in, "--check"); code != 2 || !strings.Contains(errs, "slots") {
		t.Errorf("--check without slots: exit %d %s", code, errs)
	}
	if code, _, errs := runFinal(t, `{"qualifiers":[{"id":"a","standing":1},{"id":"b","standing":2}],"slots":["a","zz"]}`, "--check"); code != 2 || !strings.Contains(errs, "slots[1]") {
		t.Errorf("--check with an unknown id: exit %d %s", code, errs)
	}
}

func TestDrawFinalCLI_NeverRelationImpossibleExit1SaysWho(t *testing.T) {
	t.Parallel()
	code, out, errs := runFinal(t, `{"seed":1,"relations":{"club":"never"},"qualifiers":[{"id":"a","name":"青木","standing":1,"club":"桜"},{"id":"b","name":"井上","standing":2,"club":"桜"}]}`)
	if code != 1 || !strings.Contains(out, `"no_placement"`) || !strings.Contains(errs, "青木") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}
