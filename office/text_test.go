package office

import (
	"net/url"
	"testing"
	"unicode/utf8"
)

// storableByRunes is StorableText said another way, rune by rune.
func storableByRunes(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == 0x7f || r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

// FuzzStorableText: the byte scan agrees with the rune-by-rune definition,
// never panics, and NFC keeps storable text storable.
func FuzzStorableText(f *testing.F) {
	for _, s := range []string{"佐藤 一郎", "か\u3099", "a\x00b", "\xff\xfe\x80", "行1\n行2\tタブ", "\x7f", "\r\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StorableText(s)
		if got != storableByRunes(s) {
			t.Fatalf("StorableText(%q) = %v", s, got)
		}
		if got && !StorableText(NFC(s)) {
			t.Fatalf("NFC(%q) = %q cannot be stored", s, NFC(s))
		}
	})
}

// Issue 11: the league history CSV names the line and column of a cell
// that cannot be stored.
func TestLeagueHistoryCSV_UnstorableCellNamesLineAndColumn(t *testing.T) {
	t.Parallel()
	_, v := parseLeagueHistoryCSV([]byte("class,junni,player,round,opponent\nC2,1,山田\x00,1,\nC2,2,佐藤,1,\xff\n"))
	if v == nil {
		t.Fatal("accepted")
	}
	var at [][2]any
	for _, fe := range v.Fields {
		if fe.Code == "league.csv.unstorable" {
			at = append(at, [2]any{fe.Args["Line"], fe.Args["Column"]})
		}
	}
	if len(at) != 2 || at[0] != [2]any{2, 3} || at[1] != [2]any{3, 5} {
		t.Fatalf("reported %v, want line 2 column 3 and line 3 column 5", at)
	}
	if field, ok := CheckStorableValues(url.Values{"name": {"佐藤"}, "reason": {"a\x00"}}); ok || field != "reason" {
		t.Fatalf("form check: %q %v", field, ok)
	}
}
