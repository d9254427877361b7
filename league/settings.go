package league

import "fmt"

// PairRule restricts when two related players (師弟, 兄弟弟子, 肉親) may meet.
//
// NotFirst and NotLast are counted per player: the game may not be among
// either player's own first NotFirst games or own last NotLast games. A
// player's games are numbered in round order, skipping the round they rest
// in, so with a rest in round 2 a player's second game is in round 3.
type PairRule struct {
	Never         bool `json:"never"`
	NotFirst      int  `json:"not_first"`
	NotLast       int  `json:"not_last"`
	NotFinalRound bool `json:"not_final_round"`
}

// PreviousTermPolicy says what to do with last term's opponents.
type PreviousTermPolicy string

const (
	PreviousAllow  PreviousTermPolicy = "allow"
	PreviousAvoid  PreviousTermPolicy = "avoid"  // D-C1: only when nothing else works, as few as possible
	PreviousForbid PreviousTermPolicy = "forbid" // D-C2
)

// SenteGoteRule is the sente/gote plan (D-B2). Balance (counts differ by at
// most one) always holds; the rest are settings.
type SenteGoteRule struct {
	// MaxRun is the longest run of games on the same side (2: never three
	// in a row). A rest does not break a run: runs are counted over the
	// player's own games in order.
	MaxRun int `json:"max_run"`
	// SplitFirstTwo: a player's games 1 and 2 are one sente and one gote.
	SplitFirstTwo bool `json:"split_first_two"`
	// SplitLastTwo: likewise the player's last two games.
	SplitLastTwo bool `json:"split_last_two"`
}

// Settings are the league settings; DefaultSettings gives each kind and
// class the federation's defaults.
type Settings struct {
	// RoundRobin: everyone plays everyone once (A, B1, other leagues).
	RoundRobin bool `json:"round_robin"`
	// GamesPerPlayer is R for partial schedules (B2, C1, C2).
	GamesPerPlayer  int      `json:"games_per_player"`
	MasterStudent   PairRule `json:"master_student"`   // 師弟
	FellowDisciples PairRule `json:"fellow_disciples"` // 兄弟弟子
	Relatives       PairRule `json:"relatives"`        // 肉親
	// PreviousTerm applies to last term's opponents (D-C1 avoid, D-C2 forbid).
	PreviousTerm PreviousTermPolicy `json:"previous_term"`
	// NoThirdConsecutive forbids a pair that met in each of the two
	// previous terms (D-C1).
	NoThirdConsecutive bool `json:"no_third_consecutive"`
	// PreviousFinalNotRoundOne keeps last term's final-round pairs out of
	// round 1 (federation practice for A and B1).
	PreviousFinalNotRoundOne bool          `json:"previous_final_not_round_one"`
	SenteGote                SenteGoteRule `json:"sente_gote"`
}

// DefaultGamesPerPlayer is the 10 games of B2, C1 and C2.
const DefaultGamesPerPlayer = 10

// DefaultSettings returns the settings the federation uses (DOMAIN.md,
// 001 第8条 and the federation-practice notes).
func DefaultSettings(kind Kind, class Class) (Settings, error) {
	s := Settings{
		PreviousTerm: PreviousAllow,
		SenteGote:    SenteGoteRule{MaxRun: 2, SplitFirstTwo: true, SplitLastTwo: true}, // D-B2, 001 第8条B2
	}
	switch {
	case kind == KindLeague && class == "":
		s.RoundRobin = true
		s.MasterStudent = PairRule{NotFinalRound: true} // D-A5, 001 第8条A5
	case kind == KindJunisen && (class == ClassA || class == ClassB1):
		s.RoundRobin = true
		// D-A3 (001 第8条A3): 師弟 in the middle; practice: not the first
		// game or the last three, likewise 兄弟弟子 and 肉親.
		s.MasterStudent = PairRule{NotFirst: 1, NotLast: 3, NotFinalRound: true}
		s.FellowDisciples = PairRule{NotFirst: 1, NotLast: 3, NotFinalRound: true} // D-A4
		s.Relatives = PairRule{NotFirst: 1, NotLast: 3}
		s.PreviousFinalNotRoundOne = true
	case kind == KindJunisen && (class == ClassB2 || class == ClassC1 || class == ClassC2):
		s.GamesPerPlayer = DefaultGamesPerPlayer
		s.MasterStudent = PairRule{Never: true}                                    // D-A2, 001 第8条A2
		s.Relatives = PairRule{Never: true}                                        // practice
		s.FellowDisciples = PairRule{NotFirst: 1, NotLast: 3, NotFinalRound: true} // D-A4 + practice
		s.NoThirdConsecutive = true                                                // D-C1, 001 第8条C1
		s.PreviousTerm = PreviousAvoid
		if class == ClassC2 {
			s.PreviousTerm = PreviousForbid // D-C2, 001 第8条C2
		}
	default:
		return Settings{}, fmt.Errorf("%w: kind %q with class %q: 順位戦 needs a class A–C2, other leagues none", ErrInvalid, kind, class)
	}
	return s, nil
}

func (s Settings) validate() error {
	switch s.PreviousTerm {
	case PreviousAllow, PreviousAvoid, PreviousForbid:
	default:
		return inputErr(InputSettings, "settings.previous_term", map[string]any{"Setting": "previous_term"}, "settings.previous_term %q: must be allow, avoid or forbid", s.PreviousTerm)
	}
	if s.SenteGote.MaxRun < 1 {
		return inputErr(InputSettings, "settings.sente_gote.max_run", map[string]any{"Setting": "sente_gote.max_run"}, "settings.sente_gote.max_run must be at least 1, got %d", s.SenteGote.MaxRun)
	}
	rules := []struct {
		name string
		r    PairRule
	}{{"master_student", s.MasterStudent}, {"fellow_disciples", s.FellowDisciples}, {"relatives", s.Relatives}}
	for _, x := range rules {
		if x.r.NotFirst < 0 || x.r.NotLast < 0 {
			return inputErr(InputSettings, "settings."+x.name, map[string]any{"Setting": x.name}, "settings.%s: not_first and not_last cannot be negative", x.name)
		}
	}
	return nil
}
