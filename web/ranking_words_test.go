package web

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// TestRankingGroups_D_G1_ErrorsInWords_JaEn (issue 24 item 8 with item 3): every
// ranking-group error the pairing room raises reads as words of its own in
// Japanese and English, with the values it names and no engine English on
// the Japanese page.
func TestRankingGroups_D_G1_ErrorsInWords_JaEn(t *testing.T) {
	t.Parallel()
	m, err := site.LoadMessages()
	if err != nil {
		t.Fatal(err)
	}
	full := func() ([]pairing.GroupRule, []int) {
		w := pairing.Finish{Source: pairing.FinishWinner}
		return []pairing.GroupRule{
			{Group: 1, Places: []pairing.GroupPlace{{Finish: w, Slot: "1組1位"}}, Survival: &pairing.SurvivalRule{Round: 1, Relegated: 2}},
			{Group: 2, Places: []pairing.GroupPlace{{Finish: w, Slot: "2組1位"}}, Promoted: []pairing.Finish{w},
				Playoff: &pairing.PlayoffRule{FromRound: 2, ToRound: 2, Winners: 1}},
		}, []int{8, 8}
	}
	var errs []error
	for _, f := range []func([]pairing.GroupRule, []int){
		func(r []pairing.GroupRule, s []int) { r[1].Group = 5 },
		func(r []pairing.GroupRule, s []int) { s[0] = 6 },
		func(r []pairing.GroupRule, s []int) { r[1].Playoff.ToRound = 3 },
		func(r []pairing.GroupRule, s []int) { r[0].Survival.Relegated = 3 },
		func(r []pairing.GroupRule, s []int) { r[1].Survival = &pairing.SurvivalRule{Round: 2, Relegated: 1} },
		func(r []pairing.GroupRule, s []int) {
			r[1].Promoted = append(r[1].Promoted, pairing.Finish{Source: pairing.FinishPlayoffWinner, Index: 2})
		},
		func(r []pairing.GroupRule, s []int) { r[1].Promoted = append(r[1].Promoted, r[1].Promoted[0]) },
		func(r []pairing.GroupRule, s []int) { r[1].Places[0].Slot = "1組1位" },
		func(r []pairing.GroupRule, s []int) { r[0].Promoted = r[1].Promoted },
		func(r []pairing.GroupRule, s []int) { r[1].Survival = &pairing.SurvivalRule{Round: 1, Relegated: 2} },
	} {
		r, s := full()
		f(r, s)
		errs = append(errs, pairing.ValidateRankingTable(r, s))
	}
	r, _ := full()
	_, err = pairing.AdvanceRankingGroup(pairing.RankingGroup{Rule: r[0], Slots: make([]string, 8)})
	errs = append(errs, err)
	_, _, err = pairing.NextTerm([]pairing.GroupOutcome{{Group: 1, Undecided: []string{"p"}}}, nil)
	errs = append(errs, err)
	_, _, err = pairing.NextTerm([]pairing.GroupOutcome{{Group: 1, Finished: true, Stays: []string{"p"}}}, []string{"p"})
	errs = append(errs, err)
	_, err = pairing.AdvanceRankingGroup(pairing.RankingGroup{Rule: r[0], Slots: []string{"a", "b", "c", "d", "e", "f", "g", "h"},
		Results: []pairing.Result{{Game: "R7-G1", Winner: "a"}}})
	errs = append(errs, err)

	_, err = pairing.MainEventEntrants([]pairing.GroupOutcome{{Group: 1, Finished: true, Places: []pairing.PlaceResult{{Slot: "1組1位", Player: "p"}}}}, nil)
	errs = append(errs, err)
	_, err = pairing.MainEventEntrants(nil, []pairing.MainSeat{{Slot: "1組1位", Seed: 1}, {Slot: "1組1位", Seed: 2}})
	errs = append(errs, err)

	english := regexp.MustCompile(`[A-Za-z]{3,}`)
	codes := map[string]bool{}
	for i, err := range errs {
		var fe *pairing.FieldError
		if !errors.As(err, &fe) {
			t.Fatalf("case %d: %v is not a FieldError", i, err)
		}
		id, args := office.RankingInputWords(fe, office.NameList{"木村"})
		codes[id] = true
		for _, lang := range []string{"ja", "en"} {
			s := m.For(lang).TData(id, args)
			if s == id || strings.Contains(s, "<no value>") || strings.Contains(s, fe.Reason) {
				t.Errorf("case %d %s %s: %q", i, lang, id, s)
			}
			if lang == "ja" && english.MatchString(s) {
				t.Errorf("case %d: English on the Japanese page: %q", i, s)
			}
		}
	}
	if len(codes) != 16 {
		t.Errorf("%d distinct messages, want the 15 codes and the general one: %v", len(codes), codes)
	}
}
