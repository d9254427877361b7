package office

import "kisen/pairing"

// advanceChains is pairing.AdvanceEvent over each chain of an event's
// stages. A stage that plays to a champion (no qualifiers) ends its chain
// and the next stage starts a new one: an amateur day holds each class's
// final knockout as its own stage of one event (docs/final-knockout.md).
// Before, such an event was refused ("a stage before the last must say how
// many players go on"), so no existing event reads differently. The
// progress comes back in stage order, as AdvanceEvent's does.
func advanceChains(runs []pairing.StageRun) ([]pairing.StageProgress, error) {
	out := make([]pairing.StageProgress, 0, len(runs))
	start := 0
	for i, r := range runs {
		if r.Bracket.Qualifiers >= 1 && i < len(runs)-1 {
			continue
		}
		p, err := pairing.AdvanceEvent(runs[start : i+1])
		if err != nil {
			return nil, err
		}
		out = append(out, p...)
		start = i + 1
	}
	return out, nil
}

// consolationGames are the 交流戦's games as the bracket page shows them:
// its round r is played alongside the main bracket's round r+1, so it takes
// that round's date.
func consolationGames(c *pairing.Progress, chains map[string]chainResult, dates []string, names bool) ([][]BracketGame, string) {
	if c == nil {
		return nil, ""
	}
	if len(dates) > 0 {
		dates = dates[1:]
	}
	out := make([][]BracketGame, 0, len(c.Rounds))
	for _, round := range c.Rounds {
		row := make([]BracketGame, len(round))
		for j, g := range round {
			row[j] = bracketGame(g, chains, dates, names)
		}
		out = append(out, row)
	}
	return out, c.Champion
}
