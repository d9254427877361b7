package office

import (
	"net/url"
	"sort"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// StorableText reports whether s can be stored and shown as it was typed
// on both databases (issue 11): valid UTF-8 (PostgreSQL refuses anything
// else with SQLSTATE 22021; SQLite would keep raw bytes and show U+FFFD)
// with no NUL and no other C0 control character or DEL; tab, CR and LF
// are allowed because records, notes and CSV text have lines.
func StorableText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f {
			return false
		}
	}
	return true
}

// CheckStorableValues checks every value of a form or query; it returns
// the first field (in name order, so the answer is stable) whose value or
// name cannot be stored, and ok false.
func CheckStorableValues(vs url.Values) (field string, ok bool) {
	names := make([]string, 0, len(vs))
	for name := range vs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !StorableText(name) {
			return "?", false
		}
		for _, v := range vs[name] {
			if !StorableText(v) {
				return name, false
			}
		}
	}
	return "", true
}

// NFC is s in Unicode normalisation form C: a kana typed with a combining
// (han)dakuten mark becomes the one precomposed character, so names that
// look the same compare, sort and search the same.
func NFC(s string) string { return norm.NFC.String(s) }
