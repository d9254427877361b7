package knockouts

import (
	"context"
	"strconv"

	"kisen/office"
	"kisen/pairing"
	"kisen/web/site"
)

// swapPick is the stage page's swap by picking: the slot picked first
// (Pick, 1-based) and, once a second is picked (With), what the swap
// would newly break, in words.
type swapPick struct {
	Pick, With int
	PickName   string
	WithName   string
	Breaks     []string
	Err        string
}

// pickURL is the stage page with slot a picked (and b, when > 0).
func pickURL(stageID int64, a, b int) string {
	u := site.StageURL(stageID) + "?pick=" + strconv.Itoa(a)
	if b > 0 {
		u += "&with=" + strconv.Itoa(b)
	}
	return u + "#swap"
}

// previewPick fills m.SwapPick's preview once two slots are picked.
func (s *Room) previewPick(ctx context.Context, a office.Actor, m *stageManage) error {
	p := &m.SwapPick
	if p.Pick < 1 || p.Pick > len(m.Slots) {
		*p = swapPick{}
		return nil
	}
	p.PickName = m.Slots[p.Pick-1].Name
	if p.With < 1 || p.With > len(m.Slots) || p.With == p.Pick {
		p.With = 0
		return nil
	}
	p.WithName = m.Slots[p.With-1].Name
	m.Swap.A, m.Swap.B = strconv.Itoa(p.Pick), strconv.Itoa(p.With)
	broke, err := s.Office.PreviewSwap(ctx, a, office.SwapInput{StageID: m.Stage.ID, A: p.Pick - 1, B: p.With - 1})
	if msgs, ok := site.FieldMsgsOf(ctx, err); ok {
		for _, msg := range msgs {
			p.Err = msg
		}
		return nil
	}
	if err != nil {
		return err
	}
	// The names as they would stand after the swap.
	after := func(slot int) string {
		switch slot + 1 {
		case p.Pick:
			return p.WithName
		case p.With:
			return p.PickName
		}
		if slot >= 0 && slot < len(m.Slots) {
			return m.Slots[slot].Name
		}
		return ""
	}
	for _, x := range broke {
		p.Breaks = append(p.Breaks, violationWords(ctx, x, after))
	}
	return nil
}

// violationWords says a broken draw rule with the players' names (slots
// are 0-based in x; nameAt names the player in a slot).
func violationWords(ctx context.Context, x pairing.Violation, nameAt func(int) string) string {
	slot := func(i int) (string, int) {
		if i < len(x.Slots) {
			return nameAt(x.Slots[i]), x.Slots[i] + 1
		}
		return "", 0
	}
	switch x.Rule {
	case pairing.RuleMasterStudent:
		a, _ := slot(0)
		b, _ := slot(1)
		return site.T(ctx, "swap_pick.rule.master_student", "A", a, "B", b)
	case pairing.RuleSeedPlacement:
		_, n := slot(0)
		return site.T(ctx, "swap_pick.rule.seed_placement", "Slot", n)
	case pairing.RuleByePlacement:
		name, n := slot(0)
		return site.T(ctx, "swap_pick.rule.bye_placement", "Slot", n, "Name", name)
	}
	a, n := slot(0)
	b, _ := slot(1)
	if w, ok := site.FinalRuleWords(ctx, x.Rule, a, b, n); ok { // a day class's final (day_final.go)
		return w
	}
	return site.T(ctx, "swap_pick.rule.other")
}
