package kifu

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// samples are the hand-written records under testdata (not the goldens).
func samples(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"*.kif", "*.ki2", "*.csa", "*.usi"} {
		m, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 8 {
		t.Fatalf("only %d samples under testdata", len(out))
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rules/kifu -run Golden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", name, diffLines(string(want), string(got)))
	}
}

// TestGolden_ConvertAndCheck writes every sample in every format and
// checks it with the rules engine; outputs are compared with the goldens.
func TestGolden_ConvertAndCheck(t *testing.T) {
	t.Parallel()
	for _, path := range samples(t) {
		base := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Read(data, path, FormatUnknown)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, f := range allFormats {
			text, err := Write(res.Record, f)
			if err != nil {
				t.Fatalf("%s to %s: %v", base, f, err)
			}
			golden(t, base+"."+f.String(), []byte(text))
		}
		rep, err := Check(res.Record)
		if err != nil {
			t.Fatalf("%s: check: %v", base, err)
		}
		js, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, base+".check.json", append(js, '\n'))
	}
}

// TestSamples_ReadBackFromEveryFormat: what a sample says survives being
// written in each format and read again (within what the format holds).
func TestSamples_ReadBackFromEveryFormat(t *testing.T) {
	t.Parallel()
	for _, path := range samples(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Read(data, path, FormatUnknown)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		src := capsOf(res.Format)
		for _, f := range allFormats {
			text, err := Write(res.Record, f)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Read([]byte(text), "", f)
			if err != nil {
				t.Fatalf("%s via %s: %v\n%s", path, f, err, text)
			}
			c := src.and(capsOf(f))
			if got, want := summarize(back.Record, c), summarize(res.Record, c); got != want {
				t.Errorf("%s via %s:\n%s", path, f, diffLines(want, got))
			}
		}
	}
}

func TestSamples_EncodingDetected(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "lance_sjis.kif"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(data, "lance_sjis.kif", FormatUnknown)
	if err != nil {
		t.Fatal(err)
	}
	if res.Encoding != ShiftJIS || res.Format != FormatKIF {
		t.Fatalf("read as %s %s, want Shift_JIS KIF", res.Encoding, res.Format)
	}
	if got := res.Record.Header.Value(KeySente); got != "アマ初段" {
		t.Errorf("下手 read as %q", got)
	}
	// The same text in UTF-8 reads the same.
	text, _, err := decodeText(data)
	if err != nil {
		t.Fatal(err)
	}
	res8, err := Read([]byte(text), "x.kif", FormatUnknown)
	if err != nil || res8.Encoding != UTF8 {
		t.Fatalf("UTF-8 copy: %v %v", res8.Encoding, err)
	}
	if summarize(res8.Record, capsOf(FormatKIF)) != summarize(res.Record, capsOf(FormatKIF)) {
		t.Error("Shift_JIS and UTF-8 copies read differently")
	}
	// Writing Shift_JIS and reading it back is lossless too.
	kif, err := WriteKIF(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	sj, err := EncodeShiftJIS(kif)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(sj, "", FormatUnknown)
	if err != nil || back.Encoding != ShiftJIS || !strings.Contains(kif, "香落ち") {
		t.Fatalf("Shift_JIS round trip: %v %v", back.Encoding, err)
	}
}
