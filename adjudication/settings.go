package adjudication

import (
	"fmt"
	"time"
)

// Settings are an organiser's (or one event's) choices wherever the rules
// leave one. DefaultSettings gives the federation's rules (000, 001); the
// web shows every field with its default.
type Settings struct {
	// Kind is "official" (公式棋戦) or "amateur" (大会). Some choices exist
	// only for amateur events (000 第8条第5項, 第9条第4項三; 004).
	Kind EventKind `json:"kind"`
	// Jishogi is the points rule for 持将棋 by agreement: "24" (24点法,
	// D-J1, 000 第9条第4項一・二) or "27" (27点法, D-J2, amateur only).
	Jishogi JishogiRule `json:"jishogi"`
	// JishogiTie27 settles 27–27 under the 27 rule: "redo" or
	// "gote_wins" (D-J2, 000 第9条第4項三; 004 uses gote_wins).
	JishogiTie27 JishogiTie `json:"jishogi_27_tie"`
	// Declaration is the 入玉宣言法 in force: "none", "federation"
	// (31 wins, 24–30 redo; D-J3, 000 第9条第5項) or "27" (sente 28, gote
	// 27, with time left; D-J3, 004; amateur only).
	Declaration DeclarationRule `json:"declaration"`
	// ResignationPriority is 投了優先: a foul found after the game leaves
	// the result at the end standing (D-X3, 000 第10条第4項).
	ResignationPriority bool `json:"resignation_priority"`
	// ClockHand is what pressing the clock with the other hand costs:
	// "warning_then_loss" or "immediate_loss" (D-X6, 000 第10条第12項, 004).
	ClockHand ClockHandRule `json:"clock_hand"`
	// RepeatedRedo is what happens after several redos (D-R4).
	RepeatedRedo RepeatedRedo `json:"repeated_redo"`
	// RedoCountsAsGame: a 千日手/持将棋 game counts as a game of the match
	// (only title matches do; D-R3, 000 第9条第9項, 001 第6条4).
	RedoCountsAsGame bool `json:"redo_counts_as_game"`
	// Time is the time control.
	Time TimeControl `json:"time"`
}

// EventKind is official (公式棋戦) or amateur (大会).
type EventKind string

const (
	EventOfficial EventKind = "official"
	EventAmateur  EventKind = "amateur"
)

// JishogiRule is the points rule for 持将棋 by agreement.
type JishogiRule string

const (
	Jishogi24 JishogiRule = "24" // 24点法 (D-J1)
	Jishogi27 JishogiRule = "27" // 27点法 (D-J2)
)

// JishogiTie settles 27–27 under the 27 rule.
type JishogiTie string

const (
	TieRedo     JishogiTie = "redo"
	TieGoteWins JishogiTie = "gote_wins"
)

// DeclarationRule is the 入玉宣言法 in force.
type DeclarationRule string

const (
	DeclarationNone       DeclarationRule = "none"
	DeclarationFederation DeclarationRule = "federation" // 31 wins, 24–30 redo
	Declaration27         DeclarationRule = "27"         // sente 28, gote 27, time left
)

// ClockHandRule is the penalty for pressing the clock with the other hand.
type ClockHandRule string

const (
	ClockHandWarningThenLoss ClockHandRule = "warning_then_loss"
	ClockHandImmediateLoss   ClockHandRule = "immediate_loss"
)

// RedoPolicy is what ends a long chain of redos in an amateur event.
type RedoPolicy string

const (
	RedoAgain        RedoPolicy = "redo_again"
	RedoGoteWins     RedoPolicy = "gote_wins"
	RedoFurigoma     RedoPolicy = "furigoma"
	RedoArbiterRules RedoPolicy = "arbiter"
)

// RepeatedRedo is D-R4: once After redo games have been played and the
// latest also ends without result, Then applies. After 0 means no limit
// (only with redo_again).
type RepeatedRedo struct {
	After int        `json:"after"`
	Then  RedoPolicy `json:"then"`
}

