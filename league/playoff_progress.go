package league

import "fmt"

// PlayoffState is how far a stepladder (パラマス) has got. Next is the
// number of the game to play next (0 once the playoff is over) with its
// two players, Higher waiting and Lower coming up the ladder; Challenger
// is the last game's winner once the playoff is over.
type PlayoffState struct {
	Next       int    `json:"next"`
	Higher     string `json:"higher,omitempty"`
	Lower      string `json:"lower,omitempty"`
	Challenger string `json:"challenger,omitempty"`
}

// PlayoffProgress follows Stepladder's games with the winners known so
// far: winners[i] is game i+1's winner, "" while undecided; it may be
// shorter than games. A game can only be next once the game feeding it is
// decided, so Next is the first game without a winner whose players are
// both known, and 0 while the game before it is still being played.
func PlayoffProgress(games []PlayoffGame, winners []string) (PlayoffState, error) {
	if len(winners) > len(games) {
		return PlayoffState{}, fmt.Errorf("%w: %d winners for %d playoff games", ErrInvalid, len(winners), len(games))
	}
	players := func(k int) (string, string) { // game k (0-based)
		g := games[k]
		if g.LowerFrom == 0 {
			return g.Higher, g.Lower
		}
		if g.LowerFrom-1 < len(winners) {
			return g.Higher, winners[g.LowerFrom-1]
		}
		return g.Higher, ""
	}
	for k, w := range winners {
		h, l := players(k)
		if w != "" && w != h && w != l {
			return PlayoffState{}, fmt.Errorf("%w: playoff game %d: winner %q played neither %q nor %q", ErrInvalid, k+1, w, h, l)
		}
		if w == "" && k+1 < len(winners) && winners[k+1] != "" {
			return PlayoffState{}, fmt.Errorf("%w: playoff game %d has a winner before game %d", ErrInvalid, k+2, k+1)
		}
	}
	for k := range games {
		if k < len(winners) && winners[k] != "" {
			continue
		}
		h, l := players(k)
		if l == "" {
			return PlayoffState{}, nil // the game before is still open
		}
		return PlayoffState{Next: k + 1, Higher: h, Lower: l}, nil
	}
	return PlayoffState{Challenger: winners[len(games)-1]}, nil
}

// SettlePlayoff marks the playoff's winner as the challenger in a final
// table; the other tied players stay (A class: no promotion from the top).
// Playoff is emptied: the tie is decided, so NextOrder may go on.
func (t *Table) SettlePlayoff(challenger string) error {
	found := false
	for _, id := range t.Playoff {
		found = found || id == challenger
	}
	if !found {
		return fmt.Errorf("%w: challenger %q was not in the playoff %v", ErrInvalid, challenger, t.Playoff)
	}
	for i := range t.Rows {
		if t.Rows[i].Outcome != OutcomePlayoff {
			continue
		}
		t.Rows[i].Outcome = OutcomeStays
		if t.Rows[i].ID == challenger {
			t.Rows[i].Outcome = OutcomeChallenger
		}
	}
	t.Playoff = nil
	return nil
}
