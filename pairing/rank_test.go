package pairing

import (
	"errors"
	"testing"
)

func TestRank_D_H_Parse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		step int
		ama  bool
	}{
		{"初段", 1, false}, {"三段", 3, false}, {"九段", 9, false}, {"1級", 0, false}, {"5級", -4, false},
		{"十級", -9, false}, {"十五級", -14, false}, {"アマ四段", 4, true}, {"３段", 3, false}, {"3d", 3, false},
		{"2k", -1, false}, {"3 dan", 3, false}, {"2 kyu", -1, false}, {"ama 2d", 2, true}, {" 2段 ", 2, false},
	}
	for _, tc := range cases {
		r, err := ParseRank(tc.in)
		if err != nil || r.Step != tc.step || r.Amateur != tc.ama {
			t.Errorf("ParseRank(%q) = %+v, %v; want step %d amateur %v", tc.in, r, err, tc.step, tc.ama)
		}
	}
	// 初段 is exactly one step above 1級 (D-H gap of 1).
	a, _ := ParseRank("初段")
	b, _ := ParseRank("1級")
	if a.Step-b.Step != 1 {
		t.Errorf("初段 − 1級 = %d", a.Step-b.Step)
	}
	for _, bad := range []string{"", "段", "十段", "0級", "31級", "abc", "3x", "初級", "-1d", "二二段"} {
		if _, err := ParseRank(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseRank(%q) accepted", bad)
		}
	}
}

// FuzzParseRank: no input panics, and an accepted rank prints to text that
// parses back to the same rank.
func FuzzParseRank(f *testing.F) {
	for _, s := range []string{"初段", "アマ四段", "15級", "3d", "2k", "十五級", "九十九級"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRank(s)
		if err != nil {
			return
		}
		if r.Step > maxDan || r.Step < 1-maxKyu {
			t.Fatalf("%q parsed to out-of-range step %d", s, r.Step)
		}
		back, err := ParseRank(r.String())
		if err != nil || back != r {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, r, r.String(), back, err)
		}
	})
}
