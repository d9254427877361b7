package knockouts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// The stage form's ranking-group fields (issue 24 item 8, D-G1,
// docs/ranking-groups.md): the group's line of the organiser's table in
// words and numbers. The office stores the line as JSON; the page never
// shows it.

// rankingFinishCodes are the finishes the form offers, in the order a
// director reads them (D-G4). A code is the form's value, never shown.
var rankingFinishCodes = []string{"winner", "runner_up", "playoff_winner_1", "playoff_winner_2", "playoff_winner_3", "playoff_winner_4",
	"playoff_runner_up", "playoff_third"}

// finishOfCode reads a form code as a finish.
func finishOfCode(code string) (pairing.Finish, bool) {
	switch code {
	case "winner":
		return pairing.Finish{Source: pairing.FinishWinner}, true
	case "runner_up":
		return pairing.Finish{Source: pairing.FinishRunnerUp}, true
	case "playoff_runner_up":
		return pairing.Finish{Source: pairing.FinishPlayoffRunnerUp}, true
	case "playoff_third":
		return pairing.Finish{Source: pairing.FinishPlayoffThird}, true
	}
	if k, ok := strings.CutPrefix(code, "playoff_winner_"); ok {
		if n, err := strconv.Atoi(k); err == nil && n >= 1 && n <= 4 {
			return pairing.Finish{Source: pairing.FinishPlayoffWinner, Index: n}, true
		}
	}
	return pairing.Finish{}, false
}

// codeOfFinish is the form code of f ("" for a finish the form does not offer).
func codeOfFinish(f pairing.Finish) string {
	if f.Source == pairing.FinishPlayoffWinner {
		return "playoff_winner_" + strconv.Itoa(f.Index)
	}
	return string(f.Source)
}

// FinishWords says a finish code in the reader's words (優勝, 決定戦の勝者1 …).
func FinishWords(ctx context.Context, code string) string {
	if k, ok := strings.CutPrefix(code, "playoff_winner_"); ok {
		return site.T(ctx, "knockout.ranking.finish.playoff_winner", "N", k)
	}
	return site.T(ctx, "knockout.ranking.finish."+code)
}

// rankingPresets are the 竜王戦 table's lines (docs/ranking-groups.md,
// "The 竜王戦 table"): 1組 … 5組 of 16 lines, 6組 of 32.
func rankingPreset(group int) (pairing.GroupRule, bool) {
	if group < 1 || group > 6 {
		return pairing.GroupRule{}, false
	}
	w := pairing.Finish{Source: pairing.FinishWinner}
	ru := pairing.Finish{Source: pairing.FinishRunnerUp}
	pw := func(k int) pairing.Finish { return pairing.Finish{Source: pairing.FinishPlayoffWinner, Index: k} }
	slot := func(k int) string { return fmt.Sprintf("%d組%d位", group, k) }
	r := pairing.GroupRule{Group: group, Places: []pairing.GroupPlace{{Finish: w, Slot: slot(1)}}}
	switch group {
	case 1:
		r.Places = append(r.Places, pairing.GroupPlace{Finish: ru, Slot: slot(2)}, pairing.GroupPlace{Finish: pw(1), Slot: slot(3)},
			pairing.GroupPlace{Finish: pairing.Finish{Source: pairing.FinishPlayoffRunnerUp}, Slot: slot(4)},
			pairing.GroupPlace{Finish: pairing.Finish{Source: pairing.FinishPlayoffThird}, Slot: slot(5)})
		r.Playoff = &pairing.PlayoffRule{FromRound: 2, ToRound: 3, Winners: 1, ThirdPlace: true}
		r.Survival = &pairing.SurvivalRule{Round: 1, Relegated: 4}
		return r, true
	case 2:
		r.Places = append(r.Places, pairing.GroupPlace{Finish: ru, Slot: slot(2)})
	}
	r.Promoted = []pairing.Finish{w, ru, pw(1), pw(2)}
	r.Playoff = &pairing.PlayoffRule{FromRound: 2, ToRound: 3, Winners: 2}
	r.Survival = &pairing.SurvivalRule{Round: 1, Relegated: 4}
	if group == 6 { // 32 lines, the lowest group
		r.Playoff.ToRound = 4
		r.Survival = nil
	}
	return r, true
}

