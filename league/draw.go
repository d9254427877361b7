package league

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalid marks input that is malformed: the message names the field.
var ErrInvalid = errors.New("invalid league input")

// Kind says whether a league is a 順位戦 class or another league.
type Kind string

const (
	KindJunisen Kind = "junisen" // 順位戦
	KindLeague  Kind = "league"  // other round robins (挑戦者決定リーグ etc.)
)

// Class is a 順位戦 class; the empty class is used by other leagues.
type Class string

const (
	ClassA  Class = "A"
	ClassB1 Class = "B1"
	ClassB2 Class = "B2"
	ClassC1 Class = "C1"
	ClassC2 Class = "C2"
)

// Player is one league member with the lineage as of the draw date.
// Master is the id of the player's 師匠 (a classmate or anyone else), or "".
type Player struct {
	ID     string `json:"id"`
	Master string `json:"master,omitempty"`
}

// Pair is two player ids; the order carries no meaning.
type Pair [2]string

// Draw is everything a league schedule depends on. Players are listed in
// this term's 順位 order (highest first).
type Draw struct {
	Kind    Kind
	Class   Class
	Seed    uint64
	Players []Player
	// Relatives are 肉親 pairs (parent and child, siblings, …).
	Relatives []Pair
	// PreviousTerms[0] holds last term's pairings, PreviousTerms[1] the
	// term before (D-C1, D-C2). Pairs naming players outside the class are
	// ignored.
	PreviousTerms [][]Pair
	// PreviousFinalRound holds last term's final-round pairs.
	PreviousFinalRound []Pair
	// Dates gives, per round, the date(s) its games are played on; empty
	// means no calendar. The final round must have exactly one date (D-B1).
	Dates    [][]time.Time
	Settings Settings
}

// NewDraw returns a draw with the default settings of its kind and class.
func NewDraw(kind Kind, class Class, seed uint64, players []Player) (Draw, error) {
	s, err := DefaultSettings(kind, class)
	if err != nil {
		return Draw{}, err
	}
	return Draw{Kind: kind, Class: class, Seed: seed, Players: players, Settings: s}, nil
}

// RoundCount is the number of rounds the draw's schedule has: a round robin
// of n players has n-1 rounds (even n) or n rounds (odd n, one rest each);
// a partial schedule of R games has R rounds (even n) or R+1 (odd n).
func (d Draw) RoundCount() int {
	n := len(d.Players)
	g := d.GamesEach()
	if n%2 == 1 {
		return g + 1
	}
	return g
}

// GamesEach is the number of games every player plays.
func (d Draw) GamesEach() int {
	if d.Settings.RoundRobin {
		return len(d.Players) - 1
	}
	return d.Settings.GamesPerPlayer
}

