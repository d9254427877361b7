package leagues

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// unescapeICS reverses RFC 5545 TEXT escaping (the test's own reading).
func unescapeICS(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FuzzICSLine: any text, escaped and written as a folded content line,
// gives physical lines of at most 75 octets ending in CRLF, valid UTF-8
// when the input was, and unfolds and unescapes back to the input (line
// breaks read back as \n).
func FuzzICSLine(f *testing.F) {
	for _, s := range []string{"", "第85期順位戦, C2; 予選", strings.Repeat("あ", 60), "a\\b\r\nc\nd,e;f", strings.Repeat("x", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		var b bytes.Buffer
		IcsLine(&b, "SUMMARY:"+IcsEscape(s))
		out := b.String()
		if !strings.HasSuffix(out, "\r\n") {
			t.Fatal("no CRLF at the end")
		}
		var unfolded strings.Builder
		for i, phys := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
			if len(phys) > 75 || !utf8.ValidString(phys) || strings.ContainsAny(phys, "\r\n") {
				t.Fatalf("physical line %q", phys)
			}
			if i > 0 {
				if !strings.HasPrefix(phys, " ") {
					t.Fatalf("continuation without a space: %q", phys)
				}
				phys = phys[1:]
			}
			unfolded.WriteString(phys)
		}
		want := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
		if got := unescapeICS(strings.TrimPrefix(unfolded.String(), "SUMMARY:")); got != want {
			t.Fatalf("round trip %q → %q", want, got)
		}
	})
}
