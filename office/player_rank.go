package office

import (
	"errors"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"kisen/store"
)

// Rank is a 段級位 as Kisen records it. The grammar (docs/players-and-lineage.md):
//
//	rank   = [prefix] (dan | kyu)
//	prefix = "アマ" | "女流"
//	dan    = ("初" | 一…九 | 1…9) "段"      written back as 初段, 二段 … 九段
//	kyu    = (1…15 | 一…十五) "級"         written back as 1級 … 15級
//
// Full-width digits are accepted (NFKC). Which ranks fit which kind of
// player is Rank.FitsKind.
type Rank struct {
	Prefix string // "", "アマ" or "女流"
	Dan    bool   // 段 (true) or 級 (false)
	N      int    // 1 = 初段 / 1級
}

var (
	errRankFormat = errors.New("rank does not match the 段級位 pattern")
)

var rankKanjiDigits = map[rune]int{'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// ParseRank reads a rank in the grammar above.
func ParseRank(s string) (Rank, error) {
	s = strings.TrimSpace(norm.NFKC.String(s))
	var r Rank
	for _, p := range []string{"アマ", "女流"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			r.Prefix, s = p, rest
			break
		}
	}
	var num string
	switch {
	case strings.HasSuffix(s, "段"):
		r.Dan, num = true, strings.TrimSuffix(s, "段")
	case strings.HasSuffix(s, "級"):
		num = strings.TrimSuffix(s, "級")
	default:
		return Rank{}, errRankFormat
	}
	n, ok := rankNumber(num, r.Dan)
	if !ok {
		return Rank{}, errRankFormat
	}
	r.N = n
	if (r.Dan && n > 9) || (!r.Dan && n > 15) || n < 1 {
		return Rank{}, errRankFormat
	}
	return r, nil
}

// rankNumber reads 初 (段 only), Arabic 1–15 or kanji 一–十五.
func rankNumber(s string, dan bool) (int, bool) {
	if s == "初" {
		return 1, dan
	}
	if n, err := strconv.Atoi(s); err == nil && s != "" && s[0] != '+' && s[0] != '-' && s[0] != '0' {
		return n, true
	}
	rs := []rune(s)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10, true
	case len(rs) == 1:
		n, ok := rankKanjiDigits[rs[0]]
		return n, ok
	case len(rs) == 2 && rs[0] == '十':
		n, ok := rankKanjiDigits[rs[1]]
		return 10 + n, ok
	}
	return 0, false
}

var rankKanjiNumerals = []string{"", "初", "二", "三", "四", "五", "六", "七", "八", "九"}

// String is the canonical spelling (初段, 三段, 女流二段, アマ四段, 1級, 女流2級).
func (r Rank) String() string {
	if r.Dan {
		return r.Prefix + rankKanjiNumerals[r.N] + "段"
	}
	return r.Prefix + strconv.Itoa(r.N) + "級"
}

// FitsKind reports whether a rank is one a player of that kind can hold:
// 棋士 四段–九段; 女流棋士 女流○段 / 女流○級; 奨励会 6級–三段; amateurs
// アマ○段 / アマ○級 or plain 初段–八段 / 1–15級.
func (r Rank) FitsKind(k store.PlayerKind) bool {
	switch k {
	case store.PlayerProfessional:
		return r.Prefix == "" && r.Dan && r.N >= 4
	case store.PlayerWomens:
		return r.Prefix == "女流" && ((r.Dan && r.N <= 7) || (!r.Dan && r.N <= 3))
	case store.PlayerShoreikai:
		return r.Prefix == "" && ((r.Dan && r.N <= 3) || (!r.Dan && r.N <= 6))
	case store.PlayerAmateur:
		return r.Prefix != "女流" && (!r.Dan || r.N <= 8)
	}
	return false
}
