package pairing

import (
	"errors"
	"slices"
	"testing"
)

func rulesOf(v []Violation) []string {
	var out []string
	for _, x := range v {
		out = append(out, x.Rule)
	}
	slices.Sort(out)
	return out
}

func TestSwap_D_A1_ReportsEveryBrokenRule(t *testing.T) {
	t.Parallel()
	req := DrawRequest{Stage: FirstPreliminary, Entrants: []Entrant{
		{ID: "s1", Seed: 1}, {ID: "m"}, {ID: "a", Master: "m"}, {ID: "x"}, {ID: "y"}, {ID: "z"}}, Seed: 4}
	b, err := Draw(req)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Check(b, req); err != nil || len(v) != 0 {
		t.Fatalf("fresh draw: %v, %v", v, err)
	}
	at := func(id string) int { return slices.Index(b.Slots, id) }
	// Put a opposite m: a D-A1 violation (unless already m's neighbour).
	mSlot := at("m")
	target := mSlot ^ 1
	edited, v, err := Swap(b, req, at("a"), target)
	if err != nil {
		t.Fatal(err)
	}
	if edited.Slots[target] != "a" || edited.Method != "manual" {
		t.Fatalf("swap did not move a: %v", edited.Slots)
	}
	wantRules := []string{RuleMasterStudent}
	if b.Slots[target] == "" { // a moved into a bye slot
		wantRules = append(wantRules, RuleByePlacement, RuleByePlacement)
	}
	slices.Sort(wantRules)
	if got := rulesOf(v); !slices.Equal(got, wantRules) {
		t.Fatalf("violations %v, want %v", got, wantRules)
	}
	if err := RequireOverride(v, ""); !errors.Is(err, ErrOverrideRequired) {
		t.Errorf("saving without a reason: %v", err)
	}
	if err := RequireOverride(v, "player request, approved by the 主催者"); err != nil {
		t.Errorf("saving with a reason: %v", err)
	}
	// Moving seed 1 off its line and into a bye.
	_, v, err = Swap(b, req, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(v); !slices.Equal(got, []string{RuleByePlacement, RuleSeedPlacement}) {
		t.Fatalf("violations %v", got)
	}
	if _, _, err := Swap(b, req, 0, 99); !errors.Is(err, ErrInvalid) {
		t.Errorf("out of range slot: %v", err)
	}
}

func TestCheck_CountsAndUnknownIDs(t *testing.T) {
	t.Parallel()
	req := DrawRequest{Stage: MainEvent, Entrants: []Entrant{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
	v, err := Check(Bracket{Stage: MainEvent, Slots: []string{"a", "a", "b", ""}}, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(v); !slices.Contains(got, RuleDuplicate) || !slices.Contains(got, RuleMissing) {
		t.Fatalf("violations %v", got)
	}
	v, _ = Check(Bracket{Stage: MainEvent, Slots: []string{"a", "b", "c", "", "", "", "", ""}}, req)
	if got := rulesOf(v); !slices.Equal(got, []string{RuleSize}) {
		t.Fatalf("violations %v", got)
	}
	if _, err := Check(Bracket{Stage: MainEvent, Slots: []string{"a", "b", "zz", ""}}, req); !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown id: %v", err)
	}
}
