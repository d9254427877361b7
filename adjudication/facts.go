package adjudication

import (
	"fmt"
	"strings"
)

// maxPlies bounds ply numbers; no record is this long.
const maxPlies = 100000

// maxRedos bounds the redo count; far beyond any chain of redos.
const maxRedos = 1000

// EndingKind is how a game ended, as reported.
type EndingKind string

const (
	EndResign           EndingKind = "resign"            // 投了 (000 第6条第1項)
	EndMate             EndingKind = "mate"              // 詰み (000 第2条第4項, 第6条第1項)
	EndTimeForfeit      EndingKind = "time_forfeit"      // 時間切れ (D-X1, D-T)
	EndSennichite       EndingKind = "sennichite"        // 千日手 (D-S)
	EndJishogiAgreement EndingKind = "jishogi_agreement" // 持将棋 by agreement (D-J1, D-J2)
	EndDeclaration      EndingKind = "declaration"       // 入玉宣言 (D-J3)
	EndMaxMoves         EndingKind = "max_moves"         // 500 moves (D-J4)
	EndForfeit          EndingKind = "forfeit"           // 不戦: a player did not come
	EndFoul             EndingKind = "foul"              // stopped for a foul found during play (D-X2)
	EndArbiterFoulLoss  EndingKind = "arbiter_foul_loss" // the arbiter declared a foul loss (D-K1)
)

// EndingKinds lists every kind.
func EndingKinds() []EndingKind {
	return []EndingKind{EndResign, EndMate, EndTimeForfeit, EndSennichite, EndJishogiAgreement,
		EndDeclaration, EndMaxMoves, EndForfeit, EndFoul, EndArbiterFoulLoss}
}

// Ending is how the game ended, as the players, recorder or arbiter
// report it. By is the side the ending happened to: who resigned, was
// mated, ran out of time, was absent, fouled or declared.
type Ending struct {
	Kind EndingKind `json:"kind"`
	By   *Side      `json:"by,omitempty"`
	// BothAbsent: a forfeit where neither player came.
	BothAbsent bool `json:"both_absent,omitempty"`
	// Ply is the number of moves played when the game ended (the record's
	// length when a record is given).
	Ply int `json:"ply,omitempty"`
	// Foul names the foul for kind foul.
	Foul FoulKind `json:"foul,omitempty"`
	// TimeLeft is whether the declarer still had time on the clock (D-J3
	// condition 5 of the 27-point declaration; default true).
	TimeLeft *bool `json:"time_left,omitempty"`
	// PerpetualCheckBy names the checking side of a 千日手 that was
	// perpetual check, when no record shows it (D-S4).
	PerpetualCheckBy *Side `json:"perpetual_check_by,omitempty"`
}

// DeclarationFacts are the position facts a declaration is judged on,
// about the declarer (D-J3): all counted in the enemy camp (the three
// farthest ranks) or in hand.
type DeclarationFacts struct {
	KingInCamp   bool `json:"king_in_camp"`
	PiecesInCamp int  `json:"pieces_in_camp"` // pieces other than the king in the enemy camp
	Points       int  `json:"points"`         // over the pieces in hand and those in the enemy camp
	InCheck      bool `json:"in_check"`
}

// Findings are what the rules engine read from the game record; the
// record is authoritative where it contradicts the reported ending.
// adjudication/analysis computes them.
type Findings struct {
	// Plies is the number of moves in the record.
	Plies int `json:"plies"`
	// Complete: every move was legal, so the final-position facts below
	// describe the real final position. False when analysis stopped at Foul.
	Complete bool `json:"complete"`
	// Foul is the first illegal move.
	Foul *FoulFinding `json:"foul,omitempty"`
	// Sennichite lists every 4th occurrence of a position, in order (a
	// 千日手 that play went on from was broken, D-S3).
	Sennichite []SennichiteFinding `json:"sennichite,omitempty"`
	// FinalOccurrences is how often the final position has occurred (≥ 2
	// means the players were inside a cycle, D-S2).
	FinalOccurrences int `json:"final_occurrences,omitempty"`
	// Mate: the side to move at the end has no legal move (詰み).
	Mate bool `json:"mate"`
	// SideToMove is the side to move at the end.
	SideToMove Side `json:"side_to_move"`
	// Points are the jishogi points at the end, handicap pieces credited
	// to 上手 (D-J, 004); nil unless Complete.
	Points *Points `json:"points,omitempty"`
	// Declaration are the declaration facts for the side to move at the
	// end; nil unless Complete.
	Declaration *DeclarationFacts `json:"declaration,omitempty"`
	// MaxMovesPly is the ply at which the game became 持将棋 by the
	// 500-move rule (D-J4); 0 when the record never got there.
	MaxMovesPly int `json:"max_moves_ply,omitempty"`
}

