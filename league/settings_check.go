package league

import "fmt"

// SettingProblem is one setting a class may not have: Field names it as in
// the Settings JSON (e.g. "master_student.never"), Rule is the seed rule
// (D-id) it would break, or "range" for a number out of bounds.
type SettingProblem struct {
	Field string `json:"field"`
	Rule  string `json:"rule"`
}

func (p SettingProblem) Error() string {
	return fmt.Sprintf("settings.%s: breaks %s", p.Field, p.Rule)
}

// MaxWindow bounds not_first / not_last: no class plays more games.
const MaxWindow = 30

// CheckSettings lists what an edited class setting would break. The
// federation-practice rules (window lengths, relatives, the sente/gote
// split, last term's final pair) are free; what the seeds require cannot
// be switched off (001 第8条):
//
//   - D-A2 (B2, C1, C2): 師弟 never meet.
//   - D-A3 (A, B1): 師弟 in the middle — neither player's first nor last
//     game, so not_first ≥ 1 and not_last ≥ 1.
//   - D-A4 (every 順位戦): no 兄弟弟子 in the final round.
//   - D-A5 (other leagues): no 師弟 in the final round.
//   - D-B2: never three games running on one side (max_run 1 or 2).
//   - D-C1 (B2, C1): last term's opponents avoided or forbidden, never a
//     third consecutive term; D-C2 (C2): last term's opponents forbidden.
//   - A and B1 and other leagues are round robins; B2–C2 are not.
func CheckSettings(kind Kind, class Class, s Settings) []SettingProblem {
	var out []SettingProblem
	add := func(field, rule string) { out = append(out, SettingProblem{Field: field, Rule: rule}) }
	def, err := DefaultSettings(kind, class)
	if err != nil {
		return []SettingProblem{{Field: "class", Rule: "range"}}
	}
	for _, r := range []struct {
		name string
		p    PairRule
	}{{"master_student", s.MasterStudent}, {"fellow_disciples", s.FellowDisciples}, {"relatives", s.Relatives}} {
		if r.p.NotFirst < 0 || r.p.NotFirst > MaxWindow {
			add(r.name+".not_first", "range")
		}
		if r.p.NotLast < 0 || r.p.NotLast > MaxWindow {
			add(r.name+".not_last", "range")
		}
	}
	if s.SenteGote.MaxRun < 1 || s.SenteGote.MaxRun > 2 {
		add("sente_gote.max_run", RuleSenteGote)
	}
	if s.RoundRobin != def.RoundRobin {
		add("round_robin", "range")
	}
	if !s.RoundRobin && (s.GamesPerPlayer < 1 || s.GamesPerPlayer > 200) {
		add("games_per_player", "range")
	}
	switch s.PreviousTerm {
	case PreviousAllow, PreviousAvoid, PreviousForbid:
	default:
		add("previous_term", "range")
	}
	if kind == KindLeague {
		if !s.MasterStudent.Never && !s.MasterStudent.NotFinalRound {
			add("master_student.not_final_round", RuleMasterStudentLast)
		}
		return out
	}
	if !s.FellowDisciples.Never && !s.FellowDisciples.NotFinalRound {
		add("fellow_disciples.not_final_round", RuleFellowFinalRound)
	}
	switch class {
	case ClassA, ClassB1:
		if s.MasterStudent.Never {
			add("master_student.never", RuleMasterStudentMid) // a round robin cannot skip a pair
		}
		if s.MasterStudent.NotFirst < 1 {
			add("master_student.not_first", RuleMasterStudentMid)
		}
		if s.MasterStudent.NotLast < 1 {
			add("master_student.not_last", RuleMasterStudentMid)
		}
		if s.FellowDisciples.Never {
			add("fellow_disciples.never", "round_robin")
		}
		if s.Relatives.Never {
			add("relatives.never", "round_robin")
		}
	case ClassB2, ClassC1:
		if !s.MasterStudent.Never {
			add("master_student.never", RuleNoMasterStudent)
		}
		if s.PreviousTerm == PreviousAllow {
			add("previous_term", RulePreviousAvoid)
		}
		if !s.NoThirdConsecutive {
			add("no_third_consecutive", RuleThirdTerm)
		}
	case ClassC2:
		if !s.MasterStudent.Never {
			add("master_student.never", RuleNoMasterStudent)
		}
		if s.PreviousTerm != PreviousForbid {
			add("previous_term", RulePreviousForbid)
		}
	}
	return out
}
