package pairing

import (
	"fmt"
	"strconv"
	"strings"
)

// Stages chain (一次予選 → 二次予選 → 本戦): a stage cut at q qualifiers
// (Bracket.Qualifiers) sends its k-th qualifier, counted in bracket order,
// to the slot of the next stage that holds the placeholder
// QualifierID(stage name, k). The placeholder is an ordinary unseeded
// entrant of the next stage's draw, so the draw decides which named slot
// each block's winner fills; seeded players enter the later stage directly
// (Entrant.Seed, and EnterRound for deeper rounds).

// QualifierID names the k-th qualifier (1-based) of a stage.
func QualifierID(stage string, k int) string { return stage + "#" + strconv.Itoa(k) }

// QualifierEntrants are the placeholders a stage with q qualifiers puts
// into the next stage's draw.
func QualifierEntrants(stage string, q int) []Entrant {
	out := make([]Entrant, q)
	for k := range out {
		id := QualifierID(stage, k+1)
		out[k] = Entrant{ID: id, Name: id}
	}
	return out
}

// StageRun is one stage of an event: its drawn bracket and its results.
type StageRun struct {
	Name      string
	Bracket   Bracket
	Results   []Result
	Withdrawn []string
}

// StageProgress is a stage with the earlier stages' qualifiers filled in.
type StageProgress struct {
	Name     string
	Slots    []string // the bracket with every known qualifier in place
	Progress Progress
}

// AdvanceEvent runs the stages in order: each stage's known qualifiers
// replace its placeholders in the next stage, and results of the next stage
// apply to the filled bracket. A placeholder still unknown stays in the
// slot, so its games are pending.
func AdvanceEvent(stages []StageRun) ([]StageProgress, error) {
	out := make([]StageProgress, 0, len(stages))
	known := map[string]string{} // placeholder → qualifier
	names := map[string]bool{}
	for i, st := range stages {
		at := fmt.Sprintf("stages[%d]", i)
		if st.Name == "" || strings.Contains(st.Name, "#") || names[st.Name] {
			return nil, fieldErr(at+".name", "stage name %q must be non-empty, unique and without '#'", st.Name)
		}
		names[st.Name] = true
		if i < len(stages)-1 && st.Bracket.Qualifiers < 1 {
			return nil, fieldErr(at+".bracket.qualifiers", "a stage before the last must say how many players go on")
		}
		b := st.Bracket
		b.Slots = append([]string(nil), b.Slots...)
		pendingSlots := map[int]bool{}
		for s, id := range b.Slots {
			if q, ok := known[id]; ok {
				b.Slots[s] = q
			} else if isPlaceholder(id, names) {
				pendingSlots[s] = true
			}
		}
		p, err := advanceWithPending(b, st.Results, st.Withdrawn, pendingSlots)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", at, st.Name, err)
		}
		if q := b.Qualifiers; q >= 1 {
			winners := p.Qualifiers
			if q == 1 {
				winners = []string{p.Champion}
			}
			for k, w := range winners {
				if w != "" {
					known[QualifierID(st.Name, k+1)] = w
				}
			}
		}
		out = append(out, StageProgress{Name: st.Name, Slots: b.Slots, Progress: p})
	}
	return out, nil
}

// isPlaceholder reports whether id names a qualifier of an earlier stage.
func isPlaceholder(id string, stages map[string]bool) bool {
	i := strings.LastIndex(id, "#")
	if i < 0 {
		return false
	}
	_, err := strconv.Atoi(id[i+1:])
	return err == nil && stages[id[:i]]
}

// advanceWithPending is Advance with some first-round sides not yet known
// (a qualifier still playing in an earlier stage).
func advanceWithPending(b Bracket, results []Result, withdrawn []string, pending map[int]bool) (Progress, error) {
	if len(pending) == 0 {
		return Advance(b, results, withdrawn)
	}
	return advanceSides(b, results, withdrawn, func(s int) bool { return pending[s] })
}
