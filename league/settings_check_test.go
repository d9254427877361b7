package league

import (
	"slices"
	"testing"
)

func problemFields(ps []SettingProblem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Field+"="+p.Rule)
	}
	return out
}

// Every default passes; each edit that drops a seed rule is named with the
// rule it breaks; practice rules may be switched off.
func TestCheckSettings_D_A2_D_A3_D_A4_D_A5_D_B2_D_C1_D_C2(t *testing.T) {
	t.Parallel()
	for _, kc := range []struct {
		k Kind
		c Class
	}{{KindJunisen, ClassA}, {KindJunisen, ClassB1}, {KindJunisen, ClassB2}, {KindJunisen, ClassC1}, {KindJunisen, ClassC2}, {KindLeague, ""}} {
		s, err := DefaultSettings(kc.k, kc.c)
		if err != nil {
			t.Fatal(err)
		}
		if ps := CheckSettings(kc.k, kc.c, s); len(ps) != 0 {
			t.Errorf("%s %s defaults: %v", kc.k, kc.c, problemFields(ps))
		}
	}
	cases := []struct {
		name  string
		kind  Kind
		class Class
		edit  func(*Settings)
		want  []string // field=rule, empty: allowed
	}{
		{"A: practice window off is allowed down to D-A3's one game", KindJunisen, ClassA, func(s *Settings) {
			s.MasterStudent = PairRule{NotFirst: 1, NotLast: 1}
			s.FellowDisciples = PairRule{NotFinalRound: true}
			s.Relatives = PairRule{}
			s.PreviousFinalNotRoundOne = false
			s.SenteGote.SplitFirstTwo, s.SenteGote.SplitLastTwo = false, false
		}, nil},
		{"A: 師弟 at the start", KindJunisen, ClassA, func(s *Settings) { s.MasterStudent.NotFirst = 0 }, []string{"master_student.not_first=D-A3"}},
		{"B1: 師弟 at the end", KindJunisen, ClassB1, func(s *Settings) { s.MasterStudent.NotLast = 0 }, []string{"master_student.not_last=D-A3"}},
		{"A: wider window", KindJunisen, ClassA, func(s *Settings) { s.MasterStudent.NotFirst, s.MasterStudent.NotLast = 2, 4 }, nil},
		{"A: window out of range", KindJunisen, ClassA, func(s *Settings) { s.Relatives.NotLast = MaxWindow + 1 }, []string{"relatives.not_last=range"}},
		{"C1: 師弟 allowed", KindJunisen, ClassC1, func(s *Settings) { s.MasterStudent = PairRule{NotFirst: 1} }, []string{"master_student.never=D-A2"}},
		{"C1: relatives allowed (practice)", KindJunisen, ClassC1, func(s *Settings) { s.Relatives = PairRule{} }, nil},
		{"B2: 兄弟弟子 in the final round", KindJunisen, ClassB2, func(s *Settings) { s.FellowDisciples = PairRule{NotFirst: 1} }, []string{"fellow_disciples.not_final_round=D-A4"}},
		{"B2: previous term allowed", KindJunisen, ClassB2, func(s *Settings) { s.PreviousTerm = PreviousAllow }, []string{"previous_term=D-C1-previous-term"}},
		{"B2: previous term forbidden is stricter", KindJunisen, ClassB2, func(s *Settings) { s.PreviousTerm = PreviousForbid }, nil},
		{"C1: third term", KindJunisen, ClassC1, func(s *Settings) { s.NoThirdConsecutive = false }, []string{"no_third_consecutive=D-C1"}},
		{"C2: previous term only avoided", KindJunisen, ClassC2, func(s *Settings) { s.PreviousTerm = PreviousAvoid }, []string{"previous_term=D-C2"}},
		{"C2: three in a row", KindJunisen, ClassC2, func(s *Settings) { s.SenteGote.MaxRun = 3 }, []string{"sente_gote.max_run=D-B2"}},
		{"C2: eight games", KindJunisen, ClassC2, func(s *Settings) { s.GamesPerPlayer = 8 }, nil},
		{"C2: no games", KindJunisen, ClassC2, func(s *Settings) { s.GamesPerPlayer = 0 }, []string{"games_per_player=range"}},
		{"league: 師弟 in the final round", KindLeague, "", func(s *Settings) { s.MasterStudent = PairRule{} }, []string{"master_student.not_final_round=D-A5"}},
		{"league: not a round robin", KindLeague, "", func(s *Settings) { s.RoundRobin = false; s.GamesPerPlayer = 3 }, []string{"round_robin=range"}},
		{"league: bad policy", KindLeague, "", func(s *Settings) { s.PreviousTerm = "sometimes" }, []string{"previous_term=range"}},
	}
	for _, tc := range cases {
		s, _ := DefaultSettings(tc.kind, tc.class)
		tc.edit(&s)
		got := problemFields(CheckSettings(tc.kind, tc.class, s))
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: problems %v, want %v", tc.name, got, tc.want)
		}
	}
}
