package office

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Names and readings compared as people type them (issue 23 §1,
// docs/amateur-day-entries.md): 「高橋悠斗」 and 「高橋 悠斗」, 「わたなべ あおい」
// and 「ワタナベアオイ」, 「髙橋」 and 「高橋」 are the same when matching an entry
// or a pasted line against the registry. Folding is for comparison only:
// what is stored is what was typed (NFC).

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

// NameVariants lists the folded 異体字 (for the docs and their test).
func NameVariants() map[rune]rune {
	out := make(map[rune]rune, len(nameVariants))
	for k, v := range nameVariants {
		out[k] = v
	}
	return out
}

// FoldName is a name or reading as matching compares it: NFKC (full-width
// letters and half-width kana made one), every space removed (ASCII and
// 全角) along with the 中黒 「・」 that separates names, katakana folded to
// hiragana, and the 異体字 of nameVariants to their everyday form.
func FoldName(s string) string {
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), r == '・', r == '･':
			continue
		case r >= 'ァ' && r <= 'ヶ', r == 'ヽ', r == 'ヾ':
			r -= 0x60
		}
		if v, ok := nameVariants[r]; ok {
			r = v
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
