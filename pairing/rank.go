package pairing

import (
	"fmt"
	"strconv"
	"strings"
)

// Rank is a 段級位 on one step scale: 1級 is 0, 初段 is 1 (one step above
// 1級), n段 is n, and k級 is 1−k. The difference of two ranks is the 段級差
// of 004's 手合割 table.
type Rank struct {
	Step    int
	Amateur bool // written with アマ; kept for display, not for the gap
}

const (
	maxDan = 9
	maxKyu = 30
)

// Dan and Kyu build ranks; callers validate the number.
func Dan(n int) Rank { return Rank{Step: n} }
func Kyu(n int) Rank { return Rank{Step: 1 - n} }

func (r Rank) String() string {
	prefix := ""
	if r.Amateur {
		prefix = "アマ"
	}
	if r.Step >= 1 {
		if r.Step == 1 {
			return prefix + "初段"
		}
		return prefix + kanjiNumber(r.Step) + "段"
	}
	return prefix + strconv.Itoa(1-r.Step) + "級"
}

var kanjiDigits = []string{"", "一", "二", "三", "四", "五", "六", "七", "八", "九"}

func kanjiNumber(n int) string {
	if n < 10 {
		return kanjiDigits[n]
	}
	s := ""
	if n/10 > 1 {
		s = kanjiDigits[n/10]
	}
	return s + "十" + kanjiDigits[n%10]
}

// ParseRank reads 初段, 三段, 1級, 5級, 十五級, アマ四段, ３段 (full-width
// digits), and the romanised 3d, 2k, 3 dan, 2 kyu.
func ParseRank(s string) (Rank, error) {
	in := strings.TrimSpace(s)
	var r Rank
	for _, p := range []string{"アマ", "ama ", "ama"} {
		if strings.HasPrefix(strings.ToLower(in), p) {
			r.Amateur = true
			in = strings.TrimSpace(in[len(p):])
			break
		}
	}
	in = strings.Map(func(c rune) rune { // full-width digits to ASCII
		if c >= '０' && c <= '９' {
			return '0' + (c - '０')
		}
		return c
	}, in)
	bad := func(why string) (Rank, error) {
		return Rank{}, fmt.Errorf("rank %q: %s (write e.g. 初段, 三段, 1級, アマ四段, 3d, 2k): %w", s, why, ErrInvalid)
	}
	var num, unit string
	switch {
	case strings.HasSuffix(in, "段"):
		num, unit = strings.TrimSuffix(in, "段"), "dan"
	case strings.HasSuffix(in, "級"):
		num, unit = strings.TrimSuffix(in, "級"), "kyu"
	default:
		low := strings.ToLower(in)
		for _, u := range []struct{ suffix, unit string }{{"dan", "dan"}, {"kyu", "kyu"}, {"d", "dan"}, {"k", "kyu"}} {
			if strings.HasSuffix(low, u.suffix) {
				num, unit = strings.TrimSpace(strings.TrimSuffix(low, u.suffix)), u.unit
				break
			}
		}
	}
	if unit == "" {
		return bad("no 段 or 級")
	}
	n, ok := parseRankNumber(num)
	if !ok {
		return bad(fmt.Sprintf("cannot read the number %q", num))
	}
	if unit == "dan" {
		if n < 1 || n > maxDan {
			return bad(fmt.Sprintf("段 must be 1–%d", maxDan))
		}
		r.Step = n
		return r, nil
	}
	if num == "初" {
		return bad("初 is only for 初段")
	}
	if n < 1 || n > maxKyu {
		return bad(fmt.Sprintf("級 must be 1–%d", maxKyu))
	}
	r.Step = 1 - n
	return r, nil
}

// parseRankNumber reads ASCII digits, 初 (one, for 初段), or kanji numerals
// up to 九十九.
func parseRankNumber(s string) (int, bool) {
	if s == "初" {
		return 1, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if s == "" {
		return 0, false
	}
	digit := func(c rune) int {
		for i, k := range kanjiDigits {
			if i > 0 && string(c) == k {
				return i
			}
		}
		return -1
	}
	total, cur := 0, 0
	for _, c := range s {
		switch {
		case c == '十':
			if cur == 0 {
				cur = 1
			}
			total += cur * 10
			cur = 0
		case digit(c) > 0 && cur == 0:
			cur = digit(c)
		default:
			return 0, false
		}
	}
	return total + cur, true
}
