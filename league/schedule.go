package league

import "time"

// Game is one scheduled game with its side fixed in advance (D-B2).
// Date is the zero time when the draw had no calendar.
type Game struct {
	Sente string    `json:"sente"`
	Gote  string    `json:"gote"`
	Date  time.Time `json:"date"`
}

// Round is one round of the league: its games and the players resting
// (抜け番). Date is the round's first calendar date.
type Round struct {
	Number int       `json:"round"`
	Date   time.Time `json:"date"`
	Games  []Game    `json:"games"`
	Rests  []string  `json:"rests"`
}

// Schedule is a league term's rounds in order.
type Schedule struct {
	Rounds []Round `json:"rounds"`
}

// Pairings lists every pair that meets in the schedule, round by round; it
// is what next term's D-C1 / D-C2 checks need.
func (s Schedule) Pairings() []Pair {
	var out []Pair
	for _, r := range s.Rounds {
		for _, g := range r.Games {
			out = append(out, Pair{g.Sente, g.Gote})
		}
	}
	return out
}

// FinalRoundPairs lists the pairs of the last round (next term's
// practice-previous-final-pair check).
func (s Schedule) FinalRoundPairs() []Pair {
	if len(s.Rounds) == 0 {
		return nil
	}
	var out []Pair
	for _, g := range s.Rounds[len(s.Rounds)-1].Games {
		out = append(out, Pair{g.Sente, g.Gote})
	}
	return out
}

// slot is one of a player's games seen from that player.
type slot struct {
	round    int // 0-based
	opponent string
	sente    bool
}

// sequences lists each player's games in round order (the order that
// "first game", "last three" and runs of one side are counted in).
func (s Schedule) sequences() map[string][]slot {
	seq := make(map[string][]slot)
	for r, rd := range s.Rounds {
		for _, g := range rd.Games {
			seq[g.Sente] = append(seq[g.Sente], slot{round: r, opponent: g.Gote, sente: true})
			seq[g.Gote] = append(seq[g.Gote], slot{round: r, opponent: g.Sente, sente: false})
		}
	}
	return seq
}
