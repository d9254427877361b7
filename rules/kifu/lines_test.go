package kifu

import (
	"slices"
	"testing"
)

// collectLines is eachLine gathered into a slice, checking the indexes.
func collectLines(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for i, l := range eachLine(text) {
		if i != len(out) {
			t.Fatalf("%q: line index %d, want %d", text, i, len(out))
		}
		out = append(out, l)
	}
	return out
}

// TestEachLine_SameAsSplitLines: the allocation-free line iterator the
// KIF reader uses splits LF, CRLF and CR text exactly as splitLines does
// (so line numbers in errors are unchanged).
func TestEachLine_SameAsSplitLines(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\rc", "\r\n\r\n", "\n\r", "a\r\r\nb", "手数----\r\n   1 ７六歩(77)\n", "\r",
	} {
		if got, want := collectLines(t, text), splitLines(text); !slices.Equal(got, want) {
			t.Errorf("%q: eachLine %q, splitLines %q", text, got, want)
		}
	}
}

// FuzzEachLine: for any text eachLine and splitLines agree (oracle:
// the plain split).
func FuzzEachLine(f *testing.F) {
	f.Add("a\r\nb\rc\n")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := collectLines(t, text), splitLines(text); !slices.Equal(got, want) {
			t.Fatalf("%q: eachLine %q, splitLines %q", text, got, want)
		}
	})
}