// checkedPlies is how far the rules engine checked the record: all of it
// when Complete, up to the first illegal move, or up to a perpetual check
// (where the replay stops).
func (f *Findings) checkedPlies() int {
	switch {
	case f.Complete:
		return f.Plies
	case f.Foul != nil:
		return f.Foul.Ply
	}
	last := 0
	for _, s := range f.Sennichite {
		if s.Perpetual {
			last = s.Ply
		}
	}
	return last
}

// FoulFinding is an illegal move in the record.
type FoulFinding struct {
	Ply      int      `json:"ply"`
	Kind     FoulKind `json:"kind"`
	Offender Side     `json:"offender"`
}

// SennichiteFinding is a 4th occurrence of one position.
type SennichiteFinding struct {
	Ply       int  `json:"ply"`
	Perpetual bool `json:"perpetual"`
	// Loser is the side that gave every check (D-S4), when Perpetual.
	Loser *Side `json:"loser,omitempty"`
}

// Facts are everything known about one finished game.
type Facts struct {
	GameID  string  `json:"game_id,omitempty"`
	Players Players `json:"players"`
	// Handicap is the start's Japanese name; "" or 平手 for an even game.
	Handicap string `json:"handicap,omitempty"`
	// RedoCount is how many redo games preceded this one in its chain (0
	// for an original game).
	RedoCount int `json:"redo_count"`
	// Remaining is each side's allowance left at the end (for a redo
	// game's time, D-R2).
	Remaining *Times `json:"remaining,omitempty"`
	Ending    Ending `json:"ending"`
	// Fouls are the fouls pointed out.
	Fouls []FoulClaim `json:"fouls,omitempty"`
	// NextGameStarted: the next game of the event had begun before the
	// record's fouls came to light (D-X3).
	NextGameStarted bool `json:"next_game_started,omitempty"`
	// Rulings are the arbiter's rulings on this game, superseded ones
	// included (EffectiveRulings picks those in force).
	Rulings []Ruling `json:"rulings,omitempty"`
	// Points and Declaration stand in for a record: the jishogi points at
	// the end and the declarer's position facts.
	Points      *Points           `json:"points,omitempty"`
	Declaration *DeclarationFacts `json:"declaration,omitempty"`
	// Findings come from the record, when there is one.
	Findings *Findings `json:"findings,omitempty"`
}

// totalPoints is the sum of both sides' jishogi points in any game: each
// side's 19 pieces other than the king are two majors (5) and 17 minors (1).
const totalPoints = 54

func validSide(field string, s *Side) error {
	if s != nil && !s.Valid() {
		return fieldErr(field, "is neither sente nor gote")
	}
	return nil
}

func (p Points) validate() error {
	if p.Sente < 0 || p.Gote < 0 || p.Sente+p.Gote != totalPoints {
		return fieldErr("", "sente %d + gote %d must be %d: every piece but the kings counts for one side", p.Sente, p.Gote, totalPoints)
	}
	return nil
}

func (d DeclarationFacts) validate() error {
	if d.PiecesInCamp < 0 || d.PiecesInCamp > 38 {
		return fieldErr("pieces_in_camp", "%d is outside 0 … 38", d.PiecesInCamp)
	}
	if d.Points < 0 || d.Points > totalPoints {
		return fieldErr("points", "%d is outside 0 … %d", d.Points, totalPoints)
	}
	return nil
}

func (f Findings) validate() error {
	if f.Plies < 0 || f.Plies > maxPlies {
		return fieldErr("plies", "%d is outside 0 … %d", f.Plies, maxPlies)
	}
	if f.Foul != nil {
		if f.Foul.Ply < 1 || f.Foul.Ply > f.Plies {
			return fieldErr("foul.ply", "%d is outside 1 … %d", f.Foul.Ply, f.Plies)
		}
		if !f.Foul.Kind.Valid() {
			return fieldErr("foul.kind", "%q is not a foul", f.Foul.Kind)
		}
		if !f.Foul.Offender.Valid() {
			return fieldErr("foul.offender", "is neither sente nor gote")
		}
		if f.Complete {
			return fieldErr("complete", "a record with an illegal move is not complete")
		}
	}
	last := 0
	for i, s := range f.Sennichite {
		field := fmt.Sprintf("sennichite[%d]", i)
		if s.Ply <= last || s.Ply > f.Plies {
			return fieldErr(field+".ply", "%d is not after %d and within the %d moves", s.Ply, last, f.Plies)
		}
		last = s.Ply
		if s.Perpetual != (s.Loser != nil) {
			return fieldErr(field+".loser", "is given exactly when perpetual is true")
		}
		if err := validSide(field+".loser", s.Loser); err != nil {
			return err
		}
	}
	if f.FinalOccurrences < 0 || f.FinalOccurrences > maxPlies {
		return fieldErr("final_occurrences", "%d is out of range", f.FinalOccurrences)
	}
	if !f.SideToMove.Valid() {
		return fieldErr("side_to_move", "is neither sente nor gote")
	}
	if f.MaxMovesPly != 0 && (f.MaxMovesPly < maxMovesLimit || f.MaxMovesPly > f.Plies) {
		return fieldErr("max_moves_ply", "%d is neither 0 nor within %d … %d", f.MaxMovesPly, maxMovesLimit, f.Plies)
	}
	if f.Points != nil && (f.Points.Sente < 0 || f.Points.Gote < 0) {
		return fieldErr("points", "negative points")
	}
	if f.Declaration != nil {
		if err := f.Declaration.validate(); err != nil {
			return prefixed("declaration", err)
		}
	}
	return nil
}

