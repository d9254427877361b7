package pairing

import (
	"errors"
	"fmt"
)

// ErrInvalid marks bad input: the caller (CLI, web form) should answer with
// the field named in the wrapping FieldError, never a server error.
var ErrInvalid = errors.New("invalid input")

// FieldError names the input field that is wrong and why. It wraps
// ErrInvalid so callers can test with errors.Is.
type FieldError struct {
	Field  string // e.g. "entrants[3].seed"
	Reason string // the English sentence of the command line
	// Code and Params say the same for a caller that speaks another
	// language (issue 24 item 3): one of the Field… codes, with the values
	// it names (players by entrant id). "" for input only a program sends.
	Code   string
	Params map[string]any
}

// Codes of FieldError. Params named in brackets.
const (
	FieldTooFewEntrants = "too_few_entrants" // [Count]
	FieldBracketSize    = "bracket_size"     // the field is larger than a bracket may be [Count]
	FieldSeedGap        = "seed_gap"         // seeds must run 1..n [Player, Seed, Want]
	FieldSeedNoLine     = "seed_no_line"     // more seeds than the bracket has lines [Player, Seed]
	FieldEntryNeedsByes = "entry_needs_byes" // a late entry's byes are taken [Player, Seed, Round]
	FieldEntryRound     = "entry_round"      // entry round out of range [Player, Round, Max]
	FieldEntryUnseeded  = "entry_unseeded"   // only seeds enter after round 1 [Player]
	FieldQualifiers     = "qualifiers"       // not a power of two below the size [Qualifiers, Size]
)

// Codes of FieldError for ranking groups (ranking_groups.go, D-G1…D-G5);
// office.RankingInputWords says them as names.err.ranking.<code>.
const (
	FieldRankingGroups    = "ranking_groups"     // groups are not numbered 1…N [Group, Want]
	FieldRankingSize      = "ranking_size"       // a group's bracket is not 2, 4, 8 … lines [Group, Count]
	FieldRankingPlayoff   = "ranking_playoff"    // the 決定戦 rounds or winners do not fit the bracket [Group, Rounds]
	FieldRankingSurvival  = "ranking_survival"   // the 残留決定戦 round or count do not fit [Group, Rounds, Entrants]
	FieldRankingOverlap   = "ranking_overlap"    // one round's losers sent to both 決定戦 [Group, Round]
	FieldRankingFinish    = "ranking_finish"     // a place or promotion names a finish the group does not have [Group]
	FieldRankingTwice     = "ranking_twice"      // one finish listed twice in places or in promotions [Group]
	FieldRankingSlot      = "ranking_slot"       // a 本戦 slot without a name or named twice [Group, Slot]
	FieldRankingTopUp     = "ranking_top_up"     // the top group promotes [Group]
	FieldRankingBottom    = "ranking_bottom"     // the lowest group relegates [Group]
	FieldRankingMember    = "ranking_member"     // a player in two groups, or a new entrant already in one [Player]
	FieldRankingUnfinish  = "ranking_unfinished" // next term asked before a group has finished [Group]
	FieldRankingNoEntrant = "ranking_no_entrant" // a group with nobody in its bracket [Group]
	FieldRankingSeat      = "ranking_seat"       // a 本戦 slot without a seat in the 本戦 table, or a seat no group fills [Slot]
	FieldRankingSeatTwice = "ranking_seat_twice" // a seat of the 本戦 table without a slot name, or named twice [Slot]
)

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// Unwrap lets errors.Is(err, ErrInvalid) hold for every FieldError.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// codedErr is fieldErr with the code and values a caller translates.
func codedErr(code string, params map[string]any, field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...), Code: code, Params: params}
}
