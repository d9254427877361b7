package adjudication

import "slices"

// Result is what a game came to.
type Result string

const (
	SenteWin Result = "sente_win"
	GoteWin  Result = "gote_win"
	// Redo is no result: the game is replayed (千日手, 持将棋; D-R1).
	Redo Result = "redo"
	// BothLose is a forfeit where neither player came.
	BothLose Result = "both_lose"
	// Pending needs a decision outside this package: a toss (振り駒) or
	// the arbiter (DecidedBy says which).
	Pending Result = "pending"
)

func winFor(s Side) Result {
	if s == Gote {
		return GoteWin
	}
	return SenteWin
}

// Reason is a stable code for why the result is what it is.
type Reason string

const (
	ReasonResignation      Reason = "resignation"
	ReasonCheckmate        Reason = "checkmate"
	ReasonTimeForfeit      Reason = "time_forfeit"
	ReasonForfeit          Reason = "forfeit"        // 不戦
	ReasonDoubleForfeit    Reason = "double_forfeit" // neither came
	ReasonFoul             Reason = "foul"           // found during the game (D-X2)
	ReasonFoulAfterGame    Reason = "foul_after_game"
	ReasonPerpetualCheck   Reason = "perpetual_check"
	ReasonSennichite       Reason = "sennichite"
	ReasonJishogiRedo      Reason = "jishogi_redo"         // both reached the points
	ReasonJishogiPoints    Reason = "jishogi_points"       // a side fell short
	ReasonJishogiTieGote   Reason = "jishogi_tie_gote"     // 27–27, gote wins
	ReasonDeclarationWin   Reason = "declaration_win"      // D-J3
	ReasonDeclarationRedo  Reason = "declaration_redo"     // 24–30 under the federation rule
	ReasonDeclarationFail  Reason = "declaration_failed"   // the declarer loses
	ReasonMaxMoves         Reason = "max_moves"            // D-J4
	ReasonArbiterFoulLoss  Reason = "arbiter_foul_loss"    // D-K1
	ReasonRedoLimitGote    Reason = "redo_limit_gote_wins" // D-R4
	ReasonRedoLimitToss    Reason = "redo_limit_furigoma"
	ReasonRedoLimitArbiter Reason = "redo_limit_arbiter"
	ReasonDisputedFoul     Reason = "disputed_foul" // the arbiter must decide (D-X5)
)

// Outcome is the decision on one game.
type Outcome struct {
	Result Result `json:"result"`
	Winner *Side  `json:"winner,omitempty"`
	Loser  *Side  `json:"loser,omitempty"`
	Reason Reason `json:"reason"`
	// Ply is the move at which the game was decided (the foul's ply for a
	// foul loss); 0 when unknown or before any move.
	Ply int `json:"ply,omitempty"`
	// Foul names the foul for foul losses.
	Foul FoulKind `json:"foul,omitempty"`
	// FailedConditions lists the unmet declaration conditions (D-J3):
	// not_before_500, king_not_in_camp, too_few_pieces, in_check,
	// no_time_left, too_few_points.
	FailedConditions []string `json:"failed_conditions,omitempty"`
	// Points are the jishogi points a 持将棋 by agreement was decided on.
	Points *Points `json:"points,omitempty"`
	// DeclaredPoints are the declarer's points (D-J3: pieces in hand and
	// in the enemy camp).
	DeclaredPoints *int `json:"declared_points,omitempty"`
	// DecidedBy says who settles a pending result: "furigoma" or "arbiter".
	DecidedBy string `json:"decided_by,omitempty"`
	// Rules are the DOMAIN.md rule ids applied, Articles the seed articles.
	Rules    []string `json:"rules"`
	Articles []string `json:"articles"`
	// Notes explain where the record overrode the report, and similar.
	Notes []Note `json:"notes,omitempty"`
	// Rejected are foul claims that do not count, each with why.
	Rejected []Rejection `json:"rejected,omitempty"`
	// Warnings are warnings due (clock hand, D-X6).
	Warnings []Warning `json:"warnings,omitempty"`
	// MatchComplete is false while a redo game must still be played (D-R3).
	MatchComplete bool `json:"match_complete"`
	// CountsAsGame: the game counts in a match's tally (redo games only
	// when the event says so; D-R3).
	CountsAsGame bool `json:"counts_as_game"`
	// Redo is the redo game to play, when Result is redo.
	Redo *RedoGame `json:"redo,omitempty"`
}

// Note is an explanation attached to an outcome.
type Note struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Rejection is a foul claim that does not change the result.
type Rejection struct {
	// Claim is the index in Facts.Fouls, or -1 for a foul the record shows.
	Claim   int      `json:"claim"`
	Kind    FoulKind `json:"kind"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Rule    string   `json:"rule"`
	Article string   `json:"article"`
}

// Warning is a warning the arbiter (or organiser) is to give.
type Warning struct {
	Side    Side     `json:"side"`
	Kind    FoulKind `json:"kind"`
	Message string   `json:"message"`
}

func (o *Outcome) cite(rule, article string) {
	if rule != "" && !slices.Contains(o.Rules, rule) {
		o.Rules = append(o.Rules, rule)
	}
	if article != "" && !slices.Contains(o.Articles, article) {
		o.Articles = append(o.Articles, article)
	}
}

func (o *Outcome) note(code, msg string) {
	o.Notes = append(o.Notes, Note{Code: code, Message: msg})
}

// lose sets loser's defeat.
func (o *Outcome) lose(loser Side, reason Reason, ply int) {
	o.Result = winFor(loser.Opponent())
	o.Winner = sidePtr(loser.Opponent())
	o.Loser = sidePtr(loser)
	o.Reason = reason
	o.Ply = ply
}

// redo sets no result.
func (o *Outcome) redo(reason Reason, ply int) {
	o.Result = Redo
	o.Winner, o.Loser = nil, nil
	o.Reason = reason
	o.Ply = ply
}
