package day

import (
	"slices"
	"strings"

	"kisen/office"
	"kisen/store"
)

// Matching an entry with the registry (issue 23 §1,
// docs/amateur-day-entries.md): names and readings are compared folded
// (office.FoldName: spaces, katakana, width and the documented 異体字
// ignored). Pure: it takes the players it compares with.

// Match kinds, strongest first.
const (
	// MatchSame: the folded name and the folded reading both agree (or
	// the entry gives no reading and the name agrees) — the same person
	// as far as the registry can tell.
	MatchSame = "same"
	// MatchName: the folded name agrees, the reading does not (a
	// namesake, or a reading typed differently).
	MatchName = "name"
	// MatchReading: the folded reading agrees, the name does not even
	// after folding (another kanji for the same sound: 優斗 / 悠斗).
	MatchReading = "reading"
)

// Suggestion is a registered player an entry may be.
type Suggestion struct {
	Player store.Player
	Kind   string // MatchSame, MatchName or MatchReading
}

// SuggestPlayers lists the players an entry of name and reading may be:
// every player whose folded name or folded reading equals the entry's,
// the strongest kind first, then by reading and id. An entry with an
// empty name suggests nobody.
func SuggestPlayers(players []store.Player, name, reading string) []Suggestion {
	fn, fr := office.FoldName(name), office.FoldName(reading)
	if fn == "" {
		return nil
	}
	var out []Suggestion
	for _, p := range players {
		pn, pr := office.FoldName(p.Name), office.FoldName(p.Reading)
		switch {
		case pn == fn && (fr == "" || pr == fr):
			out = append(out, Suggestion{p, MatchSame})
		case pn == fn:
			out = append(out, Suggestion{p, MatchName})
		case fr != "" && pr == fr:
			out = append(out, Suggestion{p, MatchReading})
		}
	}
	rank := map[string]int{MatchSame: 0, MatchName: 1, MatchReading: 2}
	slices.SortStableFunc(out, func(a, b Suggestion) int {
		if d := rank[a.Kind] - rank[b.Kind]; d != 0 {
			return d
		}
		if c := strings.Compare(a.Player.Reading, b.Player.Reading); c != 0 {
			return c
		}
		return int(a.Player.ID - b.Player.ID)
	})
	return out
}

// OneSame is the one player suggested as the same person, when exactly
// one is; a paste line with it is matched rather than created.
func OneSame(ss []Suggestion) (store.Player, bool) {
	var found []store.Player
	for _, s := range ss {
		if s.Kind == MatchSame {
			found = append(found, s.Player)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return store.Player{}, false
}

// matcher indexes the registry by folded name and reading so a paste of
// many lines compares each line with a map, not with every player.
type matcher struct {
	byName, byReading map[string][]store.Player
}

func newMatcher(players []store.Player) matcher {
	m := matcher{byName: map[string][]store.Player{}, byReading: map[string][]store.Player{}}
	for _, p := range players {
		m.byName[office.FoldName(p.Name)] = append(m.byName[office.FoldName(p.Name)], p)
		if p.Reading != "" {
			m.byReading[office.FoldName(p.Reading)] = append(m.byReading[office.FoldName(p.Reading)], p)
		}
	}
	return m
}

// suggest is SuggestPlayers over the players sharing the folded name or
// reading (the same answer, found through the index).
func (m matcher) suggest(name, reading string) []Suggestion {
	fn, fr := office.FoldName(name), office.FoldName(reading)
	if fn == "" {
		return nil
	}
	seen := map[int64]bool{}
	var near []store.Player
	for _, ps := range [][]store.Player{m.byName[fn], m.byReading[fr]} {
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				near = append(near, p)
			}
		}
	}
	return SuggestPlayers(near, name, reading)
}
