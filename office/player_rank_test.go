package office

import (
	"testing"

	"kisen/store"
)

func TestParseRank_CanonicalSpelling(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"初段", "初段"}, {"1段", "初段"}, {"１段", "初段"}, {"一段", "初段"},
		{"九段", "九段"}, {"9段", "九段"}, {"四段", "四段"},
		{"1級", "1級"}, {"15級", "15級"}, {"十五級", "15級"}, {"十級", "10級"}, {"一級", "1級"},
		{"アマ四段", "アマ四段"}, {"アマ2級", "アマ2級"}, {"ｱﾏ三段", "アマ三段"},
		{"女流初段", "女流初段"}, {"女流2級", "女流2級"}, {" 女流三段 ", "女流三段"},
	}
	for _, c := range cases {
		r, err := ParseRank(c.in)
		if err != nil {
			t.Errorf("ParseRank(%q): %v", c.in, err)
			continue
		}
		if r.String() != c.want {
			t.Errorf("ParseRank(%q) = %q, want %q", c.in, r, c.want)
		}
	}
	for _, bad := range []string{"", "段", "十段", "0段", "10段", "16級", "0級", "初級", "01級", "+1級", "名人", "アマ", "プロ四段", "四段目", "二十級", "-1級"} {
		if r, err := ParseRank(bad); err == nil {
			t.Errorf("ParseRank(%q) accepted as %q", bad, r)
		}
	}
}

func TestRank_FitsKind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rank string
		kind store.PlayerKind
		want bool
	}{
		{"四段", store.PlayerProfessional, true},
		{"九段", store.PlayerProfessional, true},
		{"三段", store.PlayerProfessional, false},
		{"女流二段", store.PlayerProfessional, false},
		{"女流二段", store.PlayerWomens, true},
		{"女流3級", store.PlayerWomens, true},
		{"女流4級", store.PlayerWomens, false},
		{"四段", store.PlayerWomens, false},
		{"三段", store.PlayerShoreikai, true},
		{"6級", store.PlayerShoreikai, true},
		{"7級", store.PlayerShoreikai, false},
		{"四段", store.PlayerShoreikai, false},
		{"アマ八段", store.PlayerAmateur, true},
		{"アマ九段", store.PlayerAmateur, false},
		{"初段", store.PlayerAmateur, true},
		{"15級", store.PlayerAmateur, true},
		{"女流初段", store.PlayerAmateur, false},
		{"アマ初段", store.PlayerProfessional, false},
	}
	for _, c := range cases {
		r, err := ParseRank(c.rank)
		if err != nil {
			t.Fatalf("%s: %v", c.rank, err)
		}
		if got := r.FitsKind(c.kind); got != c.want {
			t.Errorf("%s fits %s = %v, want %v", c.rank, c.kind, got, c.want)
		}
	}
}
