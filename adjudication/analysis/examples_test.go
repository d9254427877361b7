package analysis

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kisen/adjudication"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/examples")

// exampleOutput has the shape `kisen adjudicate` prints.
type exampleOutput struct {
	adjudication.Outcome
	Findings *adjudication.Findings `json:"findings,omitempty"`
}

// TestExamples runs the JSON examples docs/adjudication.md shows through
// the same path as the command. The result and reason of each are written
// by hand in expect.json; the full output is kept as a golden file (go
// test -update rewrites it) so the documentation shows real output.
func TestExamples(t *testing.T) {
	t.Parallel()
	var expect map[string]struct{ Result, Reason string }
	raw, err := os.ReadFile("testdata/examples/expect.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &expect); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/examples/*.json")
	n := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		if name == "expect" || strings.HasSuffix(name, ".golden") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			g, err := adjudication.ParseGame(data)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(g)
			if err != nil {
				t.Fatal(err)
			}
			o, err := g.Decide(r)
			if err != nil {
				t.Fatal(err)
			}
			want, ok := expect[name]
			if !ok {
				t.Fatalf("expect.json has no entry for %s", name)
			}
			if string(o.Result) != want.Result || string(o.Reason) != want.Reason {
				t.Fatalf("%s %s, want %s %s", o.Result, o.Reason, want.Result, want.Reason)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(exampleOutput{Outcome: o, Findings: r.Findings}); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".json") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			old, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(old, buf.Bytes()) {
				t.Fatalf("output differs from %s (go test -update after checking):\n%s", golden, buf.String())
			}
		})
	}
	if n != len(expect) {
		t.Fatalf("%d examples, %d expectations", n, len(expect))
	}
}
