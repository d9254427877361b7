package pairing

import (
	"errors"
	"fmt"
	"strings"
)

// Rules a bracket can break, as reported by Check.
const (
	RuleMasterStudent = "D-A1"              // 師弟 game in round 1 of a first preliminary
	RuleSeedPlacement = "seed-placement"    // a seeded player away from their seed line
	RuleByePlacement  = "bye-placement"     // a bye where the seeding puts a player, or the reverse
	RuleDuplicate     = "entrant-duplicate" // one entrant in two slots
	RuleMissing       = "entrant-missing"   // an entrant in no slot
	RuleSize          = "bracket-size"      // slot count is not the bracket size the field needs
)

// Violation is one broken rule in a bracket, with the slots and players
// involved so a UI can highlight them.
type Violation struct {
	Rule    string   `json:"rule"`
	Slots   []int    `json:"slots,omitempty"`
	Players []string `json:"players,omitempty"`
	Message string   `json:"message"`
}

// Check reports every rule the bracket breaks for this field (req supplies
// the entrants and extra 師弟 pairs; the stage is the bracket's). It is the
// judge for manual edits and for `kisen draw bracket --check`. Unknown IDs in
// the slots are bad input (an error), not violations.
func Check(b Bracket, req DrawRequest) ([]Violation, error) {
	if _, err := ParseStage(string(b.Stage)); err != nil {
		return nil, err
	}
	f, err := newField(req.Entrants, req.MasterStudentPairs)
	if err != nil {
		return nil, err
	}
	l, err := planLayout(f)
	if err != nil {
		return nil, err
	}
	at := make([]int, len(b.Slots)) // slot → entrant index, -1 bye
	seen := make(map[int]int, len(f.entrants))
	var out []Violation
	for s, id := range b.Slots {
		at[s] = -1
		if id == "" {
			continue
		}
		i, ok := f.index[id]
		if !ok {
			return nil, fieldErr(fmt.Sprintf("slots[%d]", s), "unknown entrant %q", id)
		}
		at[s] = i
		if first, dup := seen[i]; dup {
			out = append(out, Violation{Rule: RuleDuplicate, Slots: []int{first, s}, Players: []string{id},
				Message: fmt.Sprintf("%s appears in slots %d and %d", id, first, s)})
			continue
		}
		seen[i] = s
	}
	for i, e := range f.entrants {
		if _, ok := seen[i]; !ok {
			out = append(out, Violation{Rule: RuleMissing, Players: []string{e.ID}, Message: fmt.Sprintf("%s is in no slot", e.ID)})
		}
	}
	if len(b.Slots) != l.size {
		out = append(out, Violation{Rule: RuleSize,
			Message: fmt.Sprintf("%d slots, but %d entrants need a bracket of %d", len(b.Slots), len(f.entrants), l.size)})
		return out, nil // placement rules need the right shape
	}
	for s, want := range l.slots {
		got := at[s]
		switch {
		case want >= 0 && got != want:
			e := f.entrants[want]
			out = append(out, Violation{Rule: RuleSeedPlacement, Slots: []int{s}, Players: []string{e.ID},
				Message: fmt.Sprintf("seed %d (%s) belongs in slot %d (seed line %d), which holds %s", e.Seed, e.ID, s, l.lines[s], slotName(b.Slots[s]))})
		case want == slotBye && got >= 0:
			out = append(out, Violation{Rule: RuleByePlacement, Slots: []int{s}, Players: []string{b.Slots[s]},
				Message: fmt.Sprintf("slot %d (seed line %d) should be a bye; byes go to the top seeds, but it holds %s", s, l.lines[s], b.Slots[s])})
		case want == slotFree && got < 0:
			out = append(out, Violation{Rule: RuleByePlacement, Slots: []int{s},
				Message: fmt.Sprintf("slot %d (seed line %d) should hold a player, but it is a bye", s, l.lines[s])})
		}
	}
	if b.Stage.barsMasterStudent() {
		for s := 0; s < l.size; s += 2 {
			x, y := at[s], at[s+1]
			if x >= 0 && y >= 0 && f.isRelated(x, y) {
				ids := []string{f.entrants[x].ID, f.entrants[y].ID}
				out = append(out, Violation{Rule: RuleMasterStudent, Slots: []int{s, s + 1}, Players: ids,
					Message: fmt.Sprintf("%s and %s are master and student and meet in round 1 of the first preliminary (001 第8条A1)", ids[0], ids[1])})
			}
		}
	}
	return out, nil
}

func slotName(id string) string {
	if id == "" {
		return "a bye"
	}
	return id
}

// Swap exchanges two slots of a bracket and reports every rule the result
// breaks, so a director sees them before saving (see RequireOverride).
func Swap(b Bracket, req DrawRequest, i, j int) (Bracket, []Violation, error) {
	for k, s := range []int{i, j} {
		if s < 0 || s >= len(b.Slots) {
			return Bracket{}, nil, fieldErr([]string{"a", "b"}[k], "slot %d out of range [0, %d)", s, len(b.Slots))
		}
	}
	out := b
	out.Slots = append([]string(nil), b.Slots...)
	out.Slots[i], out.Slots[j] = out.Slots[j], out.Slots[i]
	out.Method = "manual"
	v, err := Check(out, req)
	if err != nil {
		return Bracket{}, nil, err
	}
	return out, v, nil
}

// ErrOverrideRequired: an edited bracket breaks a rule and no reason was given.
var ErrOverrideRequired = errors.New("the edit breaks a draw rule; an override reason is required")

// RequireOverride lets an edit that breaks rules be saved only with a
// written reason, so the record shows why the director departed from them.
func RequireOverride(v []Violation, reason string) error {
	if len(v) == 0 || strings.TrimSpace(reason) != "" {
		return nil
	}
	rules := make([]string, len(v))
	for k, x := range v {
		rules[k] = x.Rule
	}
	return fmt.Errorf("%w (%s)", ErrOverrideRequired, strings.Join(rules, ", "))
}