// DefaultSettings are the federation's rules: an official game, 24点法, the
// federation's declaration rule, no 投了優先, a warning first for the
// clock hand, redo after redo, redo games not counted, six hours each on a
// chess clock with 60-second byoyomi and the one-hour top-up for redos.
func DefaultSettings() Settings {
	return Settings{
		Kind:                EventOfficial,
		Jishogi:             Jishogi24,
		JishogiTie27:        TieGoteWins,
		Declaration:         DeclarationFederation,
		ResignationPriority: false,
		ClockHand:           ClockHandWarningThenLoss,
		RepeatedRedo:        RepeatedRedo{After: 0, Then: RedoAgain},
		RedoCountsAsGame:    false,
		Time:                DefaultTimeControl(),
	}
}

// Validate checks every field; the error names the first bad one.
func (s Settings) Validate() error {
	switch s.Kind {
	case EventOfficial, EventAmateur:
	default:
		return fieldErr("kind", "%q is not an event kind (want official or amateur)", s.Kind)
	}
	switch s.Jishogi {
	case Jishogi24:
	case Jishogi27:
		if s.Kind != EventAmateur {
			return fieldErr("jishogi", "the 27-point rule is for amateur events only (000 第9条第4項三); set kind to amateur or use \"24\"")
		}
	default:
		return fieldErr("jishogi", "%q is not a jishogi rule (want \"24\" or \"27\")", s.Jishogi)
	}
	switch s.JishogiTie27 {
	case TieRedo, TieGoteWins:
	default:
		return fieldErr("jishogi_27_tie", "%q is not a 27–27 rule (want redo or gote_wins)", s.JishogiTie27)
	}
	switch s.Declaration {
	case DeclarationNone, DeclarationFederation:
	case Declaration27:
		if s.Kind != EventAmateur {
			return fieldErr("declaration", "the 28/27-point declaration is an amateur rule (004); set kind to amateur or use \"federation\"")
		}
	default:
		return fieldErr("declaration", "%q is not a declaration rule (want none, federation or 27)", s.Declaration)
	}
	switch s.ClockHand {
	case ClockHandWarningThenLoss, ClockHandImmediateLoss:
	default:
		return fieldErr("clock_hand", "%q is not a clock-hand rule (want warning_then_loss or immediate_loss)", s.ClockHand)
	}
	if err := s.RepeatedRedo.validate(s.Kind); err != nil {
		return prefixed("repeated_redo", err)
	}
	if err := s.Time.Validate(); err != nil {
		return prefixed("time", err)
	}
	return nil
}

func (r RepeatedRedo) validate(kind EventKind) error {
	if r.After < 0 {
		return fieldErr("after", "%d is negative (0 means no limit)", r.After)
	}
	switch r.Then {
	case RedoAgain:
		return nil
	case RedoGoteWins, RedoFurigoma, RedoArbiterRules:
	default:
		return fieldErr("then", "%q is not a policy (want redo_again, gote_wins, furigoma or arbiter)", r.Then)
	}
	if kind != EventAmateur {
		// 000 第8条第6項, 第9条第8項: in official games a redo of a redo is
		// again a redo; only amateur events choose otherwise (第8条第5項).
		return fieldErr("then", "official games redo again after every 千日手/持将棋 (000 第8条第6項); %q needs kind amateur", r.Then)
	}
	if r.After < 1 {
		return fieldErr("after", "%q needs after ≥ 1: the number of redo games played before it applies", r.Then)
	}
	return nil
}

// TimeControl is how time is kept (D-T, 001 第4条・第5条) and how a redo
// game's time is set (D-R2, 001 第6条).
type TimeControl struct {
	// Allowance is each player's 持ち時間 ("6h", "10m"; "0s" for byoyomi
	// from the first move).
	Allowance Duration `json:"allowance"`
	// Timing is "stopwatch" (ストップウォッチ, D-T1) or "chess_clock" (D-T2).
	Timing Timing `json:"timing"`
	// Byoyomi is "60s", "30s" or "none" (切れ負け) (D-T3, 001 第5条).
	Byoyomi Byoyomi `json:"byoyomi"`
	// RedoTopUp: in a redo game the lower clock is raised to one hour by
	// adding the same to both (D-R2, 001 第6条1). Applies when Allowance is
	// over one hour.
	RedoTopUp bool `json:"redo_top_up"`
	// ShortAllowanceRedo is the event's own rule for a redo game's time
	// when Allowance is one hour or less (001 第6条3): "restart" (the full
	// allowance again), "remaining" (each keeps what was left) or "top_up"
	// (the one-hour rule, never above the allowance).
	ShortAllowanceRedo ShortAllowanceRedo `json:"short_allowance_redo"`
}

