package league

import "fmt"

// PlayoffGame is one game of a stepladder playoff (パラマス). Higher is the
// higher-ranked player, who waits for it; the other side is either Lower
// (the first game) or the winner of game LowerFrom.
type PlayoffGame struct {
	Number    int    `json:"number"`
	Higher    string `json:"higher"`
	Lower     string `json:"lower,omitempty"`
	LowerFrom int    `json:"lower_from,omitempty"`
}

// Stepladder orders the playoff among tied players given in 順位 order
// (highest first): the two lowest-ranked play first, each winner then
// meets the next player up, and the last game is against the top-ranked
// player, so a higher 順位 means fewer games to win (DOMAIN.md: A class).
func Stepladder(tied []string) ([]PlayoffGame, error) {
	if len(tied) < 2 {
		return nil, fmt.Errorf("%w: a playoff needs at least two tied players, got %d", ErrInvalid, len(tied))
	}
	seen := map[string]bool{}
	for i, id := range tied {
		if id == "" || seen[id] {
			return nil, fmt.Errorf("%w: tied[%d] %q is empty or repeated", ErrInvalid, i, id)
		}
		seen[id] = true
	}
	k := len(tied)
	games := []PlayoffGame{{Number: 1, Higher: tied[k-2], Lower: tied[k-1]}}
	for i := k - 3; i >= 0; i-- {
		games = append(games, PlayoffGame{Number: len(games) + 1, Higher: tied[i], LowerFrom: len(games)})
	}
	return games, nil
}
