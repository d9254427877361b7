package adjudication

import "time"

// redoBreak is the rest before a redo game (001 第6条).
const redoBreak = 30 * time.Minute

// topUpTarget is the least time the lower clock starts a redo game with
// when the top-up applies (001 第6条1).
const topUpTarget = time.Hour

// RedoGame is the game that replays a 千日手 or 持将棋 (D-R1..R3).
type RedoGame struct {
	// Number counts redo games in the chain: 1 for the first redo, 2 for
	// a redo of that redo, … (D-R3: a redo of a redo is still a redo).
	Number int `json:"number"`
	// Players are the redo game's sides: swapped for an even game (D-R1,
	// 000 第8条第4項, 第9条第7項), unchanged for a handicap game (the giver
	// stays the giver and moves first; 003).
	Players Players `json:"players"`
	// ColoursSwapped says whether Players differ from the ended game's.
	ColoursSwapped bool `json:"colours_swapped"`
	// Handicap is the start, unchanged ("" for 平手).
	Handicap string `json:"handicap,omitempty"`
	// Allowance is each side's time in the redo game, by the redo game's
	// sides (D-R2); absent when the remaining times were not given.
	Allowance *Times `json:"allowance,omitempty"`
	// Break is the rest before it starts; it is played the same day.
	Break   Duration `json:"break"`
	SameDay bool     `json:"same_day"`
}

// RedoAllowance is each player's time for a redo game from what each had
// left when the game ended without result (D-R2, 001 第6条1・2). Indexes
// are the ended game's sides; the result follows the players, not the
// colours.
//
// Allowance over one hour: each keeps what is left; when either has less
// than one hour and RedoTopUp is on, both get the same addition so that
// the lower clock shows one hour — but the addition never takes a clock
// above the original allowance (第6条1 ただし書: a clock already at or
// above it gets nothing, one below it stops there).
//
// Allowance of one hour or less is the event's own rule (第6条3):
// ShortAllowanceRedo restart, remaining or top_up (the same rule with the
// allowance itself as the target).
func RedoAllowance(tc TimeControl, remaining Times) (Times, error) {
	if err := tc.Validate(); err != nil {
		return Times{}, err
	}
	for _, s := range []Side{Sente, Gote} {
		if d := remaining.Of(s).D(); d < 0 || d > maxAllowance {
			return Times{}, fieldErr("remaining."+s.String(), "%s is outside 0 … %s", d, maxAllowance)
		}
	}
	orig := tc.Allowance.D()
	target := topUpTarget
	if orig <= time.Hour {
		switch tc.ShortAllowanceRedo {
		case ShortRestart:
			return Times{Sente: tc.Allowance, Gote: tc.Allowance}, nil
		case ShortRemaining:
			return remaining, nil
		}
		target = orig // ShortTopUp
	} else if !tc.RedoTopUp {
		return remaining, nil
	}
	lower := min(remaining.Sente.D(), remaining.Gote.D())
	if lower >= target {
		return remaining, nil
	}
	add := target - lower
	var out Times
	for _, s := range []Side{Sente, Gote} {
		r := remaining.Of(s).D()
		v := r
		if r < orig {
			v = min(r+add, orig)
		}
		out.set(s, Duration(v))
	}
	return out, nil
}

// NextRedo describes the redo game after a game (redo number redoCount, 0
// for an original game) ended without result. remaining may be nil when
// the clocks were not given; the allowance is then left out.
func NextRedo(s Settings, players Players, handicap string, remaining *Times, redoCount int) (RedoGame, error) {
	if redoCount < 0 {
		return RedoGame{}, fieldErr("redo_count", "%d is negative", redoCount)
	}
	g := RedoGame{
		Number:   redoCount + 1,
		Players:  players,
		Handicap: handicap,
		Break:    Duration(redoBreak),
		SameDay:  true,
	}
	even := handicap == "" || handicap == "平手"
	if even {
		g.Players = players.Swapped()
		g.ColoursSwapped = true
	}
	if remaining != nil {
		perPlayer, err := RedoAllowance(s.Time, *remaining)
		if err != nil {
			return RedoGame{}, err
		}
		a := perPlayer
		if even {
			// The old gote player is the new sente and keeps their time.
			a = Times{Sente: perPlayer.Gote, Gote: perPlayer.Sente}
		}
		g.Allowance = &a
	}
	return g, nil
}
