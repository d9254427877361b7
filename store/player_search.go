package store

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SearchKey folds text for matching names and readings: NFKC (full-width
// Latin and digits become ASCII, half-width katakana become full-width),
// katakana folded to hiragana, Latin lower-cased, and every space removed
// so "羽生 善治" and "羽生善治" match. The players.search_key column and
// every query go through it.
func SearchKey(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			continue
		case r >= 'ァ' && r <= 'ヶ':
			// Katakana and hiragana blocks are parallel 0x60 apart; ヵヶ
			// have hiragana counterparts ゕゖ in the same place.
			r -= 0x60
		case r == 'ヽ' || r == 'ヾ':
			r -= 0x60
		default:
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// searchKeySeparator joins the name and reading parts of a search key; it
// is taken out of queries so a match never spans both parts.
const searchKeySeparator = "|"

func playerSearchKey(name, reading string) string {
	return SearchKey(name) + searchKeySeparator + SearchKey(reading)
}

// searchPattern turns a user's query into a LIKE pattern over search_key,
// or "" when nothing searchable is left.
func searchPattern(q string) string {
	k := strings.ReplaceAll(SearchKey(q), searchKeySeparator, "")
	if k == "" {
		return ""
	}
	return "%" + likeEscape(k) + "%"
}
