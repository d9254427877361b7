package kifu

import (
	"os"
	"path/filepath"
	"testing"
)

// addSeeds feeds the fuzzers the hand-written samples and generated
// records in format f.
func addSeeds(f *testing.F, format Format) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for i, rec := range genSet() {
		if i%3 != 0 {
			continue
		}
		if text, err := Write(rec, format); err == nil {
			f.Add([]byte(text))
		}
	}
}

// fuzzRoundTrip is the oracle of every reader: no panic; a record that
// reads is written back, and the text read again is the same record (as
// far as the format holds it); writing that again gives the same text.
func fuzzRoundTrip(t *testing.T, format Format, data []byte) {
	res, err := Read(data, "", format)
	if err != nil {
		return
	}
	text, err := Write(res.Record, format)
	if err != nil {
		// Only KI2 may refuse a record its own reader accepted: it cannot
		// spell moves after an impossible one.
		if format != FormatKI2 {
			t.Fatalf("write %s: %v", format, err)
		}
		return
	}
	back, err := Read([]byte(text), "", format)
	if err != nil {
		t.Fatalf("written %s does not read back: %v\n%s", format, err, text)
	}
	c := capsOf(format)
	if got, want := summarize(back.Record, c), summarize(res.Record, c); got != want {
		t.Fatalf("%s round trip changed the record:\n%s\n--- text:\n%s", format, diffLines(want, got), text)
	}
	again, err := Write(back.Record, format)
	if err != nil || again != text {
		t.Fatalf("%s writer is not stable: %v\n%s\n---\n%s", format, err, text, again)
	}
	if _, err := Check(res.Record); err != nil {
		t.Fatalf("check: %v", err)
	}
}

func FuzzReadKIF(f *testing.F) {
	addSeeds(f, FormatKIF)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, FormatKIF, data) })
}

func FuzzReadKI2(f *testing.F) {
	addSeeds(f, FormatKI2)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, FormatKI2, data) })
}

func FuzzReadCSA(f *testing.F) {
	addSeeds(f, FormatCSA)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, FormatCSA, data) })
}

func FuzzReadUSI(f *testing.F) {
	addSeeds(f, FormatUSI)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, FormatUSI, data) })
}

// FuzzRead covers detection: any bytes, any name; no panic, and a record
// that reads converts to every format without error or panic.
func FuzzRead(f *testing.F) {
	addSeeds(f, FormatKIF)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Read(data, "", FormatUnknown)
		if err != nil {
			return
		}
		for _, format := range allFormats {
			_, _ = Write(res.Record, format)
			_ = Losses(res.Record, format)
		}
	})
}
