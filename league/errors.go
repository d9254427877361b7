package league

import "fmt"

// InputError is bad draw input named by a code and the values the code
// speaks of (issue 24 item 3): a caller says it in its reader's language
// from Code and Params, naming players by their ids in Params. Error() is
// the English sentence the command line prints. It wraps ErrInvalid.
type InputError struct {
	Code   string // one of the Input… codes below
	Field  string // the input field, as the JSON request names it
	Params map[string]any
	msg    string
}

// Codes of InputError. Params named in brackets.
const (
	InputClass          = "class"            // the class is not one of A … C2, or a league has one [Class]
	InputKind           = "kind"             // [Kind]
	InputTooFewPlayers  = "too_few_players"  // [Players]
	InputTooManyPlayers = "too_many_players" // [Players, Max]
	InputPlayerID       = "player_id"        // an empty or repeated id [Player]
	InputOwnMaster      = "own_master"       // [Player]
	InputGamesTooFew    = "games_too_few"    // games_per_player below 1 [Games]
	InputGamesOverClass = "games_over_class" // games_per_player above the classmates [Games, Classmates, Players]
	InputPair           = "pair"             // a relatives / previous-term pair names one player twice or nobody [Player]
	InputPreviousTerms  = "previous_terms"   // more than two previous terms [Terms]
	InputDatesCount     = "dates_count"      // [Rounds, Got]
	InputDateMissing    = "date_missing"     // [Round]
	InputFinalOneDay    = "final_one_day"    // [Round, Got]
	InputSettings       = "settings"         // a setting out of its range [Setting]
	InputOther          = "other"            // anything else
)

func (e *InputError) Error() string { return fmt.Sprintf("%v: %s", ErrInvalid, e.msg) }

// Unwrap lets errors.Is(err, ErrInvalid) hold.
func (e *InputError) Unwrap() error { return ErrInvalid }

// inputErr builds an InputError whose English sentence is format/args.
func inputErr(code, field string, params map[string]any, format string, args ...any) error {
	return &InputError{Code: code, Field: field, Params: params, msg: fmt.Sprintf(format, args...)}
}

// Codes of NoScheduleError: why no schedule exists (or none was found).
const (
	NoScheduleTooFewGames  = "too_few_games" // proven: the rules leave some players too few possible opponents
	NoScheduleRelatedPairs = "related_pairs" // proven: no round robin places the related pairs as the rules require
	NoScheduleNotFound     = "not_found"     // the search gave up; Conflicts are its closest attempt's
)