// Validate checks the facts on their own (Decide also checks them against
// the settings).
func (f Facts) Validate() error {
	e := f.Ending
	switch e.Kind {
	case EndResign, EndTimeForfeit, EndDeclaration:
		if e.By == nil {
			return fieldErr("ending.by", "%s needs the side it happened to (sente or gote)", e.Kind)
		}
	case EndForfeit:
		if (e.By == nil) == !e.BothAbsent {
			return fieldErr("ending.by", "a forfeit names the absent side, or sets both_absent instead")
		}
	case EndMate, EndFoul, EndArbiterFoulLoss:
		// By may come from the record or from a ruling; checked in Decide.
	case EndSennichite, EndJishogiAgreement, EndMaxMoves:
		if e.By != nil {
			return fieldErr("ending.by", "%s happens to neither side; leave by out", e.Kind)
		}
	default:
		return fieldErr("ending.kind", "%q is not an ending (want one of %s)", e.Kind, endingKindList())
	}
	if err := validSide("ending.by", e.By); err != nil {
		return err
	}
	if e.BothAbsent && e.Kind != EndForfeit {
		return fieldErr("ending.both_absent", "only for a forfeit")
	}
	if e.Ply < 0 || e.Ply > maxPlies {
		return fieldErr("ending.ply", "%d is outside 0 … %d", e.Ply, maxPlies)
	}
	if e.Foul != "" {
		if e.Kind != EndFoul {
			return fieldErr("ending.foul", "only for kind foul")
		}
		if !e.Foul.Valid() {
			return fieldErr("ending.foul", "%q is not a foul (want one of %s)", e.Foul, foulKindList())
		}
	}
	if e.TimeLeft != nil && e.Kind != EndDeclaration {
		return fieldErr("ending.time_left", "only for a declaration")
	}
	if e.PerpetualCheckBy != nil && e.Kind != EndSennichite {
		return fieldErr("ending.perpetual_check_by", "only for a sennichite")
	}
	if err := validSide("ending.perpetual_check_by", e.PerpetualCheckBy); err != nil {
		return err
	}
	if f.RedoCount < 0 || f.RedoCount > maxRedos {
		return fieldErr("redo_count", "%d is outside 0 … %d", f.RedoCount, maxRedos)
	}
	if f.Remaining != nil {
		for _, s := range []Side{Sente, Gote} {
			if d := f.Remaining.Of(s).D(); d < 0 || d > maxAllowance {
				return fieldErr("remaining."+s.String(), "%s is outside 0 … %s", d, maxAllowance)
			}
		}
	}
	for i, c := range f.Fouls {
		if err := c.validate(); err != nil {
			return prefixed(fmt.Sprintf("fouls[%d]", i), err)
		}
	}
	if f.Points != nil {
		if err := f.Points.validate(); err != nil {
			return prefixed("points", err)
		}
	}
	if f.Declaration != nil {
		if err := f.Declaration.validate(); err != nil {
			return prefixed("declaration", err)
		}
	}
	if f.Findings != nil {
		if err := f.Findings.validate(); err != nil {
			return prefixed("findings", err)
		}
		if e.Kind == EndForfeit && f.Findings.Plies > 0 {
			return fieldErr("ending.kind", "a forfeited game (不戦) has no moves, but the record has %d", f.Findings.Plies)
		}
		if e.Ply != 0 && e.Ply != f.Findings.Plies {
			return fieldErr("ending.ply", "%d, but the record has %d moves", e.Ply, f.Findings.Plies)
		}
	}
	if e.Kind == EndForfeit && e.Ply > 0 {
		return fieldErr("ending.ply", "a forfeited game (不戦) has no moves")
	}
	for i, r := range f.Rulings {
		if f.GameID != "" && r.GameID != "" && r.GameID != f.GameID {
			return fieldErr(fmt.Sprintf("rulings[%d].game_id", i), "%q is not this game (%q)", r.GameID, f.GameID)
		}
		if i > 0 && f.GameID == "" && r.GameID != f.Rulings[0].GameID {
			return fieldErr(fmt.Sprintf("rulings[%d].game_id", i), "%q differs from rulings[0]'s %q; one game at a time", r.GameID, f.Rulings[0].GameID)
		}
	}
	return nil
}

func endingKindList() string {
	ks := EndingKinds()
	ss := make([]string, len(ks))
	for i, k := range ks {
		ss[i] = string(k)
	}
	return strings.Join(ss, ", ")
}