// validate checks the shape of the input; errors wrap ErrInvalid and name
// the field.
func (d Draw) validate() error {
	switch d.Kind {
	case KindJunisen:
		switch d.Class {
		case ClassA, ClassB1, ClassB2, ClassC1, ClassC2:
		default:
			return inputErr(InputClass, "class", map[string]any{"Class": d.Class}, "class %q: a 順位戦 class must be one of A, B1, B2, C1, C2", d.Class)
		}
	case KindLeague:
		if d.Class != "" {
			return inputErr(InputClass, "class", map[string]any{"Class": d.Class}, "class %q: only 順位戦 (kind junisen) has classes", d.Class)
		}
	default:
		return inputErr(InputKind, "kind", map[string]any{"Kind": d.Kind}, "kind %q: must be junisen or league", d.Kind)
	}
	n := len(d.Players)
	if n < 2 {
		return inputErr(InputTooFewPlayers, "players", map[string]any{"Players": n}, "players: a league needs at least 2 players, got %d", n)
	}
	// The search grows with n² (and n³ for round robins); the largest real
	// classes have about 80 players and round robins about 20.
	if limit := maxPlayers(d.Settings.RoundRobin); n > limit {
		return inputErr(InputTooManyPlayers, "players", map[string]any{"Players": n, "Max": limit}, "players: %d players is more than the %d a class may have (%s); split the class", n, limit, classKind(d.Settings.RoundRobin))
	}
	seen := make(map[string]int, n)
	for i, p := range d.Players {
		if p.ID == "" {
			return inputErr(InputPlayerID, fmt.Sprintf("players[%d].id", i), map[string]any{"Player": ""}, "players[%d].id is empty", i)
		}
		if j, dup := seen[p.ID]; dup {
			return inputErr(InputPlayerID, fmt.Sprintf("players[%d].id", i), map[string]any{"Player": p.ID}, "players[%d].id %q repeats players[%d]", i, p.ID, j)
		}
		seen[p.ID] = i
		if p.Master == p.ID {
			return inputErr(InputOwnMaster, fmt.Sprintf("players[%d].master", i), map[string]any{"Player": p.ID}, "players[%d].master: %q cannot be their own master", i, p.ID)
		}
	}
	if err := d.Settings.validate(); err != nil {
		return err
	}
	if !d.Settings.RoundRobin {
		g := d.Settings.GamesPerPlayer
		if g < 1 {
			return inputErr(InputGamesTooFew, "games_per_player", map[string]any{"Games": g}, "games_per_player must be at least 1, got %d", g)
		}
		if g > n-1 {
			return inputErr(InputGamesOverClass, "games_per_player", map[string]any{"Games": g, "Classmates": n - 1, "Players": n}, "games_per_player %d exceeds the %d classmates each player has", g, n-1)
		}
	}
	for i, r := range d.Relatives {
		if err := checkPair(r, seen, true); err != nil {
			return inputErr(InputPair, fmt.Sprintf("relatives[%d]", i), map[string]any{"Player": r[0]}, "relatives[%d]: %v", i, err)
		}
	}
	if len(d.PreviousTerms) > 2 {
		return inputErr(InputPreviousTerms, "previous_terms", map[string]any{"Terms": len(d.PreviousTerms)}, "previous_terms: at most two terms (last, the one before), got %d", len(d.PreviousTerms))
	}
	for t, term := range d.PreviousTerms {
		for i, r := range term {
			if err := checkPair(r, seen, true); err != nil {
				return inputErr(InputPair, fmt.Sprintf("previous_terms[%d][%d]", t, i), map[string]any{"Player": r[0]}, "previous_terms[%d][%d]: %v", t, i, err)
			}
		}
	}
	for i, r := range d.PreviousFinalRound {
		if err := checkPair(r, seen, true); err != nil {
			return inputErr(InputPair, fmt.Sprintf("previous_final_round[%d]", i), map[string]any{"Player": r[0]}, "previous_final_round[%d]: %v", i, err)
		}
	}
	if len(d.Dates) > 0 {
		rounds := d.RoundCount()
		if len(d.Dates) != rounds {
			return inputErr(InputDatesCount, "dates", map[string]any{"Rounds": rounds, "Got": len(d.Dates)}, "dates: %d rounds need %d entries, got %d", rounds, rounds, len(d.Dates))
		}
		for r, ds := range d.Dates {
			if len(ds) == 0 {
				return inputErr(InputDateMissing, fmt.Sprintf("dates[%d]", r), map[string]any{"Round": r + 1}, "dates[%d]: round %d has no date", r, r+1)
			}
		}
		if len(d.Dates[rounds-1]) != 1 {
			return inputErr(InputFinalOneDay, fmt.Sprintf("dates[%d]", rounds-1), map[string]any{"Round": rounds, "Got": len(d.Dates[rounds-1])}, "dates[%d]: the final round is played on one day (D-B1, 001 第8条B1), got %d dates", rounds-1, len(d.Dates[rounds-1]))
		}
	}
	return nil
}

// checkPair rejects a pair of one player with themself; outsiders are
// allowed where lenient (old pairings may name players who left the class).
func checkPair(p Pair, seen map[string]int, lenient bool) error {
	if p[0] == "" || p[1] == "" {
		return errors.New("empty player id")
	}
	if p[0] == p[1] {
		return fmt.Errorf("%q paired with themself", p[0])
	}
	if !lenient {
		for _, id := range p {
			if _, ok := seen[id]; !ok {
				return fmt.Errorf("%q is not a player of this league", id)
			}
		}
	}
	return nil
}

// Class size limits (docs/league-draw-limits.md): the search grows with
// n² (n³ for round robins); the largest real classes have about 80
// players and round robins about 20.
const (
	MaxPlayers           = 200 // partial schedules (B2, C1, C2)
	MaxRoundRobinPlayers = 40  // round robins (A, B1, other leagues)
)

func maxPlayers(roundRobin bool) int {
	if roundRobin {
		return MaxRoundRobinPlayers
	}
	return MaxPlayers
}

func classKind(roundRobin bool) string {
	if roundRobin {
		return "round robin"
	}
	return "partial schedule"
}