// Timing is how the recorder measures time.
type Timing string

const (
	Stopwatch  Timing = "stopwatch"
	ChessClock Timing = "chess_clock"
)

// Byoyomi is the time per move once the allowance is used (秒読み).
type Byoyomi string

const (
	Byoyomi60   Byoyomi = "60s"
	Byoyomi30   Byoyomi = "30s"
	ByoyomiNone Byoyomi = "none"
)

// Period is the time allowed per move in byoyomi; 0 for none.
func (b Byoyomi) Period() time.Duration {
	switch b {
	case Byoyomi60:
		return time.Minute
	case Byoyomi30:
		return 30 * time.Second
	}
	return 0
}

// ShortAllowanceRedo is the event's rule for redo time when the allowance
// is one hour or less.
type ShortAllowanceRedo string

const (
	ShortRestart   ShortAllowanceRedo = "restart"
	ShortRemaining ShortAllowanceRedo = "remaining"
	ShortTopUp     ShortAllowanceRedo = "top_up"
)

// maxAllowance bounds the allowance so sums of durations cannot overflow;
// the longest official allowance is nine hours.
const maxAllowance = 48 * time.Hour

// DefaultTimeControl is six hours each (a common official allowance) on a
// chess clock with 60-second byoyomi, the one-hour top-up on, and a fresh
// allowance for redo games of events with one hour or less.
func DefaultTimeControl() TimeControl {
	return TimeControl{
		Allowance:          Duration(6 * time.Hour),
		Timing:             ChessClock,
		Byoyomi:            Byoyomi60,
		RedoTopUp:          true,
		ShortAllowanceRedo: ShortRestart,
	}
}

// Validate checks the time control; the error names the field.
func (tc TimeControl) Validate() error {
	a := tc.Allowance.D()
	if a < 0 {
		return fieldErr("allowance", "%s is negative", a)
	}
	if a > maxAllowance {
		return fieldErr("allowance", "%s is more than %s", a, maxAllowance)
	}
	switch tc.Byoyomi {
	case Byoyomi60, Byoyomi30, ByoyomiNone:
	default:
		return fieldErr("byoyomi", "%q is not a byoyomi (want 60s, 30s or none)", tc.Byoyomi)
	}
	switch tc.Timing {
	case ChessClock:
		if a == 0 && tc.Byoyomi == ByoyomiNone {
			return fieldErr("byoyomi", "with no allowance and no byoyomi there is no time to move")
		}
	case Stopwatch:
		// 001 第4条A2: with a stopwatch the last minute of the allowance is
		// read as byoyomi, so the count is always the one-minute count.
		if tc.Byoyomi != Byoyomi60 {
			return fieldErr("byoyomi", "the stopwatch method reads the last minute of the allowance as byoyomi (001 第4条A2), so it needs \"60s\"; use chess_clock for %q", tc.Byoyomi)
		}
		if a < time.Minute || a%time.Minute != 0 {
			return fieldErr("allowance", "the stopwatch method counts whole minutes (001 第4条A1): %s is not a whole number of minutes of at least one", a)
		}
	default:
		return fieldErr("timing", "%q is not a timing method (want stopwatch or chess_clock)", tc.Timing)
	}
	switch tc.ShortAllowanceRedo {
	case ShortRestart, ShortRemaining, ShortTopUp:
	default:
		return fieldErr("short_allowance_redo", "%q is not a rule (want restart, remaining or top_up)", tc.ShortAllowanceRedo)
	}
	return nil
}

func (tc TimeControl) String() string {
	return fmt.Sprintf("%s %s byoyomi %s", tc.Allowance, tc.Timing, tc.Byoyomi)
}