// fillRanking sets the form's group fields from r.
func (in *stageInput) fillRanking(r pairing.GroupRule) {
	in.RkGroup = strconv.Itoa(r.Group)
	in.RkPlaceFinish, in.RkPlaceSlot, in.RkPromoted = nil, nil, nil
	for _, p := range r.Places {
		in.RkPlaceFinish = append(in.RkPlaceFinish, codeOfFinish(p.Finish))
		in.RkPlaceSlot = append(in.RkPlaceSlot, p.Slot)
	}
	for _, f := range r.Promoted {
		in.RkPromoted = append(in.RkPromoted, codeOfFinish(f))
	}
	in.RkPlayoffFrom, in.RkPlayoffTo, in.RkPlayoffWinners, in.RkPlayoffThird = "", "", "", ""
	if p := r.Playoff; p != nil {
		in.RkPlayoffFrom, in.RkPlayoffTo, in.RkPlayoffWinners = strconv.Itoa(p.FromRound), strconv.Itoa(p.ToRound), strconv.Itoa(p.Winners)
		if p.ThirdPlace {
			in.RkPlayoffThird = "1"
		}
	}
	in.RkSurvivalRound, in.RkSurvivalRelegated = "", ""
	if s := r.Survival; s != nil {
		in.RkSurvivalRound, in.RkSurvivalRelegated = strconv.Itoa(s.Round), strconv.Itoa(s.Relegated)
	}
}

