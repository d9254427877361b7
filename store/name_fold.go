package store

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The one fold of names and readings (issue 23 §1 and §2,
// docs/amateur-day-entries.md): what a comparison sees of what people
// type. 「高橋悠斗」 and 「高橋 悠斗」, 「わたなべ あおい」 and 「ワタナベアオイ」,
// 「髙橋」 and 「高橋」 fold to the same key. Folding is for comparison only:
// what is stored is what was typed (NFC). SearchKey (the players.search_key
// column) folds spaces, width, kana and case; FoldName (entry matching,
// the desk's search, the public filters) also the 中黒 and the 異体字
// below. web/site/static/fold.js is the same fold for the browser, with
// the same table (a test compares them).

// nameVariants folds 異体字 that name the same surname or given name — the
// old or the 人名 form to the everyday one — and nothing else. A pair is
// here only when no registry would hold both as different people's names;
// pairs that are separate characters in names (龍/竜, 斉/斎, 嶋/島, 邑/村…)
// are left apart, so a wrong merge is never suggested as the same name.
var nameVariants = map[rune]rune{
	'髙': '高', // はしご高
	'﨑': '崎', // たつさき (U+FA11)
	'嵜': '崎',
	'𥔎': '崎',
	'邊': '辺',
	'邉': '辺',
	'齋': '斎', // the old form of 斎, not of 斉
	'齊': '斉', // the old form of 斉: 齊藤 is 斉藤, never 斎藤
	'澤': '沢',
	'濱': '浜',
	'廣': '広',
	'櫻': '桜',
	'國': '国',
	'𠮷': '吉', // つちよし
	'德': '徳',
	'惠': '恵',
	'眞': '真',
	'實': '実',
	'曾': '曽',
	'冨': '富',
}

// FoldName is a name or reading as matching compares it: NFKC (full-width
// letters and half-width kana made one), every space removed (ASCII and
// 全角) along with the 中黒 「・」 that separates names, katakana folded to
// hiragana, Latin lower-cased, and the 異体字 of nameVariants to their
// everyday form.
func FoldName(s string) string { return fold(s, true) }

// NameVariants lists the folded 異体字 (for the docs and their tests).
func NameVariants() map[rune]rune {
	out := make(map[rune]rune, len(nameVariants))
	for k, v := range nameVariants {
		out[k] = v
	}
	return out
}

// SearchKey folds text for the players.search_key column and every query
// over it: as FoldName without the 中黒 and the 異体字, because the column
// is stored and a wider fold would need every row rewritten.
func SearchKey(s string) string { return fold(s, false) }

// fold is FoldName (names) or SearchKey (!names).
func fold(s string, names bool) string {
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			continue
		case names && (r == '・' || r == '･'):
			continue
		case r >= 'ァ' && r <= 'ヶ', r == 'ヽ', r == 'ヾ':
			// Katakana and hiragana are parallel 0x60 apart; ヵヶ have
			// hiragana counterparts ゕゖ in the same place.
			r -= 0x60
		}
		if names {
			if v, ok := nameVariants[r]; ok {
				r = v
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
