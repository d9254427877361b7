package rating

import (
	"fmt"
	"time"
)

// HeadToHead is the record between two players.
type HeadToHead struct {
	A string `json:"a"`
	B string `json:"b"`
	// Games counts decided games they played (forfeits excluded).
	Games int `json:"games"`
	WinsA int `json:"wins_a"`
	WinsB int `json:"wins_b"`
	// NoResults counts 千日手/持将棋/無勝負 games between them; they are not
	// games in the record (D-R3) but are worth showing.
	NoResults int `json:"no_results"`
	// LastMet is the date of the latest game they played, with or without
	// a result; LastGame is its ID.
	LastMet  time.Time `json:"last_met,omitzero"`
	LastGame string    `json:"last_game,omitempty"`
}

// HeadToHeadOf counts the confirmed games between a and b. Handicap games
// are included (they met over the board); forfeits are not (they did not).
// Games not between a and b are ignored, so the whole result list may be
// passed.
func HeadToHeadOf(a, b string, games []Game) (HeadToHead, error) {
	if a == "" || b == "" {
		return HeadToHead{}, fmt.Errorf("head to head: player id is empty: %w", ErrInvalid)
	}
	if a == b {
		return HeadToHead{}, fmt.Errorf("head to head: %q against themself: %w", a, ErrInvalid)
	}
	h := HeadToHead{A: a, B: b}
	var last Game
	met := false
	for _, g := range games {
		if !g.Confirmed || g.Forfeit || !samePair(g, Game{Sente: a, Gote: b}) {
			continue
		}
		switch w := g.Winner(); {
		case w == a:
			h.Games++
			h.WinsA++
		case w == b:
			h.Games++
			h.WinsB++
		case g.Outcome.valid():
			h.NoResults++
		default:
			return HeadToHead{}, fmt.Errorf("head to head: game %q: outcome %q is not known: %w", g.ID, g.Outcome, ErrInvalid)
		}
		if !met || CompareGames(g, last) > 0 {
			last, met = g, true
		}
	}
	h.LastMet, h.LastGame = last.Date, last.ID
	return h, nil
}