// rankingEmpty: no group field is filled (an ordinary knockout).
func (in stageInput) rankingEmpty() bool {
	for _, s := range in.RkPlaceSlot {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	for _, s := range in.RkPlaceFinish {
		if s != "" {
			return false
		}
	}
	return strings.TrimSpace(in.RkGroup+in.RkPlayoffFrom+in.RkPlayoffTo+in.RkPlayoffWinners+in.RkSurvivalRound+in.RkSurvivalRelegated) == "" &&
		len(in.RkPromoted) == 0 && in.RkPlayoffThird == ""
}

// PlaceRows are the 本戦 place rows the form shows: the filled ones and
// empty ones to at least five, one more than filled.
func (in stageInput) PlaceRows() [][2]string {
	n := max(len(in.RkPlaceFinish), len(in.RkPlaceSlot))
	rows := make([][2]string, max(5, n+1))
	for i := range n {
		if i < len(in.RkPlaceFinish) {
			rows[i][0] = in.RkPlaceFinish[i]
		}
		if i < len(in.RkPlaceSlot) {
			rows[i][1] = in.RkPlaceSlot[i]
		}
	}
	return rows
}

// Promotes: the promoted checkbox for code is ticked.
func (in stageInput) Promotes(code string) bool { return slices.Contains(in.RkPromoted, code) }

// rankingRuleOf reads the form's group fields as the table line the office
// stores ("" for an ordinary knockout), refusing in words, next to the
// field, what no bracket could play (D-G1).
func rankingRuleOf(ctx context.Context, in stageInput, errs site.FieldMsgs) string {
	if in.rankingEmpty() {
		return ""
	}
	lz := site.L(ctx)
	num := func(field, s string, min, maxN int) int {
		s = strings.TrimSpace(s)
		if s == "" {
			return 0
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < min || n > maxN {
			if _, seen := errs[field]; !seen {
				errs[field] = lz.T("knockout.err.ranking_number")
			}
			return 0
		}
		return n
	}
	r := pairing.GroupRule{Group: num("rk_group", in.RkGroup, 1, 99), Places: []pairing.GroupPlace{}, Promoted: []pairing.Finish{}}
	if r.Group == 0 {
		if _, seen := errs["rk_group"]; !seen {
			errs["rk_group"] = lz.T("knockout.err.ranking_group")
		}
	}
	for i := range max(len(in.RkPlaceFinish), len(in.RkPlaceSlot)) {
		code, slot := "", ""
		if i < len(in.RkPlaceFinish) {
			code = in.RkPlaceFinish[i]
		}
		if i < len(in.RkPlaceSlot) {
			slot = strings.TrimSpace(in.RkPlaceSlot[i])
		}
		if code == "" && slot == "" {
			continue
		}
		f, ok := finishOfCode(code)
		if !ok || slot == "" {
			errs["rk_places"] = lz.T("knockout.err.ranking_place")
			continue
		}
		r.Places = append(r.Places, pairing.GroupPlace{Finish: f, Slot: slot})
	}
	for _, code := range in.RkPromoted {
		f, ok := finishOfCode(code)
		if !ok {
			errs["rk_promoted"] = lz.T("knockout.err.ranking_place")
			continue
		}
		r.Promoted = append(r.Promoted, f)
	}
	from := num("rk_playoff", in.RkPlayoffFrom, 1, 12)
	to := num("rk_playoff", in.RkPlayoffTo, 1, 12)
	winners := num("rk_playoff", in.RkPlayoffWinners, 1, 1024)
	switch {
	case from == 0 && to == 0 && winners == 0 && in.RkPlayoffThird == "":
	case from == 0 || winners == 0:
		if _, seen := errs["rk_playoff"]; !seen {
			errs["rk_playoff"] = lz.T("knockout.err.ranking_playoff_fields")
		}
	default:
		r.Playoff = &pairing.PlayoffRule{FromRound: from, ToRound: max(to, from), Winners: winners, ThirdPlace: in.RkPlayoffThird != ""}
	}
	round := num("rk_survival", in.RkSurvivalRound, 1, 12)
	relegated := num("rk_survival", in.RkSurvivalRelegated, 1, 1024)
	switch {
	case round == 0 && relegated == 0:
	case round == 0 || relegated == 0:
		if _, seen := errs["rk_survival"]; !seen {
			errs["rk_survival"] = lz.T("knockout.err.ranking_survival_fields")
		}
	default:
		r.Survival = &pairing.SurvivalRule{Round: round, Relegated: relegated}
	}
	if len(errs) > 0 {
		return ""
	}
	if fe := rankingLineFits(r); fe != nil {
		code, args := office.RankingInputWords(fe, nil)
		errs[rankingErrField(fe.Field)] = lz.TData(code, site.WordArgs(ctx, args))
		return ""
	}
	b, err := json.Marshal(r)
	if err != nil {
		errs["ranking_rule"] = lz.T("knockout.err.ranking_rule")
		return ""
	}
	return string(b)
}

// rankingLineFits checks r as the line of group r.Group in a table (groups
// above it and one below it without settings) for brackets of 4 … 4096
// lines: nil if some bracket size fits it (the draw checks the size it
// has), else the refusal for the smallest bracket holding the rounds the
// line names.
func rankingLineFits(r pairing.GroupRule) *pairing.FieldError {
	rules := make([]pairing.GroupRule, r.Group+1)
	sizes := make([]int, r.Group+1)
	for i := range rules {
		rules[i], sizes[i] = pairing.GroupRule{Group: i + 1}, 2
	}
	rules[r.Group-1] = r
	need := 2
	if p := r.Playoff; p != nil {
		need = max(need, p.ToRound+1)
	}
	if s := r.Survival; s != nil {
		need = max(need, s.Round+1)
	}
	var first *pairing.FieldError
	for k := 2; k <= 12; k++ {
		sizes[r.Group-1] = 1 << k
		err := pairing.ValidateRankingTable(rules, sizes)
		if err == nil {
			return nil
		}
		var fe *pairing.FieldError
		if !errors.As(err, &fe) {
			fe = &pairing.FieldError{Field: "groups", Reason: err.Error()}
		}
		if k == min(need, 12) {
			first = fe
		}
	}
	return first
}

// rankingErrField is the form field a table error belongs next to.
func rankingErrField(field string) string {
	for _, f := range []string{"places", "promoted", "playoff", "survival"} {
		if strings.Contains(field, "."+f) {
			return "rk_" + f
		}
	}
	return "rk_group"
}
